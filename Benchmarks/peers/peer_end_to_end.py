#!/usr/bin/env python3
"""End to end: `blurtool PHOTO --material thin -o out.jpg` as a whole process, against pyvips doing the
same work in-process (decode -> gaussblur at the same sigma -> JPEG q90), in one run.

Ours is timed as a subprocess, so process start, reading, decoding, blurring, tinting, encoding and
writing are all in it; pyvips is timed inside this Python process (interpreter start excluded), with its
operation cache off and its default thread count. Prints medians and the ratio pyvips / ours.
Run with .venv-peers/bin/python (see README.md beside this file).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from machine import describe, summary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_INPUT = "/work/shared/photos/apples_4032x3024.jpg"
THIN_POINTS = 25.0      # the thin material's blur, in points (MaterialCatalog)
SCREEN_POINTS = 390.0   # a phone screen's shorter side, in points (MaterialEffect.screenPoints)


def median_ms(run, trials):
    """One warm-up, then the median of `trials` runs, in milliseconds."""
    run()
    times = []
    for _ in range(trials):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=DEFAULT_INPUT)
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--blurtool", default=os.path.join(ROOT, ".build", "release", "blurtool"))
    args = parser.parse_args()
    import pyvips
    pyvips.cache_set_max(0)

    width, height = pyvips.Image.new_from_file(args.input).width, pyvips.Image.new_from_file(args.input).height
    sigma = THIN_POINTS * min(width, height) / SCREEN_POINTS
    with tempfile.TemporaryDirectory() as scratch:
        ours_out = os.path.join(scratch, "ours.jpg")
        vips_out = os.path.join(scratch, "vips.jpg")

        def ours():
            subprocess.run([args.blurtool, args.input, "--material", "thin", "-o", ours_out], check=True)

        def vips():
            image = pyvips.Image.new_from_file(args.input, access="sequential")
            image.gaussblur(sigma).jpegsave(vips_out, Q=90)

        ours_ms, ours_min = median_ms(ours, args.trials)
        vips_ms, vips_min = median_ms(vips, max(3, args.trials // 2))
    print(f"end to end, {args.input} ({width}x{height}), sigma {sigma:.1f} px, JPEG q90; "
          f"{summary(describe(os.path.dirname(args.blurtool)))}")
    print(f"  blurtool --material thin (whole process): median {ours_ms:.1f} ms (min {ours_min:.1f})")
    print(f"  pyvips {pyvips.version(0)}.{pyvips.version(1)} decode -> gaussblur -> jpegsave (in-process): "
          f"median {vips_ms:.1f} ms (min {vips_min:.1f})")
    print(f"  pyvips / ours: {vips_ms / ours_ms:.1f}x")


if __name__ == "__main__":
    if os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(ROOT, ".venv-peers")) and \
            os.path.exists(os.path.join(ROOT, ".venv-peers", "bin", "python")):
        os.execv(os.path.join(ROOT, ".venv-peers", "bin", "python"), [sys.executable, *sys.argv])
    main()
