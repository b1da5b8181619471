"""Peer and ours timed trial by trial, in turn.

This machine's speed wanders by tens of percent within seconds (another tenant, the host's clocks), so two
medians taken seconds apart can differ by more than the work does, and a ratio of them inherits that. Here each
peer trial is followed at once by one of ours, run by a `blurbench --serve` process that has its benchmarks
built and warmed up: a pair shares the machine's state, and the median of the pairs' ratios is the figure that
holds still from run to run. For one thread both processes are also pinned to one CPU (`pinned`): the two vCPUs
of this VM need not run at the same speed at the same moment, and a peer on one with ours on the other gave
skia-against-ours ratios from 1.2x to 2.5x in runs minutes apart, where pinned runs gave 1.67x to 1.73x.
"""
import contextlib
import os
import statistics
import subprocess
import time


class Served:
    """A `blurbench --serve` process: `trial(name)` runs one prepared trial of that benchmark, its milliseconds."""

    def __init__(self, command):
        self.process = subprocess.Popen(command + ["--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)

    def trial(self, name):
        self.process.stdin.write(name + "\n")
        answer = self.process.stdout.readline()
        try:
            return float(answer)
        except ValueError:
            raise RuntimeError(f"blurbench --serve answered {answer.strip()!r} to {name!r}") from None

    def close(self):
        self.process.stdin.close()
        self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


@contextlib.contextmanager
def pinned(threads):
    """With `threads` 1, this process (and every process it starts meanwhile) on one CPU, its first allowed one;
    otherwise, or where the system has no CPU affinity (macOS), as it was."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    allowed = os.sched_getaffinity(0)
    if threads == 1 and len(allowed) > 1:
        os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


def timed(run, prepare=None):
    """Milliseconds of one run(prepare()) (or run()), prepare untimed."""
    state = prepare() if prepare else None
    start = time.perf_counter()
    run(state) if prepare else run()
    return (time.perf_counter() - start) * 1000


def alternate(peer_trial, ours_trial, pairs):
    """`pairs` pairs of (peer ms, ours ms), each peer trial then one of ours; their medians and the median of the
    pairs' ratios (above 1: ours is faster)."""
    measured = [(peer_trial(), ours_trial()) for _ in range(pairs)]
    return {"pairs": len(measured), "peer_median_ms": statistics.median(p for p, _ in measured),
            "ours_median_ms": statistics.median(o for _, o in measured),
            "median_pair_ratio": statistics.median(p / o for p, o in measured), "pairs_ms": measured}


def pair_figures(result, peer):
    """One line for `alternate`'s figures (or its error): both medians and the median of the pairs' ratios."""
    if "error" in result:
        return result["error"]
    return (f"{peer} {result['peer_median_ms']:.1f} ms, ours {result['ours_median_ms']:.1f} ms, {result['pairs']} "
            f"pairs: median pair ratio {result['median_pair_ratio']:.2f}x")
