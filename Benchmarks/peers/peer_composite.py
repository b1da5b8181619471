#!/usr/bin/env python3
"""Compositing: blurtool against Pillow, libvips (pyvips), OpenCV and numpy, and the review-screen scene.

(1) Source-over of a 12 MP RGBA layer at opacity 0.8 onto a 12 MP opaque background, in the same run: ours
(blurbench, in place and into a new image) against Pillow `alpha_composite`, pyvips `composite2`, OpenCV
`blendLinear` and a numpy float32 formula, scored against a float64 reference. The layer is the photo
mirrored, with straight alpha rising 0 -> 255 from left to right. The peers get the layer's alpha already
multiplied by 0.8 (untimed); ours applies the opacity inside the kernel. (2) `blurtool compose
fixtures/showcase-review.json` at 1170x2532: the render stage's median (blurtool -v) and the whole process.
Runs under .venv-peers (re-executes itself there). See README.md beside this file.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "..", "..", ".venv-peers")
if os.path.realpath(sys.prefix) != os.path.realpath(PEERS):
    python = os.path.join(PEERS, "bin", "python")
    if not os.path.exists(python):
        sys.exit("peer_composite: no .venv-peers; run Benchmarks/peers/setup_venvs.sh first")
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])

sys.dont_write_bytecode = True  # importing peer_blur must not leave a __pycache__ in the repository
import numpy as np  # noqa: E402

from peer_blur import BUILD_DIR, ROOT, prepare_input, time_it  # noqa: E402
from machine import describe, summary  # noqa: E402

DEFAULT_INPUT = "/work/shared/photos/apples_4032x3024.jpg"
OPACITY = 0.8


def layer_from(img):
    """The photo mirrored left to right with straight alpha round(255·x/(w−1)), as blurbench builds it."""
    h, w, _ = img.shape
    layer = img[:, ::-1].copy()
    layer[..., 3] = ((255 * np.arange(w) + (w - 1) // 2) // (w - 1)).astype(np.uint8)[None, :]
    return layer


def score(out, ref):
    diff = out[..., :3].astype(np.float64) - ref
    mse = float(np.mean(diff * diff))
    return {"psnr_db": 10 * np.log10(255.0 ** 2 / mse) if mse else float("inf"),
            "max_error": float(np.abs(diff).max())}


def peers(background, layer):
    """name -> (set_threads or None, run, to_array, note)."""
    import cv2
    import pyvips
    from PIL import Image
    h, w, _ = background.shape
    faded = layer.copy()
    faded[..., 3] = np.rint(layer[..., 3] * OPACITY).astype(np.uint8)
    pil_bg, pil_fg = Image.fromarray(background, "RGBA"), Image.fromarray(faded, "RGBA")
    vips_bg = pyvips.Image.new_from_memory(background.data, w, h, 4, "uchar").copy(interpretation="srgb")
    vips_fg = pyvips.Image.new_from_memory(faded.data, w, h, 4, "uchar").copy(interpretation="srgb")
    weight = faded[..., 3].astype(np.float32) / 255
    rest = 1 - weight
    as_array = lambda data: np.frombuffer(data, np.uint8).reshape(h, w, 4)  # noqa: E731

    def numpy_over():
        a = faded[..., 3:4].astype(np.float32) * np.float32(1 / 255)
        out = np.empty_like(background)
        out[..., :3] = faded[..., :3] * a + background[..., :3] * (1 - a) + np.float32(0.5)
        out[..., 3] = 255
        return out

    return {
        "pillow": (None, lambda: Image.alpha_composite(pil_bg, pil_fg), np.asarray, "alpha_composite; 1 thread"),
        "pyvips": (pyvips.concurrency_set, lambda: vips_bg.composite2(vips_fg, "over").cast("uchar").write_to_memory(), as_array,
                   "composite2 over (float inside), uchar out"),
        "opencv": (cv2.setNumThreads, lambda: cv2.blendLinear(faded, background, weight, rest), np.asarray,
                   "blendLinear with per-pixel weights computed untimed"),
        "numpy": (None, numpy_over, np.asarray, "float32 formula; 1 thread"),
    }


def ours_timing(args, png, threads):
    """blurbench's composite suites at `threads`: name -> {median_ms, min_ms}."""
    done = subprocess.run([os.path.join(args.build_dir, "blurbench"), "--input", png, "--filter", "composite",
                           "--json", "--threads", str(threads), "--trials", str(args.trials)], capture_output=True)
    if done.returncode:
        sys.exit("peer_composite: blurbench failed: " + (done.stdout + done.stderr).decode()[:200])
    return {r["name"]: r for r in json.loads(done.stdout)["results"]}


def ours_output(args, background, layer, out_dir):
    """blurtool compose of the same two layers, as an array (decoded from its PNG)."""
    from PIL import Image
    Image.fromarray(background, "RGBA").save(os.path.join(out_dir, "bg.png"), compress_level=1)
    Image.fromarray(layer, "RGBA").save(os.path.join(out_dir, "fg.png"), compress_level=1)
    h, w, _ = background.shape
    scene = {"canvas": {"width": w, "height": h}, "layers": [
        {"type": "image", "path": "bg.png"}, {"type": "image", "path": "fg.png", "opacity": OPACITY}]}
    with open(os.path.join(out_dir, "scene.json"), "w") as f:
        json.dump(scene, f)
    out = os.path.join(out_dir, "ours.png")
    subprocess.run([os.path.join(args.build_dir, "blurtool"), "compose", os.path.join(out_dir, "scene.json"),
                    "-o", out], check=True, capture_output=True)
    return np.asarray(Image.open(out).convert("RGBA"))


def review_scene(args, out_dir):
    """Medians of the render stage (blurtool -v) and of the whole process, per thread count."""
    tool, scene = os.path.join(args.build_dir, "blurtool"), os.path.join(ROOT, "fixtures", "showcase-review.json")
    print("\nReview screen (fixtures/showcase-review.json, 1170x2532, blur included): blurtool compose -v")
    results = {}
    for threads in args.thread_list:
        renders, wholes = [], []
        for _ in range(args.trials + 1):
            start = time.perf_counter()
            done = subprocess.run([tool, "compose", scene, "-o", os.path.join(out_dir, "review.png"), "-v",
                                   "--threads", str(threads)], capture_output=True, check=True)
            wholes.append((time.perf_counter() - start) * 1000)
            renders.append(float(re.search(r"render ([0-9.]+) ms", done.stderr.decode()).group(1)))
        renders, wholes = renders[1:], wholes[1:]  # the first run warms the file cache
        results[threads] = {"render_median_ms": statistics.median(renders), "render_min_ms": min(renders),
                            "process_median_ms": statistics.median(wholes)}
        print(f"  {threads} thr: render median {statistics.median(renders):.1f} ms (min {min(renders):.1f}); "
              f"whole process with PNG encode {statistics.median(wholes):.1f} ms; {len(renders)} runs")
    return results


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--input", default=DEFAULT_INPUT, help="photo (default: %(default)s; generated if missing)")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--trials", type=int, default=7)
    p.add_argument("--build-dir", default=BUILD_DIR)
    p.add_argument("--cache-dir", default=os.path.join(tempfile.gettempdir(), "blurtool-peer-cache"))
    p.add_argument("--json", help="write every number to this file")
    args = p.parse_args(argv)
    args.thread_list = [int(t) for t in args.threads.split(",")]
    import pyvips
    pyvips.cache_set_max(0)
    background, described, _, png, _ = prepare_input(args)
    layer = layer_from(background)
    alpha = layer[..., 3:4].astype(np.float64) / 255 * OPACITY
    reference = layer[..., :3] * alpha + background[..., :3] * (1 - alpha)
    load = os.getloadavg()[0]
    machine = describe(args.build_dir)
    print(f"peer_composite: {summary(machine)}")
    print(f"peer_composite: source-over of a {background.shape[1]}x{background.shape[0]} RGBA layer at opacity "
          f"{OPACITY} onto {described}; {args.trials} trials; load average {load:.2f}")
    rows = []
    out_dir = tempfile.mkdtemp(prefix="peer_composite-")
    for name, (set_threads, run, to_array, note) in peers(background, layer).items():
        times = {}
        for threads in args.thread_list if set_threads else args.thread_list[:1]:
            if set_threads:
                set_threads(threads)
            median, low, trials, out = time_it(run, args.trials)
            times[threads] = median
        rows.append(dict(peer=name, times=times, note=note, **score(to_array(out), reference)))
    ours = {t: ours_timing(args, png, t) for t in args.thread_list}
    mine = score(ours_output(args, background, layer, out_dir), reference)
    for suite, label, note in (
            ("composite-over-opacity-new-fresh", "ours (new image)", "copy + draw into fresh pages, as the peers"),
            ("composite-over-opacity-new", "ours (new, reused)", "copy + draw into memory our allocator reuses"),
            ("composite-over-opacity", "ours (in place)", "a renderer's frame, reused")):
        rows.append(dict(peer=label, times={t: ours[t][suite]["median_ms"] for t in args.thread_list},
                         note=note + "; scored on blurtool compose", **mine))
    baseline = rows[-3]["times"]  # ratios against ours into a fresh new image, as the peers return one
    fmt = "{:17s}" + " {:>9} {:>7}" * len(args.thread_list) + " {:>8} {:>7}  {}"
    print(fmt.format("peer", *[x for t in args.thread_list for x in (f"{t} thr ms", "/ours")], "PSNR dB", "max err",
                     "notes"))
    for row in rows:
        cells = []
        for t in args.thread_list:
            value = row["times"].get(t, row["times"][min(row["times"])])
            cells += [f"{value:.2f}", f"{value / baseline[t]:.2f}x"]
        print(fmt.format(row["peer"], *cells, f"{row['psnr_db']:.2f}", f"{row['max_error']:.2f}", row["note"]))
    scene = review_scene(args, out_dir)
    print(f"load average: {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "input": described, "rows": rows, "review_scene": scene}, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
