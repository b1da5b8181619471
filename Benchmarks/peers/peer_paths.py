#!/usr/bin/env python3
"""Vector paths: 500 icons filled and stroked on a 1170x2532 canvas, and one 10,000-segment outline filled, by
skia-python's CPU raster, pycairo and ours, one thread each, trial by trial.

The icons are the outlines of 500 glyphs of Material Icons (Debian's fonts-material-design-icons-iconfont, the
face the symbol layer draws), read with skia-python at 512 px (its units per em), 48 px each in an 18 x 28 grid,
with quadratic segments as the font has them; the outline is a closed wavy curve of 10,000 line segments
filling most of the canvas's width (seeded, so the same for the same --seed). Every engine gets the same path
data and transforms (written to a file for `blurbench --paths-file`) and draws onto a new canvas cleared to white,
made outside its stopwatch: each icon filled with its colour, then stroked in a darker one 1.5 px wide with round
joins and caps (paths-icons), or only filled, or only stroked; the outline filled non-zero. Skia draws through
`Canvas.concat` + `drawPath` with anti-aliased paints, cairo through `append_path` of a path built beforehand +
`fill_preserve` + `stroke`; ours is `blurbench --serve` (`Image.fill` / `Image.stroke`), pinned to the same CPU.
The canvases are compared at the end (mean and largest level difference over edge pixels, each pair), so the
three drew the same picture. --tolerance PX flattens our curves to PX pixels rather than the library's 0.02 (cairo's
own is 0.1, printed by the run). Runs under .venv-peers (re-executes itself there); pycairo needs libcairo2-dev to
build (setup_venvs.sh installs it).
"""
import argparse
import json
import math
import os
import random
import sys
import tempfile
from alternating import Served, alternate, pair_figures, pinned, timed
from machine import describe, summary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
try:
    import cairo
    import numpy as np
    import skia
    from PIL import Image
except ImportError as missing:  # started with another python: run again under .venv-peers
    python = os.path.join(ROOT, ".venv-peers", "bin", "python")
    if not os.path.exists(python) or os.path.realpath(sys.executable) == os.path.realpath(python):
        sys.exit(f"peer_paths: {missing}; run Benchmarks/peers/setup_venvs.sh first")
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])

EX_USAGE, EX_UNAVAILABLE = 64, 69
FONT = "/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf"
WIDTH, HEIGHT, COLUMNS, ROWS, ICON_PX, STROKE_PX = 1170, 2532, 18, 28, 48, 1.5
PALETTE = [(0.91, 0.30, 0.24), (0.20, 0.60, 0.86), (0.18, 0.80, 0.44), (0.95, 0.77, 0.06), (0.61, 0.35, 0.71),
           (0.90, 0.49, 0.13), (0.10, 0.74, 0.61), (0.20, 0.29, 0.37)]
CASES = {"paths-icons": (True, True), "paths-icons-fill": (True, False), "paths-icons-stroke": (False, True)}


class Shape:
    """One path: its segments as (verb, points) in path units, its transform to canvas pixels and its paints."""

    def __init__(self, kind, segments, transform, fill, stroke, stroke_width):
        self.kind, self.segments, self.transform = kind, segments, transform
        self.fill, self.stroke, self.stroke_width = fill, stroke, stroke_width

    def svg_data(self):
        parts = []
        for verb, points in self.segments:
            parts.append(verb + " ".join(f"{x:.10g} {y:.10g}" for x, y in points))
        return " ".join(parts)


def hex_colour(rgb):
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb) + "ff"


def icons(count, seed):
    """`count` Material Icons glyphs, laid out in the grid, each a Shape."""
    typeface = skia.Typeface.MakeFromFile(FONT)
    if typeface is None:
        raise FileNotFoundError(f"{FONT} (fonts-material-design-icons-iconfont)")
    font = skia.Font(typeface, typeface.getUnitsPerEm())
    verbs = {skia.Path.Verb.kMove_Verb: "M", skia.Path.Verb.kLine_Verb: "L", skia.Path.Verb.kQuad_Verb: "Q",
             skia.Path.Verb.kCubic_Verb: "C", skia.Path.Verb.kClose_Verb: "Z"}
    glyphs = [g for g in range(1, typeface.countGlyphs()) if font.getPath(g) and font.getPath(g).countVerbs() >= 6]
    random.Random(seed).shuffle(glyphs)
    shapes = []
    cell_w, cell_h = WIDTH / COLUMNS, HEIGHT / ROWS
    scale = ICON_PX / typeface.getUnitsPerEm()
    for index, glyph in enumerate(glyphs[:count]):
        path = font.getPath(glyph)
        segments = [(verbs[verb], [(p.x(), p.y()) for p in (points[1:] if verb != skia.Path.Verb.kMove_Verb
                                                               else points)])
                    for verb, points in path if verb in verbs]
        bounds = path.computeTightBounds()
        cx, cy = (index % COLUMNS + 0.5) * cell_w, (index // COLUMNS + 0.5) * cell_h
        tx = cx - scale * (bounds.left() + bounds.right()) / 2
        ty = cy - scale * (bounds.top() + bounds.bottom()) / 2
        colour = PALETTE[index % len(PALETTE)]
        darker = tuple(c * 0.45 for c in colour)
        shapes.append(Shape("icon", segments, (scale, 0, 0, scale, tx, ty), colour, darker, STROKE_PX / scale))
    if len(shapes) < count:
        raise ValueError(f"the font has only {len(shapes)} usable glyphs")
    return shapes


def outline(segments, seed):
    """A closed wavy curve of `segments` lines around the canvas's middle, radius 400-560 px."""
    rng = random.Random(seed)
    phase = [rng.uniform(0, 2 * math.pi) for _ in range(3)]
    points = []
    for i in range(segments):
        angle = 2 * math.pi * i / segments
        radius = 480 * (1 + 0.12 * math.sin(7 * angle + phase[0]) + 0.04 * math.sin(53 * angle + phase[1])
                        + 0.01 * math.sin(409 * angle + phase[2]))
        points.append((round(WIDTH / 2 + radius * math.cos(angle), 3), round(HEIGHT / 2 + radius * math.sin(angle), 3)))
    segments = [("M", [points[0]])] + [("L", [p]) for p in points[1:]] + [("Z", [])]
    return Shape("outline", segments, (1, 0, 0, 1, 0, 0), (0.20, 0.29, 0.37), (0, 0, 0), 1)


def write_paths_file(shapes, path):
    with open(path, "w") as f:
        f.write(f"canvas {WIDTH} {HEIGHT}\n")
        for s in shapes:
            f.write("\t".join([s.kind, hex_colour(s.fill), hex_colour(s.stroke), f"{s.stroke_width:g}",
                               " ".join(f"{v:.17g}" for v in s.transform), s.svg_data()]) + "\n")


class SkiaEngine:
    name = "skia-python"

    def __init__(self, shapes):
        self.surface = skia.Surface(WIDTH, HEIGHT)
        self.items = []
        for s in shapes:
            path = skia.Path()
            for verb, points in s.segments:
                flat = [v for p in points for v in p]
                {"M": path.moveTo, "L": path.lineTo, "Q": path.quadTo, "C": path.cubicTo}.get(
                    verb, lambda: path.close())(*flat)
            a, b, c, d, tx, ty = s.transform
            matrix = skia.Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1)
            fill = skia.Paint(AntiAlias=True, Color=skia.Color4f(*s.fill, 1).toColor())
            stroke = skia.Paint(AntiAlias=True, Color=skia.Color4f(*s.stroke, 1).toColor(),
                                Style=skia.Paint.kStroke_Style, StrokeWidth=s.stroke_width,
                                StrokeCap=skia.Paint.kRound_Cap, StrokeJoin=skia.Paint.kRound_Join)
            self.items.append((path, matrix, fill, stroke))

    def clear(self):
        self.surface.getCanvas().clear(skia.ColorWHITE)

    def draw(self, fill, stroke):
        canvas = self.surface.getCanvas()
        for path, matrix, fill_paint, stroke_paint in self.items:
            canvas.save()
            canvas.concat(matrix)
            if fill:
                canvas.drawPath(path, fill_paint)
            if stroke:
                canvas.drawPath(path, stroke_paint)
            canvas.restore()
        self.surface.flushAndSubmit()

    def grey(self):
        rgba = np.asarray(self.surface.makeImageSnapshot().toarray(colorType=skia.kRGBA_8888_ColorType))
        return rgba[:, :, :3].astype(float) @ [0.299, 0.587, 0.114]


class CairoEngine:
    name = "pycairo"

    def __init__(self, shapes):
        self.surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, WIDTH, HEIGHT)
        self.context = cairo.Context(self.surface)
        self.context.set_line_cap(cairo.LINE_CAP_ROUND)
        self.context.set_line_join(cairo.LINE_JOIN_ROUND)
        scratch = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, 1, 1))
        self.items = []
        for s in shapes:
            scratch.new_path()
            current = (0, 0)
            for verb, points in s.segments:
                if verb == "M":
                    scratch.move_to(*points[0])
                elif verb == "L":
                    scratch.line_to(*points[0])
                elif verb == "Q":  # cairo has no quadratic: its exact cubic
                    (qx, qy), (x, y) = points
                    scratch.curve_to(current[0] + 2 / 3 * (qx - current[0]), current[1] + 2 / 3 * (qy - current[1]),
                                     x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)
                elif verb == "C":
                    scratch.curve_to(*[v for p in points for v in p])
                else:
                    scratch.close_path()
                current = points[-1] if points else scratch.get_current_point()
            self.items.append((scratch.copy_path(), cairo.Matrix(*s.transform), s.fill, s.stroke, s.stroke_width))

    def clear(self):
        self.context.set_source_rgb(1, 1, 1)
        self.context.paint()

    def draw(self, fill, stroke):
        ctx = self.context
        for path, matrix, fill_rgb, stroke_rgb, width in self.items:
            ctx.save()
            ctx.transform(matrix)
            ctx.new_path()
            ctx.append_path(path)
            if fill:
                ctx.set_source_rgb(*fill_rgb)
                ctx.fill_preserve()
            if stroke:
                ctx.set_source_rgb(*stroke_rgb)
                ctx.set_line_width(width)
                ctx.stroke_preserve()
            ctx.restore()
        self.surface.flush()

    def grey(self):
        bgra = np.ndarray((HEIGHT, WIDTH, 4), np.uint8, self.surface.get_data())
        return bgra[:, :, 2::-1].astype(float) @ [0.299, 0.587, 0.114]


def agreement(a, b):
    """Mean and largest difference in levels over the pixels either image draws an edge on."""
    diff = np.abs(a - b)
    edge = diff > 0.5
    return {"mean": float(diff[edge].mean()) if edge.any() else 0.0, "max": float(diff.max()),
            "pixels_differing": int(edge.sum())}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--icons", type=int, default=500)
    p.add_argument("--segments", type=int, default=10_000, help="line segments of the outline")
    p.add_argument("--seed", type=int, default=30)
    p.add_argument("--alternating", type=int, default=21, help="pairs per case and peer (default: %(default)s)")
    p.add_argument("--build-dir", default=os.path.join(ROOT, ".build", "release"))
    p.add_argument("--json", help="write every figure to this file")
    p.add_argument("--tolerance", type=float,
                   help="ours flattens curves to this many pixels (blurbench --paths-tolerance; default: the "
                        "library's 0.02); 0.1 is cairo's own, which the run prints")
    args = p.parse_args(argv)
    if not (1 <= args.icons <= COLUMNS * ROWS and 3 <= args.segments <= 10_000_000 and 1 <= args.alternating):
        p.exit(EX_USAGE, f"peer_paths: needs 1 <= --icons <= {COLUMNS * ROWS}, --segments >= 3, --alternating >= 1\n")
    bench = os.path.join(args.build_dir, "blurbench")
    if not os.path.exists(bench):
        p.exit(EX_UNAVAILABLE, f"peer_paths: {bench} missing (make release)\n")
    machine = describe(args.build_dir)
    load_before = os.getloadavg()[0]
    icon_shapes = icons(args.icons, args.seed)
    outline_shape = outline(args.segments, args.seed)
    engines = {"icons": [SkiaEngine(icon_shapes), CairoEngine(icon_shapes)],
               "outline": [SkiaEngine([outline_shape]), CairoEngine([outline_shape])]}
    report = {"machine": machine, "icons": args.icons, "segments": args.segments,
              "icon_segments": sum(len(s.segments) for s in icon_shapes), "cases": {}}
    with tempfile.TemporaryDirectory(prefix="peer_paths-") as work:
        paths_file, picture = os.path.join(work, "paths.tsv"), os.path.join(work, "ours.png")
        write_paths_file(icon_shapes + [outline_shape], paths_file)
        command = [bench, "--filter", "paths-", "--paths-file", paths_file, "--paths-picture", picture,
                   "--threads", "1", "--warmup", "2"]
        if args.tolerance is not None:
            command += ["--paths-tolerance", repr(args.tolerance)]
        with pinned(1), Served(command) as ours:
            for case, (fill, stroke) in list(CASES.items()) + [("paths-outline", (True, False))]:
                group = engines["outline" if case == "paths-outline" else "icons"]
                for engine in group:
                    def peer_trial(engine=engine, fill=fill, stroke=stroke):
                        return timed(lambda _: engine.draw(fill, stroke), engine.clear)
                    peer_trial()  # warm-up
                    result = alternate(peer_trial, lambda case=case: ours.trial(case), args.alternating)
                    report["cases"].setdefault(case, {})[engine.name] = result
            for engine in engines["icons"]:  # leave the full icon sheet on every canvas for the comparison
                engine.clear()
                engine.draw(True, True)
            ours.trial("paths-icons-picture")
        ours_grey = np.asarray(Image.open(picture).convert("RGB")).astype(float) @ [0.299, 0.587, 0.114]
        skia_grey, cairo_grey = (e.grey() for e in engines["icons"])
        report["agreement"] = {"ours-cairo": agreement(ours_grey, cairo_grey),
                               "ours-skia": agreement(ours_grey, skia_grey),
                               "skia-cairo": agreement(skia_grey, cairo_grey)}
    report["load_average"] = [load_before, os.getloadavg()[0]]
    report["versions"] = {"skia-python": skia.__version__, "pycairo": cairo.version,
                          "cairo": cairo.cairo_version_string()}
    report["tolerance_px"] = {"ours": args.tolerance if args.tolerance is not None else 0.02,
                              "cairo": engines["icons"][1].context.get_tolerance()}
    print(f"peer_paths: {summary(machine)}")
    print(f"{args.icons} icons ({report['icon_segments']} segments) on {WIDTH}x{HEIGHT}, and a {args.segments}-segment "
          f"outline; one thread, {args.alternating} pairs per row, peer then ours in turn on one CPU; curves "
          f"flattened to {report['tolerance_px']['ours']:g} px by ours, {report['tolerance_px']['cairo']:g} px by "
          "cairo (its context's tolerance)")
    print(f"{'case':20s} {'peer':12s} {'peer ms':>9s} {'ours ms':>9s} {'pair ratio':>11s}")
    for case, peers in report["cases"].items():
        for peer, r in peers.items():
            print(f"{case:20s} {peer:12s} {r['peer_median_ms']:9.2f} {r['ours_median_ms']:9.2f} "
                  f"{r['median_pair_ratio']:10.2f}x")
    print("same picture? (grey levels over differing pixels: mean / max / count) "
          + "; ".join(f"{k} {v['mean']:.2f} / {v['max']:.0f} / {v['pixels_differing']}"
                      for k, v in report["agreement"].items()))
    v = report["versions"]
    print(f"skia-python {v['skia-python']}, pycairo {v['pycairo']} (cairo {v['cairo']}); load average "
          f"{report['load_average'][0]:.2f} -> {report['load_average'][1]:.2f}")
    if args.json:
        for peers in report["cases"].values():
            for r in peers.values():
                r.pop("pairs_ms", None)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
