#!/usr/bin/env python3
"""Gaussian blur of one 12 MP RGBA photo: blurtool against OpenCV, libvips (pyvips), Pillow, Pillow-SIMD.

Times each library (warm-up, then the median of --trials runs) at each σ and thread count, and scores
every output against a float64 reference: a separable Gaussian sampled at integers, truncated at 4σ,
normalised, with the edge handling that library itself uses (mirror = ...c b a | a b c..., clamp = edge
pixel repeated). Run it with .venv-peers/bin/python (it re-executes itself there if started elsewhere);
Pillow-SIMD runs in .venv-simd through `--worker pillow-simd`. See README.md beside this file.
"""
import argparse
import hashlib
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from alternating import Served, alternate, pair_figures, pinned, timed
from machine import describe, summary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEERS_PY = os.path.join(ROOT, ".venv-peers", "bin", "python")
SIMD_PY = os.path.join(ROOT, ".venv-simd", "bin", "python")
BUILD_DIR = os.path.join(ROOT, ".build", "release")  # blurbench and blurtool; --build-dir overrides
DEFAULT_INPUT = "/work/shared/photos/apples_4032x3024.jpg"
SLOW_SECONDS = 3.0  # a warm-up slower than this cuts the trials to 3
EDGES = {"mirror": "symmetric", "clamp": "edge"}  # our names -> np.pad modes
# The reference edge each peer is scored against (--probe-edges shows the evidence). Pillow's GaussianBlur
# is 3 extended box passes per axis, each clamping (BoxBlur.c), which near the borders matches neither
# Gaussian reference: it is scored against both and the closer one is reported.
PEER_EDGE = {"opencv": ("mirror",), "pyvips-int": ("clamp",), "pyvips-float": ("clamp",),
             "pillow": ("clamp", "mirror"), "pillow-simd": ("clamp", "mirror"), "ours": ("mirror",)}
SINGLE_THREADED = ("pillow", "pillow-simd")


def time_it(run, trials):
    """Runs `run` once to warm up, then `trials` times (3 when the warm-up took over SLOW_SECONDS).

    Returns (median ms, min ms, trials run, output of the last run)."""
    start = time.perf_counter()
    output = run()
    if time.perf_counter() - start > SLOW_SECONDS:
        trials = min(trials, 3)
    times = []
    for _ in range(trials):
        start = time.perf_counter()
        output = run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), trials, output


def worker_pillow_simd(args):
    """Worker mode (runs under .venv-simd): times Pillow-SIMD at each σ, saves outputs, prints JSON."""
    import PIL
    from PIL import Image, ImageFilter
    image = Image.fromarray(np.load(args.npy), "RGBA")
    results = {}
    for sigma in args.sigma_list:
        median, low, trials, out = time_it(lambda: image.filter(ImageFilter.GaussianBlur(radius=sigma)),
                                           args.trials)
        path = os.path.join(args.out_dir, f"pillow-simd-{sigma:g}.npy")
        np.save(path, np.asarray(out))
        results[f"{sigma:g}"] = {"median_ms": median, "min_ms": low, "trials": trials, "output": path}
    print(json.dumps({"version": PIL.__version__, "results": results}))


def generated_image(width=4032, height=3024, seed=12):
    """A seeded photo-like RGBA image: smooth gradients and waves, hard-edged shapes, sensor noise."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    img = np.empty((height, width, 3), np.float32)
    for c in range(3):
        fx, fy, phase = rng.uniform(1, 6, 2).tolist() + [rng.uniform(0, 6.3)]
        img[..., c] = 128 + 60 * np.sin(2 * np.pi * (fx * x / width + fy * y / height) + phase) \
            + 40 * (x / width - y / height)
    for _ in range(40):
        cx, cy, r = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(40, 500)
        inside = (x - cx) ** 2 + (y - cy) ** 2 < r * r if rng.random() < 0.5 else \
            (abs(x - cx) < r) & (abs(y - cy) < r * rng.uniform(0.2, 1))
        img[inside] = rng.uniform(0, 255, 3)
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    rgba = np.full((height, width, 4), 255, np.uint8)
    rgba[..., :3] = np.clip(np.rint(img), 0, 255)
    return rgba


def load_input(path):
    """The photo at `path` (or a generated one if missing) as opaque 8-bit RGBA, and a description."""
    from PIL import Image
    if path and os.path.exists(path):
        with Image.open(path) as im:
            rgba = np.array(im.convert("RGBA"))
        rgba[..., 3] = 255
        return rgba, path
    print(f"peer_blur: {path} not found, using a generated 4032x3024 image (seed 12)")
    return generated_image(), "generated 4032x3024 (seed 12)"


def blur_axis(x, sigma, axis, pad_mode, radius=None):
    """Float64 convolution of 2-D `x` along `axis` with the sampled Gaussian, by FFT on the padded axis."""
    from scipy import fft
    r = radius if radius is not None else max(1, math.ceil(4 * sigma))
    offsets = np.arange(-r, r + 1, dtype=np.float64)
    kernel = np.exp(-offsets * offsets / (2 * sigma * sigma))
    kernel /= kernel.sum()
    widths = [(0, 0), (0, 0)]
    widths[axis] = (r, r)
    padded = np.pad(x, widths, mode=pad_mode)
    n = fft.next_fast_len(padded.shape[axis] + 2 * r, real=True)
    shape = [1, 1]
    shape[axis] = n // 2 + 1
    spectrum = fft.rfft(padded, n, axis=axis) * fft.rfft(kernel, n).reshape(shape)
    full = fft.irfft(spectrum, n, axis=axis)
    return np.take(full, np.arange(2 * r, 2 * r + x.shape[axis]), axis=axis)


def gaussian_reference(img, sigma, edge, radius=None):
    """The float64 reference blur of an RGBA uint8 image (returned as float32: ample for 8-bit scores)."""
    out = np.empty(img.shape, np.float32)
    for c in range(img.shape[2]):
        channel = img[..., c]
        if channel.min() == channel.max():  # a normalised kernel keeps a constant channel exact
            out[..., c] = channel.flat[0]
            continue
        x = blur_axis(channel.astype(np.float64), sigma, 0, EDGES[edge], radius)
        out[..., c] = blur_axis(x, sigma, 1, EDGES[edge], radius)
    return out


def cached_reference(img, key, sigma, edge, cache_dir):
    """gaussian_reference, kept on disk under cache_dir keyed by (input hash, σ, edge)."""
    path = os.path.join(cache_dir, f"ref-{key}-sigma{sigma:g}-{edge}.npy")
    if not os.path.exists(path):
        started = time.perf_counter()
        ref = gaussian_reference(img, sigma, edge)
        np.save(path + ".part.npy", ref)
        os.replace(path + ".part.npy", path)
        print(f"  reference σ={sigma:g} {edge}: {time.perf_counter() - started:.1f} s (cached)")
    return np.load(path, mmap_mode="r")


def score(out, ref, sigma):
    """RGB PSNR (dB), the same with a 4σ border left out, RGB max abs error, and alpha's max error.

    Scores RGB only so that RGBA and RGB outputs compare alike (an opaque photo's alpha is 255 everywhere:
    its error is reported apart, or "dropped" when the output has no alpha)."""
    b = math.ceil(4 * sigma)
    sq_sum = sq_inner = worst = 0.0
    for c in range(3):
        diff = out[..., c].astype(np.float64) - ref[..., c]
        sq_sum += float(np.einsum("ij,ij->", diff, diff))
        inner = diff[b:-b, b:-b]
        sq_inner += float(np.einsum("ij,ij->", inner, inner))
        worst = max(worst, float(np.abs(diff).max()))

    def psnr(sq, count):
        return float("inf") if sq == 0 else 10 * math.log10(255.0 ** 2 * count / sq)

    alpha = float(np.abs(out[..., 3] - ref[..., 3].astype(np.float64)).max()) if out.shape[2] == 4 else None
    return {"psnr_db": psnr(sq_sum, 3 * diff.size), "max_error": worst, "alpha_max_error": alpha,
            "psnr_interior_db": psnr(sq_inner, 3 * inner.size) if inner.size else None}


def in_process_peers(img):
    """name -> (version, set_threads(n), blur(σ), to_array(blur's result)) for this venv's peers.

    Only blur is timed: it leaves the pixels where a caller could use them (an array, bytes, a PIL
    image); to_array turns that into a numpy array for scoring."""
    import cv2
    import PIL
    import pyvips
    from PIL import Image, ImageFilter
    pyvips.cache_set_max(0)  # or repeated trials would return the cached result
    h, w, _ = img.shape
    vimg = pyvips.Image.new_from_memory(img.data, w, h, 4, "uchar")
    pimg = Image.fromarray(img, "RGBA")
    vips_version = f"pyvips {pyvips.__version__}, libvips " + ".".join(str(pyvips.version(i)) for i in range(3))

    def vips(precision, dtype):
        return (vips_version, pyvips.concurrency_set,
                lambda s: vimg.gaussblur(s, precision=precision).write_to_memory(),
                lambda data: np.frombuffer(data, dtype).reshape(h, w, 4))

    return {
        "opencv": (cv2.__version__, cv2.setNumThreads,
                   lambda s: cv2.GaussianBlur(img, (0, 0), sigmaX=s, borderType=cv2.BORDER_REFLECT), np.asarray),
        "pyvips-int": vips("integer", np.uint8),
        "pyvips-float": vips("float", np.float32),
        "pillow": (PIL.__version__, lambda n: None,
                   lambda s: pimg.filter(ImageFilter.GaussianBlur(radius=s)), np.asarray),
    }


def run_pillow_simd(npy, sigmas, trials, out_dir):
    """Runs the Pillow-SIMD worker under .venv-simd; returns its parsed JSON, or {"error": reason}."""
    if not os.path.exists(SIMD_PY):
        return {"error": "no .venv-simd (run setup_venvs.sh)"}
    command = [SIMD_PY, os.path.abspath(__file__), "--worker", "pillow-simd", "--npy", npy,
               "--sigmas", ",".join(f"{s:g}" for s in sigmas), "--trials", str(trials), "--out-dir", out_dir]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["exit %d" % done.returncode])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


OURS_REUSED = "ours, reused"  # the row of our blur into memory PixelMemory reuses (blurbench blur-auto-sigma*)


def run_ours_timing(build_dir, png, threads, trials):
    """blurbench's blur-auto-sigma* medians at `threads`: {σ string: result}, or {"error": reason}."""
    blurbench = os.path.join(build_dir, "blurbench")
    if not os.path.exists(blurbench):
        return {"error": f"{blurbench} missing (make release)"}
    command = [blurbench, "--filter", "blur-auto-sigma", "--json", "--threads", str(threads),
               "--trials", str(trials), "--input", png]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": f"blurbench exit {done.returncode}: " + (done.stdout + done.stderr).strip()[:120]}
    try:
        results = json.loads(done.stdout)["results"]
    except (ValueError, KeyError) as error:
        return {"error": f"blurbench output not understood ({error})"}
    return {r["name"][len("blur-auto-sigma"):]: r for r in results if r["name"].startswith("blur-auto-sigma")}


def run_ours_output(build_dir, png, sigma, out_dir):
    """blurtool's blur of the PNG at σ (default edge mirror, precision auto) as an array, or None."""
    from PIL import Image
    out, blurtool = os.path.join(out_dir, f"ours-{sigma:g}.png"), os.path.join(build_dir, "blurtool")
    if not os.path.exists(blurtool) or subprocess.run(
            [blurtool, png, "--sigma", f"{sigma:g}", "-o", out], capture_output=True).returncode != 0:
        return None
    with Image.open(out) as im:
        return np.array(im)


def scored_output(out, img, key, sigma, peer, cache_dir):
    """Scores one output (float outputs rounded to 8 bits first) against its peer's reference."""
    if out.dtype != np.uint8:
        out = np.clip(np.rint(out), 0, 255).astype(np.uint8)
    edges = PEER_EDGE[peer]
    scores = [dict(score(out, cached_reference(img, key, sigma, edge, cache_dir), sigma), edge=edge)
              for edge in edges]
    best = max(scores, key=lambda s: s["psnr_db"])
    if len(edges) > 1:
        best["edge"] += " (the closer of " + "/".join(edges) + ")"
    return best


def prepare_input(args):
    """Loads the photo; writes it losslessly as PNG (for blurtool, blurbench) and .npy (for the worker)."""
    img, described = load_input(args.input)
    key = hashlib.sha256(img.tobytes()).hexdigest()[:16]
    os.makedirs(args.cache_dir, exist_ok=True)
    png = os.path.join(args.cache_dir, f"input-{key}.png")
    npy = os.path.join(args.cache_dir, f"input-{key}.npy")
    if not os.path.exists(png):
        from PIL import Image
        Image.fromarray(img, "RGBA").save(png + ".part", format="PNG", compress_level=1)
        os.replace(png + ".part", png)
    if not os.path.exists(npy):
        np.save(npy + ".part.npy", img)
        os.replace(npy + ".part.npy", npy)
    return img, described, key, png, npy


def alternate_with_opencv(args, img, png):
    """OpenCV's GaussianBlur and ours (`blur-auto-sigmaS-fresh`, each result in fresh pages as OpenCV's is)
    trial by trial in turn, `--alternating` pairs per thread count and σ (alternating.py): {"T/σ": figures}."""
    import cv2
    blurbench = os.path.join(args.build_dir, "blurbench")
    if not os.path.exists(blurbench):
        return {"error": f"{blurbench} missing (make release)"}
    figures = {}
    for threads in args.thread_list:
        cv2.setNumThreads(threads)
        for sigma in args.sigma_list:
            name = f"blur-auto-sigma{sigma:g}-fresh"
            command = [blurbench, "--filter", name, "--threads", str(threads), "--input", png]
            try:
                with pinned(threads), Served(command) as ours_process:
                    result = alternate(
                        lambda: timed(lambda: cv2.GaussianBlur(img, (0, 0), sigmaX=sigma,
                                                               borderType=cv2.BORDER_REFLECT)),
                        lambda: ours_process.trial(name), args.alternating)
            except RuntimeError as error:
                result = {"error": str(error)}
            figures[f"{threads}/{sigma:g}"] = result
            print(f"  alternating, {threads} thr σ={sigma:<4g} {pair_figures(result, 'opencv')}")
    return figures


def benchmark(args):
    """The whole run: returns the JSON-ready report (input, versions, rows)."""
    img, described, key, png, npy = prepare_input(args)
    out_dir = tempfile.mkdtemp(prefix="peer_blur-")
    h, w, _ = img.shape
    load = os.getloadavg()[0]
    machine = describe(args.build_dir)
    print(f"peer_blur: {summary(machine)}")
    print(f"peer_blur: {w}x{h} RGBA from {described}; σ {args.sigma_list}, threads {args.thread_list}, "
          f"{args.trials} trials; load average {load:.2f}" + (" (busy machine: timings, above all with 2 "
                                                               "threads, will be off)" if load > 0.7 else ""))
    wanted = set(args.only.split(",")) if args.only else {"opencv", "pyvips-int", "pillow", "pillow-simd", "ours"}
    if args.vips_float:
        wanted.add("pyvips-float")
    first = args.thread_list[0]
    versions, rows, scores = {}, [], {}

    def add(peer, threads, sigma, timing, out=None):
        """Records one timing; scores `out` the first time this (peer, σ) is seen."""
        if (peer, sigma) not in scores and out is not None:
            scores[peer, sigma] = scored_output(out, img, key, sigma, peer, args.cache_dir)
        rows.append(dict(peer=peer, threads=threads, sigma=sigma, **timing, **scores.get((peer, sigma), {})))
        print(f"  {threads} thr σ={sigma:<4g} {peer:13s} {timing['median_ms']:9.1f} ms")

    for name, (version, set_threads, blur, to_array) in in_process_peers(img).items():
        if name not in wanted:
            continue
        versions[name] = version
        for threads in args.thread_list if name not in SINGLE_THREADED else [first]:
            set_threads(threads)
            for sigma in args.sigma_list:
                median, low, trials, out = time_it(lambda: blur(sigma), args.trials)
                add(name, threads, sigma, dict(median_ms=median, min_ms=low, trials=trials), to_array(out))
                del out
    if "pillow-simd" in wanted:
        simd = run_pillow_simd(npy, args.sigma_list, args.trials, out_dir)
        versions["pillow-simd"] = simd.get("version", "unavailable: " + simd.get("error", "?"))
        for sigma_text, result in simd.get("results", {}).items():
            path = result.pop("output")
            add("pillow-simd", first, float(sigma_text), result, np.load(path))
            os.remove(path)
    ours_status = {}
    if "ours" in wanted:
        for threads in args.thread_list:
            timing = run_ours_timing(args.build_dir, png, threads, args.trials)
            ours_status[threads] = timing.get("error", "ok")
            for sigma in args.sigma_list:
                # "ours" as the peers work: each result in fresh pages (`-fresh`); beside it, the same blur in
                # memory our allocator reuses, as a long-running caller gets it.
                for peer, suffix in (("ours", "-fresh"), (OURS_REUSED, "")):
                    if f"{sigma:g}{suffix}" not in timing:
                        continue
                    result = timing[f"{sigma:g}{suffix}"]
                    out = None
                    if peer == "ours" and ("ours", sigma) not in scores:
                        out = run_ours_output(args.build_dir, png, sigma, out_dir)
                        if out is None:
                            scores.setdefault(("ours", sigma), {"note": "blurtool failed: not scored"})
                    add(peer, threads, sigma, {k: result[k] for k in ("median_ms", "min_ms", "trials")}, out)
    alternating = {}
    if args.alternating and {"opencv", "ours"} <= wanted:
        alternating = alternate_with_opencv(args, img, png)
    for sigma in args.sigma_list:  # the best any 8-bit output can score: the reference rounded
        ref = cached_reference(img, key, sigma, "mirror", args.cache_dir)
        for threads in args.thread_list:
            rows.append(dict(peer="8-bit ceiling", threads=threads, sigma=sigma, median_ms=None, edge="mirror",
                             note="the reference rounded to nearest", **score(np.rint(ref), ref, sigma)))
    for row in list(rows):  # Pillow has no threads: its one number stands in the other tables too
        if row["peer"] in SINGLE_THREADED:
            if row["threads"] != 1:
                row["note"] = "single-threaded"
            rows.extend(dict(row, threads=t, note="single-threaded, same run") for t in args.thread_list[1:])
    ours = {(r["threads"], r["sigma"]): r["median_ms"] for r in rows if r["peer"] == "ours"}
    for row in rows:
        mine = ours.get((row["threads"], row["sigma"]))
        row["peer_over_ours"] = row["median_ms"] / mine if mine and row["median_ms"] and row["peer"] != "ours" \
            else None
    shutil.rmtree(out_dir, ignore_errors=True)
    return {"machine": machine, "input": described, "width": w, "height": h, "input_sha256_16": key, "versions": versions,
            "ours": ours_status, "trials": args.trials, "load_average": [load, os.getloadavg()[0]],
            "alternating_with_opencv": alternating,
            "reference_edge": {k: "/".join(v) for k, v in PEER_EDGE.items()}, "rows": rows}


def print_tables(report, sigmas, thread_list):
    """One table per thread count: σ, peer, median ms, peer/ours, PSNR, interior PSNR, max error, edge."""
    fmt = "{:>5} {:13s} {:>10} {:>9} {:>8} {:>9} {:>8}  {}"

    def number(value, suffix=""):
        return "-" if value is None else f"{value:.2f}{suffix}"

    def notes(row):
        alpha = row.get("alpha_max_error")
        return ", ".join(x for x in (
            row.get("edge"), None if "psnr_db" not in row or row["peer"] == "8-bit ceiling" else
            "alpha dropped (RGB output)" if alpha is None else "alpha exact" if alpha == 0 else
            f"alpha err {alpha:.2f}",
            row.get("note"), "float output rounded to 8 bits" if row["peer"] == "pyvips-float" else None) if x)

    for threads in thread_list:
        print(f"\n{threads} thread{'s' if threads > 1 else ''} (peer/ours > 1: ours is faster). PSNR (whole "
              "image; inner: 4σ border left out) and max error on RGB against the float64 4σ reference")
        print(fmt.format("σ", "peer", "median ms", "peer/ours", "PSNR dB", "inner dB", "max err",
                         "reference edge, notes"))
        for sigma in sigmas:
            rows = [r for r in report["rows"] if r["threads"] == threads and r["sigma"] == sigma]
            for row in sorted(rows, key=lambda r: (r["peer"] == "8-bit ceiling", r["peer"] == "ours")):
                median = "-" if row["median_ms"] is None else f"{row['median_ms']:.1f}"
                print(fmt.format(f"{sigma:g}", row["peer"], median, number(row["peer_over_ours"], "x"),
                                 number(row.get("psnr_db")), number(row.get("psnr_interior_db")),
                                 number(row.get("max_error")), notes(row)))
            if not any(r["peer"] == "ours" for r in rows):
                reason = report["ours"].get(threads, "not run")
                print(fmt.format(f"{sigma:g}", "ours", "-", "-", "-", "-", "-", "unavailable" + (
                    f" ({reason})" if reason != "ok" else f" (no blur-auto-sigma{sigma:g} benchmark)")))
    print("\nours: timed by blurbench blur-auto-sigmaS (GaussianBlur.apply, no dither); scored on the output of "
          "`blurtool IN.png --sigma S`, the same undithered blur")
    print("versions: " + "; ".join(f"{k} {v}" for k, v in report["versions"].items()))


def probe_edges():
    """Shows which edge handling each in-process peer uses, on a small image with bright borders."""
    import cv2
    import pyvips
    from PIL import Image, ImageFilter
    pyvips.cache_set_max(0)
    rng = np.random.default_rng(1)
    img = rng.integers(30, 60, (48, 64, 4)).astype(np.uint8)
    img[..., 3] = 255
    img[:, :3, 0] = 250
    img[:3, :, 1] = 250
    img[:, -1, 2] = 255
    for sigma in (1.5, 4):
        r = max(1, math.ceil(4 * sigma))
        vr = int(math.floor(sigma * math.sqrt(-2 * math.log(0.001))))  # libvips' mask radius at min_ampl
        outs = {"opencv (float32, 4σ kernel)": (cv2.GaussianBlur(img.astype(np.float32), (2 * r + 1,) * 2, sigma,
                                                                 borderType=cv2.BORDER_REFLECT), None),
                "pyvips (float, min_ampl 0.001)": (np.frombuffer(pyvips.Image.new_from_memory(
                    img.data, 64, 48, 4, "uchar").gaussblur(sigma, precision="float", min_ampl=0.001)
                    .write_to_memory(), np.float32).reshape(img.shape), vr),
                "pillow (3 box passes per axis)": (np.asarray(Image.fromarray(img, "RGBA").filter(
                    ImageFilter.GaussianBlur(radius=sigma))), None)}
        for name, (out, radius) in outs.items():
            errors = {e: np.abs(out - gaussian_reference(img, sigma, e, radius)).max() for e in EDGES}
            print(f"σ={sigma:<4g} {name:32s} " + "  ".join(f"max error vs {e}: {v:.3f}" for e, v in errors.items()))


def parse_args(argv):
    """Command-line options (see --help)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--input", default=DEFAULT_INPUT, help="photo (default: %(default)s; generated if missing)")
    p.add_argument("--sigmas", default="2,10,30,100")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--alternating", type=int, default=0,
                   help="also time OpenCV and ours trial by trial in turn, this many pairs per thread count and "
                        "σ (alternating.py; default: %(default)s, none)")
    p.add_argument("--quick", action="store_true", help="σ 2,30, 1 thread, 3 trials")
    p.add_argument("--only", help="comma-separated subset: opencv,pyvips-int,pyvips-float,pillow,pillow-simd,ours")
    p.add_argument("--vips-float", action="store_true", help="also time pyvips precision=float (slow: 11 s at σ 30)")
    p.add_argument("--json", help="write every number to this file")
    p.add_argument("--build-dir", default=BUILD_DIR, help="where blurbench and blurtool are (%(default)s)")
    p.add_argument("--cache-dir", default=os.path.join(tempfile.gettempdir(), "blurtool-peer-cache"))
    p.add_argument("--probe-edges", action="store_true", help="show each peer's edge handling and exit")
    p.add_argument("--worker", choices=["pillow-simd"], help=argparse.SUPPRESS)
    p.add_argument("--npy", help=argparse.SUPPRESS)
    p.add_argument("--out-dir", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.sigmas, args.threads, args.trials = "2,30", "1", 3
    args.sigma_list = [float(s) for s in args.sigmas.split(",")]
    args.thread_list = [int(t) for t in args.threads.split(",")]
    return args


def main(argv):
    args = parse_args(argv)
    if args.worker:
        return worker_pillow_simd(args)
    try:
        for module in ("cv2", "pyvips", "scipy", "PIL"):
            __import__(module)
    except ImportError as error:
        if os.path.exists(PEERS_PY) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.dirname(
                os.path.dirname(PEERS_PY))):
            os.execv(PEERS_PY, [PEERS_PY, os.path.abspath(__file__)] + argv)
        sys.exit(f"peer_blur: {error}; run Benchmarks/peers/setup_venvs.sh first")
    if args.probe_edges:
        return probe_edges()
    report = benchmark(args)
    print_tables(report, args.sigma_list, args.thread_list)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main(sys.argv[1:])
