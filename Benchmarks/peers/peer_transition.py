#!/usr/bin/env python3
"""Photo-to-photo transitions: blurtool transition against ffmpeg's xfade, the same frames of two 1170x2532 photos.

The two photos (default the table and apples photos in /work/shared/photos) are aspect-filled to 1170x2532 by
our blurtool first (`--size`, Lanczos-3) and written as PNGs; without them, two seeded generated images are used.
Then, for each style (fade, wipeleft, circleopen by default), at 60 fps over 1 s:

- ffmpeg (Debian's): each PNG decoded once, converted to planar gbrp (what xfade works on) and repeated as a
  1-s input by the `loop` filter, then `xfade=transition=NAME:duration=1:offset=0` to the null muxer
  (`-f null -`), threads as ffmpeg chooses. Timed as a process, minus the decode-only run: the same graph
  without xfade, both streams to the null muxer (process start, the two decodes and conversions, the loops);
  both medians of --trials runs. The frame count is read from ffmpeg's `-stats` line. (Looping the PNG in the
  image demuxer instead decodes it again every frame, which costs more than xfade and drowns it in the
  subtraction.)
- ours: `blurtool transition FROM TO --style NAME --fps 60 --duration 1 --benchmark`: the frames drawn into
  memory and not encoded; its own "render-only" figure (after decoding and filling), median of --trials runs.

Frames per second are compared (ours draws 61 frames, the end included; xfade 60). Prints the CPU model, its
vector extensions and the uptime line (load averages), and writes every figure with --json. Needs no Python
package.
"""
import argparse
import json
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from machine import describe, summary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PHOTOS = "/work/shared/photos"
EX_USAGE, EX_NOINPUT, EX_SOFTWARE = 64, 66, 70


def uptime():
    """`uptime`'s line: how long the machine is up and its load averages (others' work shows in the timings)."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        with open("/proc/uptime") as f:
            up = float(f.read().split()[0])
        return f"up {up / 3600:.1f} h, load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def run(command):
    """(seconds, stderr) of one process, which must succeed."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return seconds, done.stderr, done.stdout


def write_png(path, width, height, rows):
    """An 8-bit RGB PNG from `rows` (bytes of width*3 each), with zlib: no imaging package needed."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def generated(path, width, height, seed):
    """A seeded stand-in photo: smooth colour gradients with a little per-pixel noise (an LCG)."""
    state = seed
    rows = []
    for y in range(height):
        row = bytearray(width * 3)
        for x in range(0, width * 3, 3):
            state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            noise = (state >> 59) - 16
            row[x] = max(0, min(255, (x * 255) // (width * 3) + noise))
            row[x + 1] = max(0, min(255, (y * 255) // height + noise))
            row[x + 2] = max(0, min(255, ((x // 3 + y) * 255 * seed) // (width + height) % 256 + noise))
        rows.append(bytes(row))
    write_png(path, width, height, rows)


def inputs(args):
    """The two 1170x2532 PNGs (paths) and what they were made from."""
    made = []
    for name, photo, seed in (("from", args.from_photo, 1), ("to", args.to_photo, 3)):
        path = os.path.join(args.work, f"{name}.png")
        if os.path.isfile(photo):
            run([args.ours, photo, "--size", f"{args.width}x{args.height}", "-o", path])
            made.append(photo)
        else:
            generated(path, args.width, args.height, seed)
            made.append(f"generated (seed {seed}; {photo} missing)")
    return [os.path.join(args.work, "from.png"), os.path.join(args.work, "to.png")], made


def ffmpeg_command(args, pngs, tail):
    """ffmpeg with both PNGs as [a] and [b]: decoded once, gbrp, repeated for the duration; `tail` is the rest."""
    frames = round(args.fps * args.duration)
    loop = f"format=gbrp,loop=loop={frames - 1}:size=1:start=0,setpts=N/{args.fps}/TB"
    inputs = []
    for png in pngs:
        inputs += ["-framerate", str(args.fps), "-i", png]
    return [args.ffmpeg, "-hide_banner", "-nostdin", "-stats", *inputs, "-filter_complex",
            f"[0]{loop}[a];[1]{loop}[b]" + tail[0], *tail[1:]]


def frames_of(stderr):
    """The last `frame=  N` of ffmpeg's -stats output."""
    counts = re.findall(r"frame=\s*(\d+)", stderr)
    if not counts:
        raise RuntimeError("ffmpeg printed no frame count")
    return int(counts[-1])


def median(trials, work):
    values = [work() for _ in range(trials)]
    return statistics.median(values), values


def benchmark(args):
    pngs, made = inputs(args)
    decode = ffmpeg_command(args, pngs, ["", "-map", "[a]", "-map", "[b]", "-f", "null", "-"])
    decode_seconds, decode_runs = median(args.trials, lambda: run(decode)[0])
    report = {"cpu": describe(os.path.dirname(args.ours)), "uptime": uptime(), "inputs": made, "size": f"{args.width}x{args.height}",
              "fps": args.fps, "duration": args.duration, "trials": args.trials,
              "ffmpeg_version": run([args.ffmpeg, "-version"])[2].splitlines()[0],
              "ffmpeg_decode_only": {"seconds": decode_seconds, "runs": decode_runs}, "styles": {}}
    for style in args.styles:
        command = ffmpeg_command(
            args, pngs, [f";[a][b]xfade=transition={style}:duration={args.duration}:offset=0", "-f", "null", "-"])
        frames = frames_of(run(command)[1])
        process, process_runs = median(args.trials, lambda: run(command)[0])
        xfade = max(process - decode_seconds, 1e-9)
        ours_command = [args.ours, "transition", pngs[0], pngs[1], "--style", style, "--fps", str(args.fps),
                        "--duration", str(args.duration), "--benchmark"]
        ours_runs = []
        for _ in range(args.trials):
            out = run(ours_command)[2]
            found = re.search(r"render-only: (\d+) frames in [\d.]+ s \(([\d.]+) frames/s, ([\d.]+) ms per frame", out)
            if not found:
                raise RuntimeError(f"blurtool printed no render-only line: {out.strip()}")
            ours_runs.append((int(found.group(1)), float(found.group(2)), float(found.group(3))))
        ours_fps = statistics.median(r[1] for r in ours_runs)
        report["styles"][style] = {
            "ffmpeg": {"frames": frames, "process_seconds": process, "process_runs": process_runs,
                       "minus_decode_seconds": xfade, "frames_per_second": frames / xfade,
                       "ms_per_frame": xfade * 1000 / frames},
            "ours": {"frames": ours_runs[0][0], "frames_per_second": ours_fps, "ms_per_frame": 1000 / ours_fps,
                     "runs": ours_runs},
            "speedup": ours_fps / (frames / xfade)}
    return report


def print_table(report):
    c = report["cpu"]
    print(f"CPU: {summary(c)}")
    print(f"uptime: {report['uptime']}")
    print(f"{report['ffmpeg_version']}; inputs {report['size']}: {'; '.join(report['inputs'])}")
    d = report["ffmpeg_decode_only"]
    print(f"ffmpeg decode-only run (subtracted): {d['seconds'] * 1000:.0f} ms, median of {report['trials']}")
    print()
    print("| style | ffmpeg xfade frames/s (ms/frame) | ours frames/s (ms/frame) | ours/ffmpeg |")
    print("|---|---|---|---|")
    for style, r in report["styles"].items():
        f, o = r["ffmpeg"], r["ours"]
        print(f"| {style} | {f['frames_per_second']:.1f} ({f['ms_per_frame']:.2f}) | "
              f"{o['frames_per_second']:.1f} ({o['ms_per_frame']:.2f}) | {r['speedup']:.2f}x |")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EX_USAGE, f"peer_transition: {message}\n")


def parse_args(argv):
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("--from", dest="from_photo", default=os.path.join(PHOTOS, "table_3024x4032.jpg"))
    p.add_argument("--to", dest="to_photo", default=os.path.join(PHOTOS, "apples_4032x3024.jpg"))
    p.add_argument("--styles", default="fade,wipeleft,circleopen", help="comma-separated (default: %(default)s)")
    p.add_argument("--size", default="1170x2532", help="WIDTHxHEIGHT of the frames (default: %(default)s)")
    p.add_argument("--fps", type=int, default=60)
    p.add_argument("--duration", type=float, default=1)
    p.add_argument("--trials", type=int, default=3, help="median of this many runs of each timing")
    p.add_argument("--ours", default=os.path.join(ROOT, ".build", "release", "blurtool"))
    p.add_argument("--ffmpeg", default="ffmpeg")
    p.add_argument("--json", help="write every figure to this file")
    args = p.parse_args(argv)
    size = re.fullmatch(r"(\d+)x(\d+)", args.size)
    if not size or not (1 <= args.fps <= 1000 and 0 < args.duration <= 60 and args.trials >= 1):
        p.error("needs --size WxH, 1 <= --fps <= 1000, 0 < --duration <= 60, --trials >= 1")
    args.width, args.height = int(size.group(1)), int(size.group(2))
    args.styles = [s for s in args.styles.split(",") if s]
    return args


def main(argv):
    args = parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="peer_transition-") as args.work:
            report = benchmark(args)
        print_table(report)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
            print(f"wrote {args.json}")
    except OSError as error:
        print(f"peer_transition: {error}", file=sys.stderr)
        return EX_NOINPUT
    except RuntimeError as error:
        print(f"peer_transition: {error}", file=sys.stderr)
        return EX_SOFTWARE
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
