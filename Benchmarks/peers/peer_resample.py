#!/usr/bin/env python3
"""Resampling of one 12 MP RGBA photo: blurtool against OpenCV, libvips (pyvips), Pillow, Pillow-SIMD.

(1) Aspect fill to 1170x2532 (Lanczos-3 where the library has it) and (2) bilinear rotation by 30°, timed
(warm-up, then the median of --trials runs of the call alone) and scored on RGB against float64 references;
(3) end to end, `blurtool PHOTO --material thin --size 1170x2532` as a process against pyvips thumbnail ->
gaussblur -> jpegsave. Runs under .venv-peers (re-executes itself there when started with another python);
Pillow-SIMD runs in .venv-simd via `--worker pillow-simd`. See README.md beside this file.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".venv-peers")
PEERS_PY = os.path.join(PEERS, "bin", "python")
if "--worker" not in sys.argv and os.path.realpath(sys.prefix) != os.path.realpath(PEERS):
    if not os.path.exists(PEERS_PY):
        sys.exit("peer_resample: no .venv-peers; run Benchmarks/peers/setup_venvs.sh first")
    os.execv(PEERS_PY, [PEERS_PY, os.path.abspath(__file__), *sys.argv[1:]])

sys.dont_write_bytecode = True  # importing peer_blur must not leave a __pycache__ in the repository
import numpy as np  # noqa: E402

from peer_blur import BUILD_DIR, SIMD_PY, prepare_input, time_it  # noqa: E402
from machine import describe, summary  # noqa: E402

DEFAULT_INPUT = "/work/shared/photos/table_3024x4032.jpg"
FRAME = (1170, 2532)  # a phone screen in pixels
ANGLE = 30.0          # degrees, counter-clockwise as OpenCV counts them
THIN_SIGMA = 25.0 * min(FRAME) / 390.0  # the thin material's 25 pt blur at 3 px/pt: 75 px
BORDER = 4            # pixels left out of the "inner" scores


def worker_pillow_simd(args):
    """Worker mode (runs under .venv-simd): times Pillow-SIMD's resize, saves its output, prints JSON."""
    from PIL import Image, __version__ as version
    image, box = Image.fromarray(np.load(args.npy), "RGBA"), tuple(float(v) for v in args.box.split(","))
    median, low, trials, out = time_it(lambda: image.resize(FRAME, Image.LANCZOS, box=box), args.trials)
    np.save(os.path.join(args.out_dir, "pillow-simd.npy"), np.asarray(out))
    print(json.dumps({"version": version, "median_ms": median, "min_ms": low, "trials": trials}))


def lanczos_axis(x, axis, start, length, count):
    """Float64 Lanczos-3 resampling of `x` along `axis`: output i covers [start + i·s, start + (i+1)·s),
    s = length / count, centred at start + (i + 0.5)·s - 0.5; the kernel is stretched by max(s, 1), taps
    outside the image are dropped and the rest renormalised (our Resampler; Pillow's idea too)."""
    s, stretch = length / count, max(length / count, 1.0)
    centres = start + (np.arange(count) + 0.5) * s - 0.5
    taps = np.ceil(centres - 3 * stretch).astype(int)[:, None] + np.arange(int(math.ceil(6 * stretch)) + 1)
    t = np.abs(taps - centres[:, None]) / stretch
    weights = np.where(t < 3, np.sinc(t) * np.sinc(t / 3), 0.0)
    weights[(taps < 0) | (taps >= x.shape[axis])] = 0
    weights /= weights.sum(axis=1, keepdims=True)
    x, taps = np.moveaxis(x, axis, 0), np.clip(taps, 0, x.shape[axis] - 1)
    out = np.zeros((count,) + x.shape[1:])
    for k in range(taps.shape[1]):
        out += weights[:, k, None, None] * x[taps[:, k]]
    return np.moveaxis(out, 0, axis)


def lanczos_reference(img, box):
    """RGB of the float64 fill of `box` to FRAME, clipped to 0...255 as any 8-bit output is (ringing
    overshoots: unclipped, every peer would show the same 20-level "error")."""
    tall = lanczos_axis(img[..., :3].astype(np.float64), 0, box[1], box[3] - box[1], FRAME[1])
    return np.clip(lanczos_axis(tall, 1, box[0], box[2] - box[0], FRAME[0]), 0, 255).astype(np.float32)


def bilinear_reference(img, inverse):
    """RGB of a float64 bilinear warp onto a canvas of the image's size: canvas pixel (x, y) reads the source
    at inverse · (x, y, 1) (pixel centres at integers, as OpenCV), transparent black around the picture."""
    from scipy import ndimage  # (row, column) is (y, x): the map turned around
    return np.dstack([ndimage.affine_transform(img[..., c].astype(np.float64), inverse[::-1, 1::-1], inverse[::-1, 2],
                                               order=1, mode="grid-constant", prefilter=False) for c in range(3)])


def score(out, ref):
    """RGB PSNR (dB), the same with a BORDER-pixel frame left out, and the max abs error."""
    diff = out[..., :3].astype(np.float64) - ref
    inner = diff[BORDER:-BORDER, BORDER:-BORDER]
    psnr = lambda d: 10 * math.log10(255.0 ** 2 / float(np.mean(d * d))) if d.any() else math.inf  # noqa: E731
    return {"psnr_db": psnr(diff), "psnr_inner_db": psnr(inner), "max_error": float(np.abs(diff).max())}


def resize_peers(img, box):
    """name -> (set_threads or None, run, to_array, the box it really samples, note), for the fill."""
    import cv2
    import pyvips
    from PIL import Image
    (h, w, _), scale = img.shape, FRAME[0] / (box[2] - box[0])
    vimg, pimg = pyvips.Image.new_from_memory(img.data, w, h, 4, "uchar"), Image.fromarray(img, "RGBA")
    # pyvips scales it all (step 1/scale), then crops whole pixels (thumbnail too): maybe half a pixel off.
    big = vimg.resize(scale)
    left, top = (big.width - FRAME[0]) // 2, (big.height - FRAME[1]) // 2
    vbox, vnote = tuple(v / scale for v in (left, top, left + FRAME[0], top + FRAME[1])), \
        f"resized to {big.width}x{big.height}, crop at ({left}, {top})"
    ibox = tuple(round(v) for v in box)  # OpenCV: the fill box rounded to whole pixels, sliced, resized
    crop, cnote = img[ibox[1]:ibox[3], ibox[0]:ibox[2]], f"slice [{ibox[1]}:{ibox[3]}, {ibox[0]}:{ibox[2]}], "
    as_array = lambda data: np.frombuffer(data, np.uint8).reshape(FRAME[1], FRAME[0], 4)  # noqa: E731
    return {
        "pillow": (None, lambda: pimg.resize(FRAME, Image.LANCZOS, box=box), np.asarray, box,
                   "box as floats; RGBA->RGBa->RGBA inside; single-threaded"),
        "opencv-area": (cv2.setNumThreads, lambda: cv2.resize(crop, FRAME, interpolation=cv2.INTER_AREA),
                        np.asarray, ibox, cnote + "INTER_AREA (box filter)"),
        "opencv-lanczos4": (cv2.setNumThreads, lambda: cv2.resize(crop, FRAME, interpolation=cv2.INTER_LANCZOS4),
                            np.asarray, ibox, cnote + "INTER_LANCZOS4 (8 taps, not widened)"),
        "pyvips-resize": (pyvips.concurrency_set, lambda: vimg.resize(scale).crop(left, top, *FRAME)
                          .write_to_memory(), as_array, vbox, vnote),
        "pyvips-thumbnail": (pyvips.concurrency_set, lambda: pyvips.Image.thumbnail_image(
            vimg, FRAME[0], height=FRAME[1], crop="centre").write_to_memory(), as_array, vbox, vnote),
    }


def rotate_peers(img):
    """name -> (set_threads, run, to_array, "same" when the geometry is OpenCV's else None, note)."""
    import cv2
    import pyvips
    h, w, _ = img.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), ANGLE, 1.0)
    vimg, bilinear = pyvips.Image.new_from_memory(img.data, w, h, 4, "uchar"), pyvips.Interpolate.new("bilinear")
    turned = vimg.rotate(ANGLE, interpolate=bilinear)
    return {
        "opencv": (cv2.setNumThreads, lambda: cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR,
                                                             borderMode=cv2.BORDER_CONSTANT, borderValue=0),
                   np.asarray, "same", f"{w}x{h} canvas, about (w/2, h/2)"),
        "pyvips-rotate": (pyvips.concurrency_set, lambda: vimg.rotate(ANGLE, interpolate=bilinear).write_to_memory(),
                          np.asarray, None, f"clockwise onto the bounding box, {turned.width}x{turned.height}: "
                          f"{turned.width * turned.height / (w * h):.2f}x the pixels; not scored"),
        "pyvips-affine": (pyvips.concurrency_set, lambda: vimg.affine(
            list(m[:, :2].ravel()), interpolate=bilinear, oarea=[0, 0, w, h], odx=m[0, 2], ody=m[1, 2],
            background=[0, 0, 0, 0]).write_to_memory(), lambda data: np.frombuffer(data, np.uint8).reshape(h, w, 4),
            "same", "OpenCV's matrix and canvas"),
    }


def run_section(section, peers, reference, exact, args):
    """Times each in-process peer at each thread count (a single-threaded one once, for all) and scores its
    output against the reference of what it samples (and, when that is not `exact`, against `exact`'s)."""
    rows = []
    for name, (set_threads, run, to_array, key, note) in peers.items():
        times = {}
        for threads in args.thread_list if set_threads else args.thread_list[:1]:
            if set_threads:
                set_threads(threads)
            median, low, trials, out = time_it(run, args.trials)
            times[threads] = dict(median_ms=median, min_ms=low, trials=trials)
            print(f"  {section} {threads} thr {name:17s} {median:9.1f} ms")
        row = dict(section=section, peer=name, note=note, times={t: times.get(t, times[args.thread_list[0]])
                                                                 for t in args.thread_list})
        if key is not None:
            row.update(score(out := to_array(out), reference(key)))
        if key not in (None, exact):
            row["psnr_inner_vs_fill_box_db"] = fill = score(out, reference(exact))["psnr_inner_db"]
            row["note"] += f"; inner {fill:.2f} dB against the exact fill box"
        rows.append(row)
    return rows


def ours_rows(args, png, section, suites, output, reference, note):
    """Rows for blurbench's suites, (name, label) pairs, at each thread count: the first is "ours" (fresh pages,
    as the peers' results), scored on `output`."""
    names = [name for name, _ in suites]
    rows = [dict(section=section, peer=label, times={},
                 note=f"blurbench {name}, " + (note if index == 0 else "timing only"))
            for index, (name, label) in enumerate(suites)]
    rows[0].update(score(output, reference) if output is not None else {})
    blurbench = os.path.join(args.build_dir, "blurbench")
    for threads in args.thread_list:
        found, error = {}, f"{blurbench} missing (make release)"
        if os.path.exists(blurbench):
            done = subprocess.run([blurbench, "--filter", os.path.commonprefix(names), "--json", "--threads",
                                   str(threads), "--trials", str(args.trials), "--input", png], capture_output=True)
            try:
                found, error = {r["name"]: r for r in json.loads(done.stdout)["results"]}, None
            except (ValueError, KeyError):
                error = f"blurbench exit {done.returncode}: " + (done.stdout + done.stderr).decode().strip()[:100]
        for row, name in zip(rows, names):
            if name in found:
                row["times"][threads] = {k: found[name][k] for k in ("median_ms", "min_ms", "trials")}
            else:
                row["note"] = f"unavailable ({error or 'no ' + name + ' benchmark'})"
    return rows


def ours_outputs(build_dir, png, w, h, out_dir):
    """Our fill (checked: σ 0 then leaves it unchanged) and our rotation in OpenCV's geometry, with notes."""
    from PIL import Image

    def blurtool(*arguments):
        """blurtool's PNG output as an array, or None when blurtool is missing or fails."""
        out, tool = os.path.join(out_dir, f"ours{len(os.listdir(out_dir))}.png"), os.path.join(build_dir, "blurtool")
        if os.path.exists(tool) and not subprocess.run([tool, *arguments, "-o", out], capture_output=True).returncode:
            return np.array(Image.open(out)), out
        return None, None
    fill, fill_png = blurtool(png, "--sigma", "0", "--size", "%dx%d" % FRAME, "--fit", "fill", "--filter", "lanczos3")
    again = blurtool(fill_png, "--sigma", "0")[0] if fill is not None else None
    fill_note = "blurtool failed: not scored" if fill is None else \
        "σ 0 is a no-op" if again is not None and np.array_equal(again, fill) else "σ 0 CHANGES pixels"
    cx, cy = w / 2 + 0.5, h / 2 + 0.5  # OpenCV's centre (w/2, h/2) in our corner-based coordinates
    turn = blurtool(png, "--sigma", "0", "--filter", "bilinear", "--transform",
                    f"translate({cx},{cy}) rotate({-ANGLE}deg) translate({-cx},{-cy})")[0]
    if turn is not None:  # our PNG has straight alpha; the reference is premultiplied
        turn = turn[..., :3] * (turn[..., 3:].astype(np.float64) / 255)
    return fill, fill_note, turn, "not scored (blurtool --transform failed or is missing)" if turn is None else \
        "scored on blurtool --transform about OpenCV's centre (PNG straight alpha, premultiplied again)"


def run_pillow_simd(npy, box, trials, out_dir):
    """Runs the Pillow-SIMD worker under .venv-simd: (its JSON, its output), or ({"error": reason}, None)."""
    if not os.path.exists(SIMD_PY):
        return {"error": "no .venv-simd (run setup_venvs.sh)"}, None
    done = subprocess.run([SIMD_PY, os.path.abspath(__file__), "--worker", "pillow-simd", "--npy", npy, "--box",
                           ",".join(repr(v) for v in box), "--trials", str(trials), "--out-dir", out_dir],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["exit %d" % done.returncode])[-1]}, None
    return json.loads(done.stdout.strip().splitlines()[-1]), np.load(os.path.join(out_dir, "pillow-simd.npy"))


def end_to_end(args, photo, out_dir):
    """Our whole `--material thin --size` process against pyvips thumbnail -> gaussblur -> jpegsave; prints."""
    import pyvips
    blurtool = os.path.join(args.build_dir, "blurtool")
    if not os.path.exists(blurtool):
        return print(f"\nEnd to end: unavailable ({blurtool} missing)")
    pyvips.concurrency_set(os.cpu_count())
    command = [blurtool, photo, "--material", "thin", "--size", "%dx%d" % FRAME, "-o", os.path.join(out_dir, "o.jpg")]
    route = subprocess.run(command + ["-v"], capture_output=True, text=True).stderr.strip()
    ours = time_it(lambda: subprocess.run(command, check=True), args.e2e_trials[0])
    vips = time_it(lambda: pyvips.Image.thumbnail(photo, FRAME[0], height=FRAME[1], crop="centre")
                   .gaussblur(THIN_SIGMA).jpegsave(os.path.join(out_dir, "v.jpg"), Q=90), args.e2e_trials[1])
    print(f"\nEnd to end, {photo} -> {FRAME[0]}x{FRAME[1]}, σ {THIN_SIGMA:g} px, JPEG q90, {os.cpu_count()} thr\n"
          f"  blurtool --material thin --size (whole process): median {ours[0]:.1f} ms (min {ours[1]:.1f}, "
          f"{ours[2]} runs)\n    -v: {route}\n  pyvips thumbnail -> gaussblur -> jpegsave (in-process): median "
          f"{vips[0]:.1f} ms (min {vips[1]:.1f}, {vips[2]} runs)\n  pyvips / ours: {vips[0] / ours[0]:.2f}x")
    return dict(photo=photo, sigma_px=THIN_SIGMA, threads=os.cpu_count(), ours_route=route, ours_ms=ours[:3],
                pyvips_ms=vips[:3], pyvips_over_ours=vips[0] / ours[0])  # (median, min, trials)


def benchmark(args, img, png, npy, out_dir, versions):
    """The resize and rotate sections: returns their rows."""
    import cv2
    h, w, _ = img.shape
    cw, ch = (f / max(FRAME[0] / w, FRAME[1] / h) for f in FRAME)  # the part of the photo aspect fill shows
    box, cache, rows = ((w - cw) / 2, (h - ch) / 2, (w + cw) / 2, (h + ch) / 2), {}, []
    ours = ours_outputs(args.build_dir, png, w, h, out_dir)

    def reference(key):
        """The float64 reference of a fill box, or of OpenCV's rotation ("same"), cached."""
        if key not in cache:
            cache[key] = lanczos_reference(img, key) if key != "same" else \
                bilinear_reference(img, cv2.invertAffineTransform(cv2.getRotationMatrix2D((w / 2, h / 2), ANGLE, 1)))
        return cache[key]

    if "resize" in args.sections:
        rows += run_section("resize", resize_peers(img, box), reference, box, args)
        simd, out = run_pillow_simd(npy, box, args.trials, out_dir)
        versions["pillow-simd"] = simd.get("version", "unavailable: " + simd.get("error", "?"))
        if out is not None:
            rows.append(dict(section="resize", peer="pillow-simd", note="as Pillow; single-threaded", times={
                t: {k: simd[k] for k in ("median_ms", "min_ms", "trials")} for t in args.thread_list},
                **score(out, reference(box))))
        rows += ours_rows(args, png, "resize", [("resize-fill-1170x2532-lanczos3-fresh", "ours"),
                                                ("resize-fill-1170x2532-lanczos3", "ours, reused"),
                                                ("resize-fill-1170x2532-bilinear-fresh", "ours bilinear")],
                          ours[0], reference(box), ours[1])
    if "rotate" in args.sections:
        rows += run_section("rotate", rotate_peers(img), reference, "same", args)
        rows += ours_rows(args, png, "rotate", [("rotate30-bilinear-fresh", "ours"),
                                                ("rotate30-bilinear", "ours, reused")],
                          ours[2], reference("same"), ours[3])
    for section, key in (("resize", box), ("rotate", "same")):  # the best any 8-bit output can score
        if section in args.sections:
            rows.append(dict(section=section, peer="8-bit ceiling", note="the reference rounded", times={},
                             **score(np.rint(reference(key)), reference(key))))
    mine = {(r["section"], t): v["median_ms"] for r in rows if r["peer"] == "ours" for t, v in r["times"].items()}
    for row in rows:
        row["peer_over_ours"] = {t: v["median_ms"] / mine[row["section"], t] for t, v in row["times"].items()
                                 if (row["section"], t) in mine and not row["peer"].startswith("ours")}
    return rows


def print_tables(rows, thread_list):
    """A table per section: peer, median ms and peer/ours at each thread count, PSNR, inner PSNR, max error."""
    titles = {"resize": "Aspect fill to %dx%d: scored against the float64 Lanczos-3 fill of each peer's box" % FRAME,
              "rotate": f"Bilinear rotation by {ANGLE:g}°: scored against a float64 one in OpenCV's geometry"}
    number = lambda value, suffix="": "-" if value is None else f"{value:.2f}{suffix}"  # noqa: E731
    fmt = "{:17s}" + " {:>9} {:>7}" * len(thread_list) + " {:>8} {:>8} {:>7}  {}"
    for section, title in titles.items():
        if any(r["section"] == section for r in rows):
            print(f"\n{title}. peer/ours > 1: ours is faster; inner: a {BORDER}-pixel border left out")
            print(fmt.format("peer", *[x for t in thread_list for x in (f"{t} thr ms", "/ours")], "PSNR dB",
                             "inner dB", "max err", "notes"))
        for row in (r for r in rows if r["section"] == section):
            times = [x for t in thread_list for x in (number(row["times"].get(t, {}).get("median_ms")),
                                                       number(row["peer_over_ours"].get(t), "x"))]
            print(fmt.format(row["peer"], *times, number(row.get("psnr_db")), number(row.get("psnr_inner_db")),
                             number(row.get("max_error")), row["note"]))


def parse_args(argv):
    """Command-line options (see --help)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--input", default=DEFAULT_INPUT, help="photo (default: %(default)s; generated if missing)")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--trials", type=int, default=5, help="kernel timings (default %(default)s)")
    p.add_argument("--quick", action="store_true", help="1 thread, 3 trials; end to end 3 runs each")
    p.add_argument("--sections", default="resize,rotate,e2e", type=lambda v: set(v.split(",")), help="(all)")
    p.add_argument("--json", help="write every number to this file")
    p.add_argument("--build-dir", default=BUILD_DIR, help="where blurbench and blurtool are (%(default)s)")
    p.add_argument("--cache-dir", default=os.path.join(tempfile.gettempdir(), "blurtool-peer-cache"))
    for hidden in ("--worker", "--npy", "--box", "--out-dir"):
        p.add_argument(hidden, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.threads, args.trials = "1", 3
    args.thread_list = [int(t) for t in args.threads.split(",")]
    args.e2e_trials = (3, 3) if args.quick else (7, 5)  # whole processes: ours, pyvips
    return args


def main(argv):
    args = parse_args(argv)
    if args.worker == "pillow-simd":
        return worker_pillow_simd(args)
    import cv2
    import PIL
    import pyvips
    pyvips.cache_set_max(0)  # or repeated trials would return the cached result
    versions = {"pillow": PIL.__version__, "opencv": cv2.__version__, "pyvips": f"{pyvips.__version__} (libvips "
                + ".".join(str(pyvips.version(i)) for i in range(3)) + ")"}
    img, described, key, png, npy = prepare_input(args)
    out_dir, load = tempfile.mkdtemp(prefix="peer_resample-"), os.getloadavg()[0]
    machine = describe(args.build_dir)
    print(f"peer_resample: {summary(machine)}")
    print(f"peer_resample: {img.shape[1]}x{img.shape[0]} RGBA from {described}; threads {args.thread_list}, "
          f"{args.trials} trials; load average {load:.2f}" + (" (busy machine: timings will be off)" * (load > 0.7)))
    rows = benchmark(args, img, png, npy, out_dir, versions)
    print_tables(rows, args.thread_list)
    e2e = end_to_end(args, args.input if os.path.exists(args.input) else png, out_dir) if "e2e" in args.sections \
        else None
    shutil.rmtree(out_dir, ignore_errors=True)
    loads = [load, os.getloadavg()[0]]
    print("versions: " + "; ".join(f"{k} {v}" for k, v in versions.items()))
    print("load average: {:.2f} at the start, {:.2f} at the end".format(*loads))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(machine=machine, input=described, input_sha256_16=key, shape=img.shape, frame=FRAME, angle_deg=ANGLE,
                           trials=args.trials, versions=versions, load_average=loads, rows=rows, end_to_end=e2e), f)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main(sys.argv[1:])
