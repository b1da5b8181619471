#!/usr/bin/env python3
"""Text: a 2,000-word paragraph shaped and rasterised into a 1170-px-wide frame by Pillow, skia-python and ours.

The paragraph is generated from a fixed word list and a seeded PRNG (the same text for the same --seed and
--words), set in one font file (default: fontconfig's Inter Regular) at --size px (17: the iOS body size at one
pixel per point) and wrapped greedily by words to --width px. Timed in one run, each a median of --trials cold
trials on one thread: (a) Pillow `ImageDraw.multiline_text` of the wrapped lines (libraqm layout when Pillow has
it), the wrap itself timed apart; (b) skia-python, one `TextBlob.MakeFromShapedText` per line from the same line
breaks, drawn with `drawTextBlob` (a fresh Typeface per trial, so its glyph cache starts empty); (c) ours,
`blurbench --filter text-paragraph-cold`; then (b) and (c) again trial by trial, --alternating pairs on one CPU
(alternating.py), the target's figure. Runs under .venv-peers (re-executes itself there). See README.md.
"""
import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from alternating import Served, alternate, pinned, timed
from machine import describe, summary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
try:
    import numpy as np
    import skia
    from PIL import Image, ImageDraw, ImageFont, features
except ImportError as missing:  # started with another python: run again under .venv-peers
    python = os.path.join(ROOT, ".venv-peers", "bin", "python")
    if not os.path.exists(python) or os.path.realpath(sys.executable) == os.path.realpath(python):
        sys.exit(f"peer_text: {missing}; run Benchmarks/peers/setup_venvs.sh first")
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])

EX_USAGE, EX_DATAERR, EX_NOINPUT, EX_SOFTWARE, EX_UNAVAILABLE = 64, 65, 66, 70, 69

# Common English words (function words weighted in by repetition in the draw below), mixed lengths and letters
# with kerning pairs (AV, To, Wa, ff, fi) so that shaping matters.
WORDS = """the of and to in is that it was for on are as with his they at be this from have or by one had not but
what all were when we there can an your which their said if do will each about how up out them then she many
some so these would other into has more her two like him see time could no make than first been its who now
people my made over did down only way find use may water long little very after words called just where most
know get through back much before go good new write our used me man too any day same right look think also
around another came come work three word must because does part even place well such here take why things help
put years different away again off went old number great tell men say small every found still between name
should home big give air line set own under read last never us left end along while might next sound below saw
something thought both few those always looked show large often together asked house world going want school
important until form food keep children feet land side without boy once animals life enough took sometimes four
head above kind began almost live page got earth need far hand high year mother light country father let night
picture being study second soon story since white ever paper hard near sentence better best across during today
however sure knew try told young sun thing whole hear example heard several change answer room sea against top
turned learn point city play toward five himself usually money seen didn't car morning I'm body upon family later
turn move face door cut done group true leave color red friends easy felt office coffee waffle Avenue Tower
Wave Yesterday offline affinity""".split()


def paragraph(count, seed):
    """`count` words as sentences of 6–20 words: capitals, commas now and then, a full stop at each end."""
    rng = random.Random(seed)
    out, left = [], count
    while left:
        n = min(left, rng.randint(6, 20))
        sentence = [rng.choice(WORDS) for _ in range(n)]
        sentence[0] = sentence[0][:1].upper() + sentence[0][1:]
        for i in range(1, n - 1):
            if rng.random() < 0.08:
                sentence[i] += ","
        sentence[-1] += "."
        out += sentence
        left -= n
    return " ".join(out)


# --- Pillow --------------------------------------------------------------------------------------------------

def pillow_font(path, size):
    engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    return ImageFont.truetype(path, size, layout_engine=engine)


def wrap(text, font, width):
    """Greedy by words: each distinct word measured once with `font.getlength` (a careful user's memo: each
    call shapes through raqm), a word joins the line while the sum of the widths and spaces fits; each line is
    then measured whole (kerning across a space can differ from the sum) and gives up its last words while it
    is too wide. A word wider than the frame has a line to itself."""
    words, space, widths = text.split(" "), font.getlength(" "), {}
    lines, line, used = [], [], 0.0
    for word in words:
        w = widths.get(word)
        if w is None:
            w = widths[word] = font.getlength(word)
        if line and used + space + w > width:
            lines.append(line)
            line, used = [], 0.0
        used += (space if line else 0) + w
        line.append(word)
    if line:
        lines.append(line)
    fitted, carry = [], []
    for line in lines:
        line = carry + line
        carry = []
        while len(line) > 1 and font.getlength(" ".join(line)) > width:
            carry.insert(0, line.pop())
        fitted.append(" ".join(line))
    while carry:  # words pushed off the last line
        line = carry
        carry = []
        while len(line) > 1 and font.getlength(" ".join(line)) > width:
            carry.insert(0, line.pop())
        fitted.append(" ".join(line))
    return fitted


# --- Skia ----------------------------------------------------------------------------------------------------

def skia_font(path, size):
    """A fresh Typeface from the file (its own unique id, so none of its glyphs is in Skia's strike cache:
    skia-python exposes no SkGraphics::PurgeFontCache), unhinted with subpixel positioning, as ours draws."""
    typeface = skia.Typeface.MakeFromFile(path)
    if typeface is None:
        raise ValueError(f"{path}: Skia cannot read it as a font")
    font = skia.Font(typeface, size)
    font.setHinting(skia.FontHinting.kNone)
    font.setSubpixel(True)
    font.setLinearMetrics(True)
    font.setEdging(skia.Font.Edging.kAntiAlias)
    return font


def skia_shape(lines, font):
    return [skia.TextBlob.MakeFromShapedText(line, font) if line else None for line in lines]


def skia_draw(canvas, blobs, font, line_height):
    """The blobs on their baselines: SkShaper puts a blob's first baseline at the font's ascent below its
    origin, so each is drawn that much higher than the block top + line × line height."""
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorWHITE)
    for number, blob in enumerate(blobs):
        if blob is not None:
            canvas.drawTextBlob(blob, 0, number * line_height, paint)


# --- Ours ----------------------------------------------------------------------------------------------------

def ours(args, text_file, font_file, only_cold=False):
    """blurbench's text-paragraph-cold ({"median_ms", "min_ms", ...}) with its parts, text-paragraph-shape and
    text-paragraph-draw-warm, under "parts" (unless `only_cold`); or {"error": reason}."""
    bench = os.path.join(args.build_dir, "blurbench")
    if not os.path.exists(bench):
        return {"error": f"{bench} missing (make release)"}
    selected = "text-paragraph-cold" if only_cold else "text-paragraph"
    command = [bench, "--input", os.path.join(ROOT, "fixtures", "coffee.jpg"), "--filter", selected,
               "--text-file", text_file, "--font-file", font_file, "--text-size", f"{args.size:g}",
               "--text-width", f"{args.width:g}", "--trials", str(args.trials), "--threads", "1", "--json"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": f"blurbench exit {done.returncode}: " + (done.stdout + done.stderr).strip()[-200:]}
    results = {r["name"]: r for r in json.loads(done.stdout)["results"]}
    if "text-paragraph-cold" not in results:
        return {"error": "blurbench has no text-paragraph-cold benchmark"}
    return dict(results["text-paragraph-cold"], parts={k: results[k] for k in
                                                       ("text-paragraph-shape", "text-paragraph-draw-warm")
                                                       if k in results})


def ours_picture(args, text, font_file, height, work):
    """The paragraph drawn by `blurtool compose` (white on black, one text layer filling a 1170 × height frame
    at scale 1) as coverage, or None without blurtool."""
    tool = os.path.join(args.build_dir, "blurtool")
    if not os.path.exists(tool):
        return None
    scene = {"canvas": {"width": args.width, "height": height, "background": "#000000"},
             "layers": [{"type": "text", "text": text, "font": font_file, "size": args.size, "color": "#ffffff",
                         "alignment": "leading", "frame": {"x": 0, "y": 0, "width": args.width, "height": height}}]}
    path, out = os.path.join(work, "paragraph.json"), os.path.join(work, "ours.png")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(scene, f)
    done = subprocess.run([tool, "compose", path, "-o", out], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"  (blurtool compose failed: {done.stderr.strip()[-160:]})")
        return None
    return np.asarray(Image.open(out).convert("L"))


# --- Measuring -----------------------------------------------------------------------------------------------

def cold_trials(trials, prepare, run):
    """Median and every time (ms) of run(prepare()) over `trials` trials; prepare() is not timed."""
    times = []
    for _ in range(trials):
        state = prepare()
        start = time.perf_counter()
        stopwatch_result = run(state)
        times.append((time.perf_counter() - start) * 1000)
    cold_trials.result = stopwatch_result
    return {"median_ms": statistics.median(times), "min_ms": min(times), "runs_ms": times}


def psnr(a, b):
    diff = a.astype(np.float64) - b
    mse = float(np.mean(diff * diff))
    return float("inf") if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def best_psnr(a, b, reach=3):
    """The best PSNR of b shifted against a by up to `reach` px each way (the rasterisers may place the block a
    pixel apart), with the shift."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    best = (-1.0, (0, 0))
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            pa = a[reach:h - reach, reach:w - reach]
            pb = b[reach + dy:h - reach + dy, reach + dx:w - reach + dx]
            best = max(best, (psnr(pa, pb), (dx, dy)))
    return best


def alternating_trials(args, text_file, prepare, run):
    """The target's comparison trial by trial (alternating.py): skia's cold shape + draw, then one cold trial of
    ours, `--alternating` pairs; or {"error": reason}."""
    bench = os.path.join(args.build_dir, "blurbench")
    if not os.path.exists(bench):
        return {"error": f"{bench} missing (make release)"}
    command = [bench, "--input", os.path.join(ROOT, "fixtures", "coffee.jpg"), "--filter", "text-paragraph-cold",
               "--text-file", text_file, "--font-file", args.font, "--text-size", f"{args.size:g}",
               "--text-width", f"{args.width:g}", "--threads", "1"]
    try:
        with pinned(1), Served(command) as ours_process:
            return alternate(lambda: timed(run, prepare), lambda: ours_process.trial("text-paragraph-cold"),
                             args.alternating)
    except RuntimeError as error:
        return {"error": str(error)}


def benchmark(args, work):
    text = paragraph(args.words, args.seed)
    text_file = os.path.join(work, "paragraph.txt")
    with open(text_file, "w", encoding="utf-8") as f:
        f.write(text)
    raqm = features.check("raqm")
    probe = pillow_font(args.font, args.size)
    start = time.perf_counter()
    lines = wrap(text, probe, args.width)
    wrap_ms = (time.perf_counter() - start) * 1000
    wrap_runs = [wrap_ms]
    for _ in range(args.trials - 1):
        font = pillow_font(args.font, args.size)
        start = time.perf_counter()
        wrap(text, font, args.width)
        wrap_runs.append((time.perf_counter() - start) * 1000)
    metrics = skia_font(args.font, args.size).getMetrics()
    line_height = -metrics.fAscent + metrics.fDescent + metrics.fLeading  # ours: ascender − descender + gap
    height = math.ceil(len(lines) * line_height)
    c = describe(args.build_dir)
    report = {"cpu": c, "threads": 1, "font": args.font, "size_px": args.size, "width_px": args.width,
              "words": args.words, "seed": args.seed, "characters": len(text), "lines": len(lines),
              "line_height_px": line_height, "canvas": [args.width, height], "trials": args.trials,
              "pillow_layout": "raqm " + (features.version("raqm") or "") if raqm else "basic",
              "versions": {"python": platform.python_version(), "pillow": Image.__version__,
                           "freetype": features.version("freetype2"), "skia-python": skia.__version__,
                           "numpy": np.__version__},
              "load_average": [os.getloadavg()[0]]}
    print(f"peer_text: {args.words} words ({len(text)} characters, seed {args.seed}) in {args.font} at "
          f"{args.size:g} px, {len(lines)} lines of {line_height:.2f} px in {args.width} x {height} px; "
          f"{args.trials} cold trials each")
    print(f"  {summary(c)}; every figure on 1 thread; "
          f"load average {os.getloadavg()[0]:.2f}")

    # Pillow: the line pitch of multiline_text is getbbox("A")[3] + spacing; spacing makes it the font's.
    pitch_base = probe.getbbox("A")[3]
    joined = "\n".join(lines)

    def pillow_prepare():
        return pillow_font(args.font, args.size), Image.new("L", (args.width, height), 0)

    def pillow_draw(state):
        font, image = state
        ImageDraw.Draw(image).multiline_text((0, 0), joined, fill=255, font=font, spacing=line_height - pitch_base)
        return image

    pillow = cold_trials(args.trials, pillow_prepare, pillow_draw)
    pillow_picture = np.asarray(cold_trials.result)
    pillow["wrap_median_ms"] = statistics.median(wrap_runs)
    pillow["wrap_runs_ms"] = wrap_runs
    pillow["wrap_and_draw_median_ms"] = pillow["median_ms"] + pillow["wrap_median_ms"]

    # Skia: shaping + drawing from a fresh typeface, then drawing alone (blobs shaped beforehand), then warm.
    info = skia.ImageInfo.MakeA8(args.width, height)

    def skia_prepare():
        surface = skia.Surface.MakeRaster(info)
        surface.getCanvas().clear(skia.ColorTRANSPARENT)
        return surface, skia_font(args.font, args.size)

    def skia_shape_draw(state):
        surface, font = state
        skia_draw(surface.getCanvas(), skia_shape(lines, font), font, line_height)
        return surface

    skia_cold = cold_trials(args.trials, skia_prepare, skia_shape_draw)
    skia_picture = cold_trials.result.makeImageSnapshot().toarray().reshape(height, args.width)

    def skia_prepare_blobs():
        surface, font = skia_prepare()
        return surface, font, skia_shape(lines, font)

    skia_draw_only = cold_trials(args.trials, skia_prepare_blobs,
                                 lambda s: skia_draw(s[0].getCanvas(), s[2], s[1], line_height))
    warm = skia_prepare()
    skia_shape_draw(warm)
    skia_warm = cold_trials(args.trials, lambda: warm, skia_shape_draw)
    report["pillow"], report["skia"] = pillow, {"shape_and_draw": skia_cold, "draw_only": skia_draw_only,
                                                "shape_and_draw_warm": skia_warm}
    report["ours"] = ours(args, text_file, args.font)
    report["alternating"] = (alternating_trials(args, text_file, skia_prepare, skia_shape_draw)
                             if args.alternating else {"error": "--alternating 0"})
    mine = ours_picture(args, text, args.font, height, work)
    report["agreement"] = {"skia_vs_pillow": best_psnr(pillow_picture, skia_picture)}
    if mine is not None:
        report["agreement"]["ours_vs_pillow"] = best_psnr(pillow_picture, mine)
        report["agreement"]["ours_vs_skia"] = best_psnr(skia_picture, mine)
    report["mean_coverage"] = {"pillow": float(pillow_picture.mean()), "skia": float(skia_picture.mean())}
    if mine is not None:
        report["mean_coverage"]["ours"] = float(mine.mean())
    report["load_average"].append(os.getloadavg()[0])
    return report


def print_table(report):
    """Each peer figure against ours; above 1 means ours is faster (the issue's target: at least 2)."""
    mine = report["ours"].get("median_ms")
    p, s = report["pillow"], report["skia"]
    rows = [(f"Pillow multiline_text ({report['pillow_layout']}), draw only", p["median_ms"]),
            ("Pillow greedy wrap (getlength per distinct word, per line)", p["wrap_median_ms"]),
            ("Pillow wrap + draw", p["wrap_and_draw_median_ms"]),
            ("skia MakeFromShapedText per line + drawTextBlob, cold", s["shape_and_draw"]["median_ms"]),
            ("skia drawTextBlob of blobs shaped beforehand, cold", s["draw_only"]["median_ms"]),
            ("skia shape + draw, glyph cache warm (for reference)", s["shape_and_draw_warm"]["median_ms"])]
    print(f"\n{'figure (median ms)':62s} {'peer':>9s} {'ours':>9s} {'peer/ours':>10s}")
    for label, value in rows:
        ratio = f"{value / mine:.2f}x" if mine else "-"
        print(f"{label:62s} {value:9.2f} {'-' if mine is None else f'{mine:.2f}':>9} {ratio:>10s}")
    paired = report.get("alternating", {})
    if "error" not in paired:
        print(f"{'skia cold and ours, trial by trial in turn (' + str(paired['pairs']) + ' pairs)':62s} "
              f"{paired['peer_median_ms']:9.2f} {paired['ours_median_ms']:9.2f} "
              f"{paired['peer_median_ms'] / paired['ours_median_ms']:9.2f}x")
        print(f"  median of the pairs' ratios: {paired['median_pair_ratio']:.2f}x")
    else:
        print(f"trial by trial: not measured ({paired['error']})")
    if mine is None:
        print(f"ours: unavailable ({report['ours']['error']})")
    else:
        parts = report["ours"]["parts"]
        print("ours: blurbench text-paragraph-cold (a fresh GlyphCache per trial: shaping, line breaking and "
              f"rasterising), min {report['ours']['min_ms']:.2f} ms; its parts: shaping alone "
              f"{parts.get('text-paragraph-shape', {}).get('median_ms', float('nan')):.2f} ms, drawing again with "
              f"layout and glyphs cached {parts.get('text-paragraph-draw-warm', {}).get('median_ms', float('nan')):.2f}"
              " ms")
    agreement = ", ".join(f"{k.replace('_', ' ')} {v[0]:.1f} dB at shift {v[1]}" for k, v in
                          report["agreement"].items())
    coverage = ", ".join(f"{k} {v:.2f}" for k, v in report["mean_coverage"].items())
    print(f"same text drawn? best-aligned PSNR: {agreement}; mean coverage (0-255): {coverage}")
    v = report["versions"]
    print(f"Python {v['python']}, Pillow {v['pillow']} (FreeType {v['freetype']}), skia-python {v['skia-python']}; "
          f"load average {report['load_average'][0]:.2f} -> {report['load_average'][1]:.2f}")


class Parser(argparse.ArgumentParser):
    def error(self, message):  # a usage error is sysexits' EX_USAGE, not argparse's 2
        self.print_usage(sys.stderr)
        self.exit(EX_USAGE, f"peer_text: {message}\n")


def inter_regular():
    """fontconfig's file for Inter at the regular weight (fc-match's weight=80 is OpenType's 400), or None."""
    try:
        done = subprocess.run(["fc-match", "-f", "%{file}\n%{family}", "Inter:weight=80:slant=0"],
                              capture_output=True, text=True)
    except OSError:
        return None
    file, _, families = done.stdout.partition("\n")
    return file if done.returncode == 0 and "Inter" in families.split(",") else None


def parse_args(argv):
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("--font", help="font file (default: fontconfig's Inter Regular)")
    p.add_argument("--size", type=float, default=17, help="pixels per em (default: %(default)s)")
    p.add_argument("--width", type=int, default=1170, help="frame width in pixels (default: %(default)s)")
    p.add_argument("--words", type=int, default=2000)
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--trials", type=int, default=7, help="median of this many cold trials (default: %(default)s)")
    p.add_argument("--alternating", type=int, default=61,
                   help="cold trials of skia and of ours taken in turn, pair by pair (default: %(default)s; 0 for "
                        "none)")
    p.add_argument("--build-dir", default=os.path.join(ROOT, ".build", "release"),
                   help="where blurbench and blurtool are (default: %(default)s)")
    p.add_argument("--json", help="write every figure to this file")
    args = p.parse_args(argv)
    if not (0 < args.size <= 1000 and 16 <= args.width <= 100_000 and 1 <= args.words <= 1_000_000
            and args.trials >= 1 and 0 <= args.alternating <= 100_000):
        p.error("needs 0 < --size <= 1000, 16 <= --width <= 100000, 1 <= --words <= 1000000, --trials >= 1, "
                "0 <= --alternating <= 100000")
    args.font = args.font or inter_regular()
    if args.font is None:
        p.exit(EX_UNAVAILABLE, "peer_text: Inter is not installed (fonts-inter); pass --font FILE\n")
    return args


def main(argv):
    args = parse_args(argv)
    try:
        if not os.path.isfile(args.font):
            raise FileNotFoundError(f"{args.font}: no such font file")
        try:
            ImageFont.truetype(args.font, args.size)
        except OSError as error:  # Pillow's word for a file FreeType cannot open as a face
            raise ValueError(error) from None
        with tempfile.TemporaryDirectory(prefix="peer_text-") as work:
            report = benchmark(args, work)
        print_table(report)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
            print(f"wrote {args.json}")
    except OSError as error:
        print(f"peer_text: {error}", file=sys.stderr)
        return EX_NOINPUT
    except ValueError as error:  # Pillow and our skia_font: a file that is not a font
        print(f"peer_text: {args.font}: not a font ({error})", file=sys.stderr)
        return EX_DATAERR
    except RuntimeError as error:
        print(f"peer_text: {error}", file=sys.stderr)
        return EX_SOFTWARE
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
