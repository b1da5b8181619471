#!/usr/bin/env python3
"""Path fills: ours (blurtool compose, exact area coverage) against cairo (rsvg-convert) and skia-python's SVG
renderer, the same path data black on white at 200x200. Prints, per shape, the mean and largest difference in
levels over the edge pixels (where either image is neither black nor white) of each pair, so ours can be read
against the peers' own disagreement. Run with the peers' venv: .venv-peers/bin/python Benchmarks/peers/compare_paths.py
"""
import json, os, subprocess, sys, tempfile

import numpy as np
import skia
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHAPES = {
    "star-nonzero": ("M100 10 L123 80 L197 80 L137 123 L160 193 L100 150 L40 193 L63 123 L3 80 L77 80 Z", "nonzero"),
    "pentagram-evenodd": ("M100 10 L159 190 L5 78 L195 78 L41 190 Z", "evenodd"),
    "pentagram-nonzero": ("M100 10 L159 190 L5 78 L195 78 L41 190 Z", "nonzero"),
    "circle-arcs": ("M100 20 A80 80 0 1 1 99.99 20 Z", "nonzero"),
    "ring-evenodd": ("M100 20 A80 80 0 1 1 99.99 20 Z M100 50 A50 50 0 1 0 100.01 50 Z", "evenodd"),
    "cubic-blob": ("M20 100 C20 10 180 10 180 100 S100 190 60 150 Q20 120 20 100 Z", "nonzero"),
    "sliver": ("M10 10 L190 12.3 L190 12.9 L10 10.4 Z M10 50 L190 150 L189.5 150 Z", "nonzero"),
    "holes-quads": ("M30 30 h140 v140 h-140 z M60 60 q40 -30 80 0 t0 80 q-40 30 -80 0 t0 -80 z", "evenodd"),
}


def grey(path):
    return np.asarray(Image.open(path).convert("L")).astype(int)


def compare(a, b):
    edge = ((a > 0) & (a < 255)) | ((b > 0) & (b < 255))
    diff = np.abs(a - b)
    return f"{diff[edge].mean():5.2f} / {diff.max():3d}"


def main():
    tool = os.path.join(ROOT, ".build", "release", "blurtool")
    with tempfile.TemporaryDirectory() as work:
        print(f"{'shape':20s} {'ours-cairo':>12s} {'ours-skia':>12s} {'skia-cairo':>12s}   (mean / max levels)")
        for name, (d, rule) in SHAPES.items():
            base = os.path.join(work, name)
            with open(base + ".svg", "w") as f:
                f.write('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" '
                        f'height="200" fill="#fff"/><path d="{d}" fill="#000" fill-rule="{rule}"/></svg>')
            subprocess.run(["rsvg-convert", base + ".svg", "-o", base + "-cairo.png"], check=True)
            scene = {"canvas": {"width": 200, "height": 200, "background": "#ffffff"},
                     "layers": [{"type": "path", "d": d, "fillRule": rule}]}
            with open(base + ".json", "w") as f:
                json.dump(scene, f)
            subprocess.run([tool, "compose", base + ".json", "-o", base + "-ours.png"], check=True)
            surface = skia.Surface(200, 200)
            canvas = surface.getCanvas()
            canvas.clear(skia.ColorWHITE)
            skia.SVGDOM.MakeFromStream(skia.Stream.MakeFromFile(base + ".svg")).render(canvas)
            sk = np.asarray(surface.makeImageSnapshot().toarray())[:, :, 0].astype(int)
            ours, cairo = grey(base + "-ours.png"), grey(base + "-cairo.png")
            print(f"{name:20s} {compare(ours, cairo):>12s} {compare(ours, sk):>12s} {compare(sk, cairo):>12s}")


if __name__ == "__main__":
    sys.exit(main())
