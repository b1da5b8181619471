#!/usr/bin/env python3
"""The default build (no CPU flags, what a SwiftPM dependent gets) against the native one, in one run.

    bench_portable.py --native BLURBENCH --default BLURBENCH [--rounds N] [--json FILE] [-- BLURBENCH ARGS...]

Runs the two blurbench binaries alternately, `--rounds` times each with the same arguments, so that load from
other processes falls on both alike; prints per benchmark the median of the rounds' medians for each build,
the default/native ratio, and the lowest trial of each. Each binary's own report says which CPU, vector
extensions, build and kernel set it ran with; the load average before and after is printed too, since the
machine is shared. Python's standard library only.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run(binary, arguments):
    output = subprocess.run([binary, "--json", *arguments], check=True, capture_output=True, text=True).stdout
    # blurbench prints the JSON last; notes, if any, go to stderr.
    return json.loads(output[output.index("{"):])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--native", required=True, help="blurbench built with -target-cpu native")
    parser.add_argument("--default", required=True, help="blurbench built without CPU flags")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each binary")
    parser.add_argument("--json", help="also write the rounds and the summary here")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="passed to blurbench (after --)")
    options = parser.parse_args()
    arguments = [a for a in options.arguments if a != "--"]
    builds = {"native": options.native, "default": options.default}

    load_before = os.getloadavg()
    rounds = {name: [] for name in builds}
    for round_index in range(options.rounds):
        # Alternate which build goes first, so neither always runs on a machine the other just warmed.
        order = list(builds) if round_index % 2 == 0 else list(reversed(builds))
        for name in order:
            print(f"bench-portable: round {round_index + 1}/{options.rounds}, {name}", file=sys.stderr)
            rounds[name].append(run(builds[name], arguments))
    load_after = os.getloadavg()

    def describe(report):
        return (f"{report['cpu']}; {' '.join(report['vector_extensions'])}; build {report['build']}; "
                f"{report.get('kernels', '?')} kernels; {report['threads']} threads")

    print(f"bench-portable: {options.rounds} alternating rounds, blurbench {' '.join(arguments)}")
    for name in builds:
        print(f"  {name:8} {describe(rounds[name][0])}")
    print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"(1 min; {os.cpu_count()} CPUs)")

    summary = []
    names = [result["name"] for result in rounds["native"][0]["results"]]
    for name in names:
        def trials(build):
            found = [r for report in rounds[build] for r in report["results"] if r["name"] == name]
            return statistics.median(r["median_ms"] for r in found), min(r["min_ms"] for r in found)

        (native_median, native_min), (default_median, default_min) = trials("native"), trials("default")
        summary.append({"name": name, "native_median_ms": native_median, "default_median_ms": default_median,
                        "ratio": default_median / native_median, "native_min_ms": native_min,
                        "default_min_ms": default_min})

    header = f"{'benchmark':34}{'native ms':>11}{'default ms':>12}{'default/native':>16}{'native min':>12}" \
             f"{'default min':>13}"
    print(header)
    for row in summary:
        flag = "  > 1.25" if row["ratio"] > 1.25 else ""
        print(f"{row['name']:34}{row['native_median_ms']:11.1f}{row['default_median_ms']:12.1f}"
              f"{row['ratio']:15.2f}×{row['native_min_ms']:12.1f}{row['default_min_ms']:13.1f}{flag}")

    if options.json:
        with open(options.json, "w") as f:
            json.dump({"arguments": arguments, "load_before": load_before, "load_after": load_after,
                       "rounds": rounds, "summary": summary}, f, indent=2)


if __name__ == "__main__":
    main()
