#!/usr/bin/env python3
"""Perspective warp of one 12 MP RGBA photo: blurtool's PerspectiveWarp against OpenCV's warpPerspective.

The geometry of blurbench's `perspective-12mp`: the photo turned 30° about the vertical axis through its centre,
seen from 1000 px (m34 = -1/1000), onto a canvas of its size. OpenCV: `cv2.warpPerspective(INTER_LINEAR,
BORDER_CONSTANT)` with the same homography in its pixel-centre convention, timed (warm-up, then the median of
--trials runs of the call alone) at each --threads. Ours: `blurbench --filter perspective-12mp --json` for the
time (`perspective-12mp-fresh`, the canvas and levels in fresh pages as OpenCV's result is; the reused-memory
figure beside it) and `blurtool compose` of a one-layer scene with that transform3D for the pixels (the layer is
drawn flat at its own size, a copy, then warped). Both are scored on RGB against a float64 evaluation: each canvas
pixel the mean of --supersample² bilinear samples of the photo (transparent black outside it and where the plane
lies behind the eye, w <= 0), so a warp that aliases where the plane recedes loses to one that filters. Runs under
.venv-peers (re-executes itself there). See README.md beside this file.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".venv-peers")
PEERS_PY = os.path.join(PEERS, "bin", "python")
if os.path.realpath(sys.prefix) != os.path.realpath(PEERS):
    if not os.path.exists(PEERS_PY):
        sys.exit("peer_perspective: no .venv-peers; run Benchmarks/peers/setup_venvs.sh first")
    os.execv(PEERS_PY, [PEERS_PY, os.path.abspath(__file__), *sys.argv[1:]])

sys.dont_write_bytecode = True  # importing peer_blur must not leave a __pycache__ in the repository
import numpy as np  # noqa: E402

from peer_blur import BUILD_DIR, prepare_input, time_it  # noqa: E402
from alternating import Served, alternate, pair_figures, pinned, timed  # noqa: E402
from machine import describe, summary  # noqa: E402

DEFAULT_INPUT = "/work/shared/photos/apples_4032x3024.jpg"
ANGLE = 30.0   # degrees about the vertical axis; a positive turn takes +x away from the viewer
EYE = 1000.0   # pixels: m34 = -1/EYE


def homography(w, h):
    """Ours, row-vector and corner-based (pixel centres at +0.5): (x, y, 1)·H = (X·q, Y·q, q)."""
    s, c = math.sin(math.radians(ANGLE)), math.cos(math.radians(ANGLE))
    # CATransform3D rows of T(-centre)·rotation about y·perspective·T(centre), reduced to the plane z = 0.
    cx, cy = w / 2, h / 2
    turn = np.array([[c, 0, -s, 0], [0, 1, 0, 0], [s, 0, c, 0], [0, 0, 0, 1]], dtype=np.float64)
    camera = np.eye(4)
    camera[2, 3] = -1 / EYE
    to_origin, back = np.eye(4), np.eye(4)
    to_origin[3, :2], back[3, :2] = (-cx, -cy), (cx, cy)
    m = to_origin @ turn @ camera @ back
    return m[np.ix_([0, 1, 3], [0, 1, 3])]


def opencv_matrix(hom):
    """The same map for OpenCV: column vectors, pixel centres at integers."""
    shift, unshift = np.eye(3), np.eye(3)
    shift[:2, 2], unshift[:2, 2] = 0.5, -0.5
    return unshift @ hom.T @ shift


def reference(img, hom, samples, cache_dir, key):
    """RGB float64: each canvas pixel the mean of samples² bilinear samples (cached under cache_dir)."""
    path = os.path.join(cache_dir, f"perspective-{key}-{ANGLE:g}-{EYE:g}-{samples}.npy")
    if os.path.exists(path):
        return np.load(path)
    from scipy import ndimage
    h, w = img.shape[:2]
    inverse = np.linalg.inv(hom)  # keeps the sign of w: q = 1/w
    rgb = [img[..., c].astype(np.float64) for c in range(3)]
    out = np.zeros((h, w, 3))
    offsets = (np.arange(samples) + 0.5) / samples
    band = max(1, 2_000_000 // (w * samples * samples))
    for y0 in range(0, h, band):
        rows = np.arange(y0, min(h, y0 + band))
        sy = (rows[:, None] + offsets[None, :]).reshape(-1)
        sx = (np.arange(w)[:, None] + offsets[None, :]).reshape(-1)
        gx, gy = np.meshgrid(sx, sy)
        u = gx * inverse[0, 0] + gy * inverse[1, 0] + inverse[2, 0]
        v = gx * inverse[0, 1] + gy * inverse[1, 1] + inverse[2, 1]
        q = gx * inverse[0, 2] + gy * inverse[1, 2] + inverse[2, 2]
        seen = q > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            # Source pixel-centre coordinates (row, column) for map_coordinates; unseen points far outside.
            coords = np.stack([np.where(seen, v / q - 0.5, -10), np.where(seen, u / q - 0.5, -10)])
        for c in range(3):
            values = ndimage.map_coordinates(rgb[c], coords, order=1, mode="grid-constant", cval=0, prefilter=False)
            out[y0:y0 + len(rows), :, c] = values.reshape(len(rows), samples, w, samples).mean(axis=(1, 3))
    np.save(path, out)
    return out


def score(out, ref, seen):
    """RGB PSNR (dB) over the canvas and over the pixels in front of the eye, and the max abs error."""
    diff = out[..., :3].astype(np.float64) - ref
    psnr = lambda d: 10 * math.log10(255.0 ** 2 / float(np.mean(d * d))) if d.any() else math.inf  # noqa: E731
    return {"psnr_db": psnr(diff), "psnr_seen_db": psnr(diff[seen]), "max_error": float(np.abs(diff).max())}


def ours_output(build_dir, png, w, h, out_dir):
    """blurtool compose of the photo as one layer with the benchmark's transform3D (premultiplied RGB), or None."""
    from PIL import Image
    tool = os.path.join(build_dir, "blurtool")
    scene = {"canvas": {"width": w, "height": h, "scale": 1},
             "layers": [{"type": "image", "path": png, "fit": "stretch", "filter": "bilinear",
                         "transform3D": [{"perspective": EYE}, {"rotate": ANGLE, "axis": [0, 1, 0]}]}]}
    scene_path, out = os.path.join(out_dir, "perspective.json"), os.path.join(out_dir, "ours.png")
    with open(scene_path, "w") as f:
        json.dump(scene, f)
    if not os.path.exists(tool) or subprocess.run([tool, "compose", scene_path, "-o", out],
                                                  capture_output=True).returncode:
        return None
    rgba = np.array(Image.open(out).convert("RGBA")).astype(np.float64)
    return rgba[..., :3] * (rgba[..., 3:] / 255)  # our PNG has straight alpha; the reference is premultiplied


def ours_times(args, png):
    """blurbench's perspective-12mp-fresh (the canvas and levels in fresh pages, as OpenCV's result is) and
    perspective-12mp (in memory our allocator reuses) at each thread count: ({threads: median ms} twice, or a
    reason."""
    blurbench, fresh, reused = os.path.join(args.build_dir, "blurbench"), {}, {}
    for threads in args.thread_list:
        if not os.path.exists(blurbench):
            return f"{blurbench} missing (make release)"
        done = subprocess.run([blurbench, "--filter", "perspective-12mp", "--json", "--threads", str(threads),
                               "--trials", str(args.trials), "--input", png], capture_output=True)
        try:
            found = {r["name"]: r for r in json.loads(done.stdout)["results"]}
            fresh[threads] = found["perspective-12mp-fresh"]["median_ms"]
            reused[threads] = found["perspective-12mp"]["median_ms"]
        except (ValueError, KeyError):
            return f"blurbench exit {done.returncode}: " + (done.stdout + done.stderr).decode().strip()[:100]
    return fresh, reused


def alternate_with_opencv(args, img, png, matrix):
    """OpenCV's warpPerspective and our perspective-12mp-fresh (fresh pages, as OpenCV's result) trial by trial in
    turn, `--alternating` pairs at each thread count (alternating.py): {threads: figures}."""
    import cv2
    blurbench, figures = os.path.join(args.build_dir, "blurbench"), {}
    h, w = img.shape[:2]
    for threads in args.thread_list:
        if not os.path.exists(blurbench):
            figures[threads] = {"error": f"{blurbench} missing (make release)"}
            continue
        cv2.setNumThreads(threads)
        command = [blurbench, "--filter", "perspective-12mp-fresh", "--threads", str(threads), "--input", png]
        try:
            with pinned(threads), Served(command) as ours_process:
                figures[threads] = alternate(
                    lambda: timed(lambda: cv2.warpPerspective(img, matrix, (w, h), flags=cv2.INTER_LINEAR,
                                                              borderMode=cv2.BORDER_CONSTANT)),
                    lambda: ours_process.trial("perspective-12mp-fresh"), args.alternating)
        except RuntimeError as error:
            figures[threads] = {"error": str(error)}
    return figures


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--input", default=DEFAULT_INPUT, help="photo (default: %(default)s; generated if missing)")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--alternating", type=int, default=61,
                   help="also time OpenCV and ours trial by trial in turn, this many pairs per thread count "
                        "(alternating.py; default: %(default)s; 0 for none)")
    p.add_argument("--supersample", type=int, default=4, help="reference samples per axis (default %(default)s)")
    p.add_argument("--json", help="write every number to this file")
    p.add_argument("--build-dir", default=BUILD_DIR, help="where blurbench and blurtool are (%(default)s)")
    p.add_argument("--cache-dir", default=os.path.join(tempfile.gettempdir(), "blurtool-peer-cache"))
    args = p.parse_args(argv)
    args.thread_list = [int(t) for t in args.threads.split(",")]
    return args


def main(argv):
    import cv2
    args = parse_args(argv)
    img, described, key, png, _ = prepare_input(args)
    h, w = img.shape[:2]
    hom = homography(w, h)
    load = os.getloadavg()[0]
    machine = describe(args.build_dir)
    print(f"peer_perspective: {summary(machine)}")
    print(f"peer_perspective: {w}x{h} RGBA from {described}; {ANGLE:g}° about y, eye {EYE:g} px; threads "
          f"{args.thread_list}, {args.trials} trials; load average {load:.2f}"
          + (" (busy machine: timings will be off)" * (load > 0.7)))
    ref = reference(img, hom, args.supersample, args.cache_dir, key)
    centres = np.stack(np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5), axis=-1)
    seen = centres @ np.linalg.inv(hom)[:2, 2] + np.linalg.inv(hom)[2, 2] > 0
    rows = []
    matrix, cv_times = opencv_matrix(hom), {}
    for threads in args.thread_list:
        cv2.setNumThreads(threads)
        median, _, _, out = time_it(lambda: cv2.warpPerspective(
            img, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT), args.trials)
        cv_times[threads] = median
    rows.append(dict(peer="opencv warpPerspective", times=cv_times, **score(out, ref, seen)))
    with tempfile.TemporaryDirectory(prefix="peer_perspective-") as out_dir:
        ours = ours_output(args.build_dir, png, w, h, out_dir)
    times = ours_times(args, png)
    row = dict(peer="ours PerspectiveWarp", times=times[0] if isinstance(times, tuple) else {})
    row.update(score(ours, ref, seen) if ours is not None else {"note": "blurtool compose failed: not scored"})
    if not isinstance(times, tuple):
        row["note"] = times
    rows.append(row)
    if isinstance(times, tuple):
        rows.append(dict(peer="ours, reused memory", times=times[1], note="not like for like: OpenCV's result "
                         "is in fresh pages"))
    paired = {}
    if args.alternating:
        paired = alternate_with_opencv(args, img, png, matrix)
    ceiling = np.clip(np.rint(ref), 0, 255)
    rows.append(dict(peer="8-bit ceiling", times={}, **score(ceiling, ref, seen)))
    print(f"{'peer':24}" + "".join(f"{str(t) + ' thr ms':>12}" for t in args.thread_list)
          + f"{'PSNR dB':>10}{'seen dB':>10}{'max err':>9}")
    for row in rows:
        times = "".join(f"{row['times'][t]:12.1f}" if t in row["times"] else f"{'-':>12}" for t in args.thread_list)
        numbers = "".join(f"{row[k]:10.2f}" if k in row else f"{'-':>10}" for k in ("psnr_db", "psnr_seen_db"))
        print(f"{row['peer']:24}{times}{numbers}{row.get('max_error', float('nan')):9.1f}  {row.get('note', '')}")
    for threads, result in paired.items():
        print(f"alternating, {threads} thr: {pair_figures(result, 'opencv')}")
    print("versions: opencv " + cv2.__version__ + f"; load average {load:.2f} at the start, "
          f"{os.getloadavg()[0]:.2f} at the end")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(machine=machine, input=described, input_sha256_16=key, shape=img.shape, angle_deg=ANGLE, eye_px=EYE,
                           supersample=args.supersample, rows=rows, alternating_with_opencv=paired), f)


if __name__ == "__main__":
    main(sys.argv[1:])
