"""The Python module against OpenCV and Pillow-SIMD on the same numpy array, in one process, trial by trial.

    python Benchmarks/peers/peer_python.py --peer opencv|pillow-simd [--input PHOTO] [--pairs N]

Run with the venv that has the peer (.venv-peers for OpenCV, .venv-simd for Pillow-SIMD), the module on
PYTHONPATH and BLURTOOL_LIBRARY naming the library (`make bench-python` does all that). Everything runs on one
thread: the peer's thread count is set to 1, ours is threads=1, and the process is pinned to one CPU. Each pair is
one peer trial then one of ours on the same 12 MP RGBA array, each returning a new array; the figure is the median
of the pairs' ratios (above 1: ours is faster). The photo is opaque, so premultiplied and straight alpha hold the
same bytes: both are timed, premultiplied=True skipping the conversions straight alpha costs.

With --overhead it also times what a Python call costs beyond the same call made from C (an 8×8 blur into a
kept array, the library's work negligible): the C side is Benchmarks/capi/region_blur's `tiny-blur`.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from alternating import pinned  # noqa: E402
from machine import cpu  # noqa: E402

import blurtool  # noqa: E402


def milliseconds(run):
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def pairs_of(peer, ours, count):
    for _ in range(2):  # warm-up
        peer(), ours()
    measured = [(milliseconds(peer), milliseconds(ours)) for _ in range(count)]
    return (statistics.median(p for p, _ in measured), statistics.median(o for _, o in measured),
            statistics.median(p / o for p, o in measured))


def overhead(c_program, trials=20000):
    """Microseconds a call from Python costs beyond the same call from C."""
    tiny = np.random.default_rng(1).integers(0, 256, (8, 8, 4), dtype=np.uint8)
    tiny[..., 3] = 255
    out = np.empty_like(tiny)
    for _ in range(1000):
        blurtool.blur(tiny, 1, out=out, premultiplied=True, threads=1)
    start = time.perf_counter()
    for _ in range(trials):
        blurtool.blur(tiny, 1, out=out, premultiplied=True, threads=1)
    python_us = (time.perf_counter() - start) / trials * 1e6
    answer = subprocess.run([c_program, "-", "1"], input=f"tiny-blur {trials}\n", capture_output=True, text=True,
                            check=True).stdout
    c_us = float(answer)
    return python_us, c_us


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", choices=["opencv", "pillow-simd"], required=True)
    parser.add_argument("--input", default=os.path.join(HERE, "..", "..", "..", "shared", "photos",
                                                        "apples_4032x3024.jpg"))
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--overhead", metavar="REGION_BLUR_PROGRAM")
    args = parser.parse_args()
    with open(args.input, "rb") as f:
        image = blurtool.decode(f.read())
    machine = cpu()
    print(f"CPU: {machine['model']}, {machine['cores']} cores, {' '.join(machine['vector'])}; "
          f"blurtool {blurtool.version()} kernels {blurtool.kernels()}")
    print(f"input: {os.path.basename(args.input)} {image.shape[1]}x{image.shape[0]} RGBA, one thread, "
          f"{args.pairs} pairs")
    with pinned(1):
        if args.peer == "opencv":
            import cv2
            cv2.setNumThreads(1)
            print(f"peer: OpenCV {cv2.__version__}, cv2.GaussianBlur(array, (0, 0), sigma) (BORDER_REFLECT_101)")
            sigmas = [2, 30]

            def peer(sigma):
                return lambda: cv2.GaussianBlur(image, (0, 0), sigma)
        else:
            from PIL import Image, ImageFilter
            import PIL
            picture = Image.fromarray(image, "RGBA")
            print(f"peer: Pillow-SIMD {PIL.__version__}, image.filter(ImageFilter.GaussianBlur(sigma))")
            sigmas = [2, 30]

            def peer(sigma):
                return lambda: picture.filter(ImageFilter.GaussianBlur(sigma))
        for sigma in sigmas:
            for premultiplied in (True, False):
                ours = lambda: blurtool.blur(image, sigma, threads=1, premultiplied=premultiplied)  # noqa: E731
                peer_ms, ours_ms, ratio = pairs_of(peer(sigma), ours, args.pairs)
                print(f"sigma {sigma:>2}, premultiplied={premultiplied!s:5}: {args.peer} {peer_ms:8.1f} ms, "
                      f"blurtool {ours_ms:8.1f} ms, median pair ratio {ratio:.2f}x")
        if args.overhead:
            python_us, c_us = overhead(args.overhead)
            print(f"an 8x8 blur into a kept array: from Python {python_us:.1f} us a call, from C {c_us:.1f} us: "
                  f"the Python call costs {python_us - c_us:.1f} us more")


if __name__ == "__main__":
    main()
