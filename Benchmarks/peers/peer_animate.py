#!/usr/bin/env python3
"""The review screen's entrance animation: blurtool animate against skia-python's CPU raster + Pillow's APNG.

Reads our scene format (default fixtures/showcase-entrance.json, this project's richer entrance: 390x844 pt at scale 3, the coffee photo
aspect-filled, a dark thin backdrop, a 0.6 black dim, shapes, text, five "rating" groups with their labels fading
in on an ease-in-out curve and springing in from "translate(600, 0) scale(5)", a rounded comment-card backdrop with
a wrapped comment; text as skia_text.py lays it out) and draws frames
t = k/fps for k = 0…fps·duration the way a Linux user would without us: Skia draws (backdrops as a saveLayer
with a backdrop image filter: saturation on Blur(σ, σ), tints drawn in the layer), Pillow writes the animated
PNG (`save_all`, default compression). The layers below the first animated one are drawn once and blitted into
every frame, as ours caches them (`--naive` redraws the whole scene each frame instead). Reports render-only
time (1 process, and 2 forked processes drawing alternate frames), encode time, the whole job as a process,
output sizes, and the same figures for `blurtool animate`. Runs under .venv-peers. See README.md beside this.
"""
import argparse
import json
import math
import mmap
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from machine import describe, summary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
try:
    import numpy as np
    import skia
    from PIL import Image, ImageSequence
    sys.dont_write_bytecode = True  # importing skia_text must not leave a __pycache__ in the repository
    import skia_text
except ImportError as missing:  # started with another python: run again under .venv-peers
    python = os.path.join(ROOT, ".venv-peers", "bin", "python")
    if not os.path.exists(python) or os.path.realpath(sys.executable) == os.path.realpath(python):
        sys.exit(f"peer_animate: {missing}; run Benchmarks/peers/setup_venvs.sh first")
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])

EX_USAGE, EX_DATAERR, EX_NOINPUT, EX_SOFTWARE = 64, 65, 66, 70
SETTLING = 0.001  # the spring's envelope at its duration (ours: Reconstructed.settlingThreshold)
# SwiftUI materials as MaterialCatalog.swift has them: blur in points, then (dodge or overlay, grey, opacity)
# for light and dark; every one also multiplies saturation by 1.8.
MATERIALS = {
    "ultraThin": (20, (0x0D0D0D, 0xBFBFBF, 0.44), (0x9C9C9C, 0x252525, 0.55)),
    "thin": (25, (0x333333, 0xA6A6A6, 0.70), (0x9C9C9C, 0x252525, 0.70)),
    "regular": (30, (0x383838, 0xB3B3B3, 0.82), (0x8C8C8C, 0x252525, 0.82)),
    "thick": (40, (0x5C5C5C, 0x999999, 0.97), (0x7C7C7C, 0x252525, 0.90)),
    "ultraThick": (50, (0x5C5C5C, 0x999999, 0.97), (0x7C7C7C, 0x252525, 0.90)),
    # UIKit's iOS 7 .dark (UIImageEffects): one plain tint, white 0.11 at 0.73, in either appearance.
    "dark": (20, (None, 0x1C1C1C, 0.73), (None, 0x1C1C1C, 0.73)),
}
SATURATION = 1.8
NAMED_COLOURS = {"black": 0x000000FF, "white": 0xFFFFFFFF, "clear": 0, "transparent": 0}
KEYS = {"image": {"path", "fit"}, "color": {"color"}, "shape": {"shape", "color", "cornerRadius"},
        "backdrop": {"material", "appearance", "dim", "cornerRadius", "blur"}, "group": {"layers"},
        "text": skia_text.KEYS}
COMMON_KEYS = {"type", "name", "frame", "opacity", "transform", "animations"}


class SceneError(Exception):
    """A scene this peer cannot draw: the message names the JSON path."""


# --- Timing curves -------------------------------------------------------------------------------------------

def bezier(x1, y1, x2, y2):
    """CSS cubic-bezier(x1, y1, x2, y2) as progress(p) for p in 0…1 (x solved by bisection, to 1e-9)."""
    def axis(a, b, s):
        return 3 * a * s * (1 - s) ** 2 + 3 * b * s * s * (1 - s) + s ** 3

    def progress(p):
        low, high = 0.0, 1.0
        while high - low > 1e-9:
            mid = (low + high) / 2
            low, high = (mid, high) if axis(x1, x2, mid) < p else (low, mid)
        return axis(y1, y2, (low + high) / 2)
    return progress


def uikit_spring(zeta, v0, duration):
    """UIKit's duration-based spring (mass 1): x(t), ω₀ chosen by bisection so that the envelope of the
    motion, amplitude included, is SETTLING at `duration`. Underdamped (ζ < 1) only, as the scene uses."""
    def omega_d(w):
        return w * math.sqrt(1 - zeta * zeta)

    def log_envelope(w):  # ln(√(1 + q²) · e^(−ζω₀d)), q = (ζω₀ − v₀)/ω_d: falls as ω₀ grows
        q = (zeta * w - v0) / omega_d(w)
        return 0.5 * math.log1p(q * q) - zeta * w * duration - math.log(SETTLING)
    low, high = 1e-6, 1.0
    while log_envelope(high) > 0:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if log_envelope(mid) > 0 else (low, mid)
    w = (low + high) / 2
    wd = omega_d(w)
    return lambda t: 1 - math.exp(-zeta * w * t) * (math.cos(wd * t) + (zeta * w - v0) / wd * math.sin(wd * t))


CURVES = {"linear": lambda p: p, "easeIn": bezier(0.42, 0, 1, 1), "easeOut": bezier(0, 0, 0.58, 1),
          "easeInOut": bezier(0.42, 0, 0.58, 1)}


def timing(animation, path):
    """(delay, duration, x(elapsed seconds)) of one animation; x is 0 before it starts and 1 after it ends."""
    curve, delay = animation.get("curve", "easeInOut"), float(animation.get("delay", 0))
    spring = re.fullmatch(r"spring\(damping: *([\d.]+), *velocity: *(-?[\d.]+), *duration: *([\d.]+)\)", curve)
    if spring:
        zeta, v0, duration = map(float, spring.groups())
        if not 0 < zeta < 1:
            raise SceneError(f"{path}.curve: this peer draws underdamped springs only (0 < damping < 1)")
        return delay, duration, uikit_spring(zeta, v0, duration)
    if curve not in CURVES or "duration" not in animation:
        raise SceneError(f"{path}: curve {curve!r} with a duration is needed (known: {', '.join(CURVES)}, spring)")
    duration, ease = float(animation["duration"]), CURVES[curve]
    return delay, duration, lambda t: ease(min(max(t / duration, 0), 1))


# --- Geometry: affine maps as (a, b, c, d, tx, ty), x' = a·x + c·y + tx, y' = b·x + d·y + ty (CGAffineTransform) --

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def then(m, n):
    """m applied first, then n."""
    a, b, c, d, tx, ty = m
    A, B, C, D, TX, TY = n
    return (A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d, A * tx + C * ty + TX, B * tx + D * ty + TY)


def parse_transform(text, path):
    """A CSS transform list, the rightmost function applied first: `translate(600, 0) scale(5)`."""
    m = IDENTITY
    for name, args in re.findall(r"(\w+)\(([^)]*)\)", text):
        values = [float(v.strip().removesuffix("deg")) for v in args.split(",")]
        if name == "translate":
            step = (1, 0, 0, 1, values[0], values[1] if len(values) > 1 else 0)
        elif name == "scale":
            step = (values[0], 0, 0, values[-1], 0, 0)
        elif name == "rotate":
            r = math.radians(values[0])
            step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
        else:
            raise SceneError(f"{path}: transform {name!r} is not drawn by this peer (translate, scale, rotate)")
        m = then(step, m)
    return m


def decompose(m, path):
    """(scale x, scale y, angle, tx, ty) as Core Animation (WebKit's AffineTransform::decompose) takes it apart."""
    a, b, c, d, tx, ty = m
    sx, sy = math.hypot(a, b), math.hypot(c, d)
    if a * d - b * c < 0:
        sx, sy = (-sx, sy) if a < d else (sx, -sy)
    angle = math.atan2(b, a) if sx == 0 else math.atan2(b / sx, a / sx)
    if abs(a * c + b * d) > 1e-9 * max(sx * sy, 1e-300):
        raise SceneError(f"{path}: a skewed transform is not interpolated by this peer")
    return sx, sy, angle, tx, ty


def interpolate(m, n, x, path):
    """Translation, scale and angle each moved linearly by x (beyond 1 extrapolated, as a spring overshoots)."""
    p, q = decompose(m, path), decompose(n, path)
    sx, sy, angle, tx, ty = (u + (v - u) * x for u, v in zip(p, q))
    rotation = (math.cos(angle), math.sin(angle), -math.sin(angle), math.cos(angle), 0, 0)
    return then(then((sx, 0, 0, sy, 0, 0), rotation), (1, 0, 0, 1, tx, ty))


def skia_matrix(m):
    a, b, c, d, tx, ty = m
    return skia.Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1)


# --- The scene -----------------------------------------------------------------------------------------------

def colour(text, path, alpha=1.0):
    """#rgb, #rrggbb, #rrggbbaa or a few names, as a skia.Color4f with `alpha` multiplied in."""
    if text in NAMED_COLOURS:
        rgba = NAMED_COLOURS[text]
    elif re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}", text or ""):
        digits = text[1:] if len(text) != 4 else "".join(ch * 2 for ch in text[1:])
        rgba = int(digits, 16) if len(digits) == 8 else int(digits, 16) << 8 | 0xFF
    else:
        raise SceneError(f"{path}: colour {text!r} not understood (#rrggbb, black, white)")
    r, g, b, a = ((rgba >> s) & 0xFF for s in (24, 16, 8, 0))
    return skia.Color4f(r / 255, g / 255, b / 255, a / 255 * alpha)


def load_layers(items, path, folder, bounds, fonts):
    """The JSON layers with parsed frames, transforms, animations (and decoded images, laid-out text), checked
    for keys; `bounds` is the parent's, which a layer without a frame fills."""
    layers = []
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        kind = item.get("type")
        if kind not in KEYS:
            raise SceneError(f"{where}.type: {kind!r} is not drawn by this peer ({', '.join(KEYS)})")
        unknown = set(item) - COMMON_KEYS - KEYS[kind]
        if unknown:
            raise SceneError(f"{where}: {', '.join(sorted(unknown))} not drawn by this peer")
        layer = dict(item, where=where, transform=parse_transform(item.get("transform", ""), where + ".transform"))
        f = item.get("frame")
        layer["frame"] = None if f is None else (f["x"], f["y"], f["width"], f["height"])
        layer["animations"] = []
        for number, animation in enumerate(item.get("animations", [])):
            at = f"{where}.animations[{number}]"
            prop = animation.get("property")
            if prop not in ("opacity", "transform") or "from" in animation:
                raise SceneError(f"{at}: this peer animates opacity and transform from the layer's value only")
            to = parse_transform(animation["to"], at + ".to") if prop == "transform" else float(animation["to"])
            layer["animations"].append((prop, to, timing(animation, at), at))
        if kind == "image":
            if item.get("fit", "fill") != "fill":
                raise SceneError(f"{where}.fit: this peer draws fill only")
            file = os.path.join(folder, item["path"])
            if not os.path.isfile(file):
                raise FileNotFoundError(f"{where}.path: {file} not found")
            try:
                layer["image"] = skia.Image.open(file)
            except (RuntimeError, ValueError) as error:
                raise SceneError(f"{where}.path: {file}: {error}") from None
        elif kind == "group":
            inner = (0, 0, *(layer["frame"] or bounds)[2:])
            layer["layers"] = load_layers(item["layers"], where + ".layers", folder, inner, fonts)
        elif kind == "text":
            paint = item.get("color", "#000000")  # ours: black unless the layer says otherwise
            colour(paint, where + ".color")
            try:
                layer["text"] = skia_text.TextLayer(item, layer["frame"] or bounds, folder, fonts,
                                                    lambda alpha, paint=paint: colour(paint, "", alpha))
            except skia_text.TextError as error:
                raise SceneError(f"{where}: {error}") from None
        elif kind == "backdrop":
            if item.get("material") not in MATERIALS or item.get("appearance", "dark") not in ("light", "dark"):
                raise SceneError(f"{where}: material must be one of {', '.join(MATERIALS)}, light or dark")
        layers.append(layer)
    return layers


def load_scene(path):
    with open(path, encoding="utf-8") as f:
        scene = json.load(f)
    canvas = scene["canvas"]
    layers = load_layers(scene["layers"], "layers", os.path.dirname(os.path.abspath(path)),
                         (0, 0, canvas["width"], canvas["height"]), skia_text.Fonts())
    return dict(width=canvas["width"], height=canvas["height"], scale=canvas.get("scale", 1),
                background=colour(canvas.get("background", "clear"), "canvas.background"), layers=layers)


def animated(layer):
    return bool(layer["animations"]) or any(animated(child) for child in layer.get("layers", []))


def value_at(layer, t):
    """(opacity, transform) at t seconds: each animation moves its property from the layer's own value."""
    opacity, transform = float(layer.get("opacity", 1)), layer["transform"]
    for prop, to, (delay, duration, x), at in layer["animations"]:
        elapsed = t - delay
        progress = 0.0 if elapsed <= 0 else 1.0 if elapsed >= duration else x(elapsed)
        if prop == "opacity":
            opacity = opacity + (to - opacity) * progress
        else:
            transform = interpolate(transform, to, progress, at)
    return min(max(opacity, 0.0), 1.0), transform


# --- Drawing -------------------------------------------------------------------------------------------------

def saturation_matrix(s):
    """Filter Effects' feColorMatrix saturate(s), row-major 4x5."""
    r, g, b = 0.213, 0.715, 0.072
    return [r + (1 - r) * s, g - g * s, b - b * s, 0, 0,
            r - r * s, g + (1 - g) * s, b - b * s, 0, 0,
            r - r * s, g - g * s, b + (1 - b) * s, 0, 0,
            0, 0, 0, 1, 0]


def draw_backdrop(canvas, layer, rect, opacity):
    """A material: saveLayer whose backdrop is the canvas beneath blurred (σ in points: Skia scales it by the
    matrix, 3 px/pt here) and saturated, then the two tints drawn in the layer, clipped to the rounded frame."""
    blur, light, dark = MATERIALS[layer["material"]]
    tint, grey, grey_alpha = dark if layer.get("appearance", "dark") == "dark" else light
    sigma = float(layer.get("blur", blur))
    blurred = skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kClamp)
    backdrop = skia.ImageFilters.ColorFilter(skia.ColorFilters.Matrix(saturation_matrix(SATURATION)), blurred)
    alpha = skia.Paint(Alphaf=opacity)
    radius = min(float(layer.get("cornerRadius", 0)), min(rect.width(), rect.height()) / 2)
    canvas.save()
    canvas.clipRRect(skia.RRect.MakeRectXY(rect, radius, radius), True)
    # SaveLayerRec keeps raw pointers: `backdrop` and `alpha` must outlive restore().
    canvas.saveLayer(skia.Canvas.SaveLayerRec(rect, alpha, backdrop, 0))
    mode = skia.BlendMode.kOverlay if layer.get("appearance", "dark") == "dark" else skia.BlendMode.kColorDodge
    if tint is not None:
        canvas.drawPaint(skia.Paint(Color4f=colour(f"#{tint:06x}", ""), BlendMode=mode))
    canvas.drawPaint(skia.Paint(Color4f=colour(f"#{grey:06x}", "", grey_alpha)))
    dim = float(layer.get("dim", 0))
    if dim > 0:
        canvas.drawPaint(skia.Paint(Color4f=skia.Color4f(0, 0, 0, dim)))
    canvas.restore()
    canvas.restore()


def centred(transform, frame):
    """The layer's transform about its frame's centre, in its parent's coordinates."""
    x, y, w, h = frame
    cx, cy = x + w / 2, y + h / 2
    return then(then((1, 0, 0, 1, -cx, -cy), transform), (1, 0, 0, 1, cx, cy))


def content_bounds(layers, bounds, t):
    """The box (x0, y0, x1, y1) the layers may draw in, in their parent's coordinates: an isolated group's
    layer is made this size, as ours makes its picture just large enough."""
    box = None
    for layer in layers:
        frame = layer["frame"] or bounds
        x, y, w, h = frame
        if layer["type"] == "group":
            inner = content_bounds(layer["layers"], (0, 0, w, h), t)
            if inner is None:
                continue
            corners = [(x + u, y + v) for u in inner[0::2] for v in inner[1::2]]
        elif layer["type"] == "text" and layer["text"].ink is not None:  # glyphs may overflow the frame
            corners = [(x + u, y + v) for u in layer["text"].ink[0::2] for v in layer["text"].ink[1::2]]
        else:
            corners = [(x + u, y + v) for u in (0, w) for v in (0, h)]
        a, b, c, d, tx, ty = centred(value_at(layer, t)[1], frame)
        xs = [a * u + c * v + tx for u, v in corners]
        ys = [b * u + d * v + ty for u, v in corners]
        mine = (min(xs), min(ys), max(xs), max(ys))
        box = mine if box is None else (min(box[0], mine[0]), min(box[1], mine[1]),
                                        max(box[2], mine[2]), max(box[3], mine[3]))
    return box


def draw_layer(canvas, layer, bounds, t, sampling):
    """One layer in its parent's coordinates (points); its transform acts about its frame's centre (UIView)."""
    opacity, transform = value_at(layer, t)
    x, y, w, h = layer["frame"] or bounds
    if opacity <= 0 or w <= 0 or h <= 0:
        return
    a, b, c, d = transform[:4]
    if abs(a * d - b * c) < 1e-12:  # squashed to a line: nothing to draw, as ours
        return
    canvas.save()
    if transform != IDENTITY:
        canvas.concat(skia_matrix(centred(transform, (x, y, w, h))))
    rect, kind = skia.Rect.MakeXYWH(x, y, w, h), layer["type"]
    if kind == "image":
        image = layer["image"]
        scale = max(w / image.width(), h / image.height())
        pw, ph = image.width() * scale, image.height() * scale
        canvas.clipRect(rect, True)
        canvas.drawImageRect(image, skia.Rect.MakeXYWH(x + (w - pw) / 2, y + (h - ph) / 2, pw, ph), sampling,
                             skia.Paint(Alphaf=opacity))
    elif kind in ("color", "shape"):
        radius = min(w, h) / 2 if layer.get("shape") == "capsule" else min(float(layer.get("cornerRadius", 0)),
                                                                          min(w, h) / 2)
        paint = skia.Paint(Color4f=colour(layer["color"], layer["where"] + ".color", opacity), AntiAlias=True)
        canvas.drawRRect(skia.RRect.MakeRectXY(rect, radius, radius), paint)
    elif kind == "backdrop":
        draw_backdrop(canvas, layer, rect, opacity)
    elif kind == "text":
        layer["text"].draw(canvas, (x, y, w, h), opacity)
    else:
        canvas.translate(x, y)
        box = content_bounds(layer["layers"], (0, 0, w, h), t)
        if box is None:
            canvas.restore()
            return
        if opacity < 1:  # isolated, as ours: drawn alone on a layer just large enough, then composited
            canvas.saveLayerAlpha(skia.Rect.MakeLTRB(*box), round(opacity * 255))
        for child in layer["layers"]:
            draw_layer(canvas, child, (0, 0, w, h), t, sampling)
        if opacity < 1:
            canvas.restore()
    canvas.restore()


class Renderer:
    """Draws one scene's frames on a raster of its size in pixels: the static bottom layers once, the rest per frame."""

    def __init__(self, scene, naive=False):
        self.scene, self.sampling = scene, skia.SamplingOptions(skia.CubicResampler.CatmullRom())
        self.width, self.height = round(scene["width"] * scene["scale"]), round(scene["height"] * scene["scale"])
        self.info = skia.ImageInfo.Make(self.width, self.height, skia.ColorType.kRGBA_8888_ColorType,
                                        skia.AlphaType.kPremul_AlphaType)
        self.surface = skia.Surface.MakeRaster(self.info)
        if self.surface is None:
            raise SceneError(f"canvas: Skia cannot make a {self.width}x{self.height} px raster")
        layers = scene["layers"]
        self.static = 0 if naive else next((i for i, layer in enumerate(layers) if animated(layer)), len(layers))
        self.base = None
        if self.static:
            self._draw(layers[:self.static], 0.0)
            self.base = self.surface.makeImageSnapshot()

    def _draw(self, layers, t):
        canvas = self.surface.getCanvas()
        canvas.resetMatrix()
        if self.base is None:
            canvas.clear(self.scene["background"])
        else:
            canvas.drawImage(self.base, 0, 0)  # opaque source-over: Skia's blit
        canvas.scale(self.scene["scale"], self.scene["scale"])
        bounds = (0, 0, self.scene["width"], self.scene["height"])
        for layer in layers:
            draw_layer(canvas, layer, bounds, t, self.sampling)

    def frame_into(self, t, out):
        """Draws the frame at t seconds and copies its RGBA bytes into `out` (H x W x 4 uint8)."""
        self._draw(self.scene["layers"][self.static:], t)
        if not self.surface.readPixels(self.info, out, self.width * 4):
            raise RuntimeError("Skia readPixels failed")


def render(renderer, times, processes):
    """Every frame drawn into one buffer (shared memory when forked: process i draws frames i, i+n, …)."""
    shape = (len(times), renderer.height, renderer.width, 4)
    try:
        memory = mmap.mmap(-1, int(np.prod(shape)))  # anonymous and shared: children write straight into it
    except (OSError, OverflowError) as error:
        raise RuntimeError(f"{int(np.prod(shape))} bytes for the frames: {error}") from None
    frames = np.frombuffer(memory, np.uint8).reshape(shape)
    children = []
    for worker in range(1, processes):
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                for k in range(worker, len(times), processes):
                    renderer.frame_into(times[k], frames[k])
            except BaseException:
                status = 1
            os._exit(status)
        children.append(pid)
    for k in range(0, len(times), processes):
        renderer.frame_into(times[k], frames[k])
    for pid in children:
        if os.waitpid(pid, 0)[1] != 0:
            raise RuntimeError("a rendering process failed")
    return frames


def pillow_apng(frames, path, fps):
    """Pillow's animated PNG with its defaults; RGB when every frame is opaque (as a careful user would)."""
    mode = "RGB" if all((f[..., 3] == 255).all() for f in frames) else "RGBA"
    images = [Image.fromarray(np.asarray(f)).convert(mode) for f in frames]
    images[0].save(path, format="PNG", save_all=True, append_images=images[1:], duration=1000 / fps, loop=0)
    return mode


# --- Measuring -----------------------------------------------------------------------------------------------

def median_of(trials, run):
    """(median, every value) of run() called `trials` times; run returns seconds."""
    runs = [run() for _ in range(trials)]
    return statistics.median(runs), runs


def stopwatch(run):
    """Seconds run() takes; its result is kept in stopwatch.result."""
    start = time.perf_counter()
    stopwatch.result = run()
    return time.perf_counter() - start


def process_seconds(command):
    """Wall time of a whole process, start to exit (its output written)."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{os.path.basename(command[0])} exit {done.returncode}: {done.stderr.strip()[-200:]}")
    return float(re.search(r"render-only: \d+ frames in ([\d.]+) s", done.stdout + done.stderr)[1]) \
        if "--benchmark" in command else 0.0


def ours(args):
    """blurtool animate at 1 thread and every thread: render-only (its --benchmark line), whole job (wall time)
    and bytes; {"error": reason} when the tool or its animate --benchmark is not there."""
    command = [args.ours, "animate", args.scene, "--fps", f"{args.fps:g}", "--duration", f"{args.duration:g}"]
    probe = subprocess.run(command + ["--benchmark"], capture_output=True, text=True) \
        if os.path.exists(args.ours) else None
    if probe is None or probe.returncode != 0 or "render-only:" not in probe.stdout + probe.stderr:
        return {"error": f"{args.ours} missing (make release)" if probe is None else
                "animate --benchmark failed: " + (probe.stdout + probe.stderr).strip()[-160:]}
    result = {}
    for threads in sorted({1, os.cpu_count()}):
        mine = command + ["--threads", str(threads)]
        out = os.path.join(args.work, f"ours-{threads}.png")
        render, render_runs = median_of(args.trials, lambda: process_seconds(mine + ["--benchmark"]))
        whole, whole_runs = median_of(args.trials, lambda: stopwatch(lambda: process_seconds(mine + ["-o", out])))
        result[threads] = {"render_s": render, "render_runs": render_runs, "whole_job_s": whole,
                           "whole_job_runs": whole_runs, "bytes": os.path.getsize(out), "output": out}
    return result


def decoded_frames(path, fps):
    """An animated PNG's frames as Pillow composes them, one per 1/fps: an encoder (Pillow's, maybe ours) merges
    a run of identical frames into one that shows longer, which is expanded again here."""
    frames = []
    with Image.open(path) as im:
        for frame in ImageSequence.Iterator(im):
            picture = np.array(frame.convert("RGBA"))
            frames += [picture] * max(1, round(frame.info.get("duration", 1000 / fps) * fps / 1000))
    return frames


def psnr(a, b):
    diff = a[..., :3].astype(np.float64) - b[..., :3]
    mse = float(np.mean(diff * diff))
    return float("inf") if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def frame_times(args):
    """k / fps for k = 0… up to the first at or after the duration (61 for 1 s at 60 fps), as ours."""
    return [k / args.fps for k in range(int(math.ceil(args.duration * args.fps * (1 - 1e-12))) + 1)]


def benchmark(args):
    """The whole comparison: returns the JSON-ready report, printing as it goes."""
    scene, times = load_scene(args.scene), frame_times(args)
    report = {"scene": args.scene, "frames": len(times), "fps": args.fps, "trials": args.trials,
              "cpu": describe(os.path.dirname(args.ours)),
              "versions": {"python": platform.python_version(), "skia-python": skia.__version__,
                           "pillow": Image.__version__, "numpy": np.__version__},
              "load_average": [os.getloadavg()[0]], "peer": {}}
    c = report["cpu"]
    print(f"peer_animate: {args.scene}, {len(times)} frames at {args.fps:g} fps; {summary(c)}; "
          f"load average {os.getloadavg()[0]:.2f}")
    peer, frames = report["peer"], None
    for key, naive, processes in [("1p", False, 1), ("2p", False, 2), ("naive-1p", True, 1)]:
        if processes > os.cpu_count() or naive and not args.naive:
            continue
        setup = stopwatch(lambda: Renderer(scene, naive))
        renderer = stopwatch.result
        median, runs = median_of(1 if naive else args.trials,
                                 lambda: stopwatch(lambda: render(renderer, times, processes)))
        peer[key] = {"render_s": median, "render_runs": runs, "setup_s": setup, "static_layers": renderer.static}
        if frames is None:
            frames = stopwatch.result
        elif not np.array_equal(frames, stopwatch.result):
            raise RuntimeError(f"the {key} frames differ from the 1-process ones")
        print(f"  skia {key}: render {median:.2f} s (static bottom {renderer.static} layers, drawn in {setup:.2f} s)")
    out = os.path.join(args.work, "peer.png")
    peer["encode_s"] = stopwatch(lambda: pillow_apng(frames, out, args.fps))
    peer["mode"], peer["bytes"] = stopwatch.result, os.path.getsize(out)
    print(f"  Pillow APNG ({peer['mode']}): {peer['encode_s']:.2f} s, {peer['bytes']} bytes")
    me = [sys.executable, os.path.abspath(__file__), "--whole-job", "--scene", args.scene, "--fps", f"{args.fps:g}",
          "--duration", f"{args.duration:g}", "-o", os.path.join(args.work, "peer-whole.png")]
    for processes in sorted({1, min(2, os.cpu_count())}):
        peer[f"whole_job_{processes}p_s"], peer[f"whole_job_{processes}p_runs"] = median_of(
            args.trials, lambda: stopwatch(lambda: process_seconds(me + ["--processes", str(processes)])))
        print(f"  whole job, {processes} process(es): {peer[f'whole_job_{processes}p_s']:.2f} s")
    report["ours"] = ours(args)
    if "error" not in report["ours"]:
        theirs = decoded_frames(report["ours"][1]["output"], args.fps)
        again = os.path.join(args.work, "ours-by-pillow.png")
        report["ours_resaved_by_pillow"] = {"mode": pillow_apng(theirs, again, args.fps), "frames": len(theirs),
                                            "bytes": os.path.getsize(again)}
        report["psnr_peer_vs_ours_db"] = {k: psnr(frames[k], theirs[k]) for k in
                                          sorted({0, len(times) // 2, len(times) - 1}) if k < len(theirs)}
    report["load_average"].append(os.getloadavg()[0])
    return report


def print_table(report):
    """Peer against ours, one row per figure; peer/ours above 1 means ours is faster (or smaller)."""
    peer, mine = report["peer"], report["ours"]
    one, every = (mine.get(1, {}), mine.get(max(mine), {})) if "error" not in mine else ({}, {})
    rows = [("render-only: 1 process; ours 1 thread", peer["1p"]["render_s"], one.get("render_s")),
            ("render-only: 2 processes; ours every thread", peer.get("2p", {}).get("render_s"), every.get("render_s")),
            ("render-only: whole scene each frame, 1 process", peer.get("naive-1p", {}).get("render_s"),
             one.get("render_s")),
            ("encode: Pillow APNG of the frames above", peer["encode_s"], None),
            ("whole job: 1 process; ours 1 thread", peer["whole_job_1p_s"], one.get("whole_job_s")),
            ("whole job: 2 processes; ours every thread", peer.get("whole_job_2p_s"), every.get("whole_job_s")),
            ("output bytes", peer["bytes"], every.get("bytes")),
            ("our frames re-saved by Pillow: bytes", report.get("ours_resaved_by_pillow", {}).get("bytes"),
             every.get("bytes"))]
    print(f"\n{'figure (s, or bytes)':48s} {'peer':>11s} {'ours':>11s} {'peer/ours':>10s}")
    for label, p, o in rows:
        if p is None:
            continue
        text = [("-" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)) for v in (p, o)]
        print(f"{label:48s} {text[0]:>11s} {text[1]:>11s} {f'{p / o:.2f}x' if o else '-':>10s}")
    if "error" in mine:
        print(f"ours: unavailable ({mine['error']})")
    else:
        print("PSNR of the peer's frames against ours, by frame: " + ", ".join(
            f"{k}: {v:.1f} dB" for k, v in report["psnr_peer_vs_ours_db"].items()))
    v = report["versions"]
    print(f"Python {v['python']}, skia-python {v['skia-python']}, Pillow {v['pillow']}, numpy {v['numpy']}; Skia's "
          f"raster is single-threaded per canvas; load average {report['load_average'][0]:.2f} → "
          f"{report['load_average'][1]:.2f}")


class Parser(argparse.ArgumentParser):
    def error(self, message):  # a usage error is sysexits' EX_USAGE, not argparse's 2
        self.print_usage(sys.stderr)
        self.exit(EX_USAGE, f"peer_animate: {message}\n")


def parse_args(argv):
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("--scene", default=os.path.join(ROOT, "fixtures", "showcase-entrance.json"),
                   help="scene file (default: %(default)s)")
    p.add_argument("--fps", type=float, default=60)
    p.add_argument("--duration", type=float, default=1, help="seconds; frames at k/fps up to it (61 by default)")
    p.add_argument("--trials", type=int, default=3, help="median of this many runs of each timing")
    p.add_argument("--ours", default=os.path.join(ROOT, ".build", "release", "blurtool"))
    p.add_argument("--naive", action="store_true", help="also time Skia drawing the whole scene every frame (1 run)")
    p.add_argument("--json", help="write every figure to this file")
    p.add_argument("--whole-job", action="store_true", help="render and write -o as one job, print nothing")
    p.add_argument("--processes", type=int, default=1, help="with --whole-job: rendering processes")
    p.add_argument("-o", "--output", help="with --whole-job: the animated PNG to write")
    args = p.parse_args(argv)
    if not (args.fps > 0 and 0 <= args.duration <= 600 and args.trials >= 1 and args.processes >= 1):
        p.error("needs --fps > 0, 0 <= --duration <= 600, --trials >= 1, --processes >= 1")
    if args.whole_job != bool(args.output):
        p.error("--whole-job and -o go together")
    return args


def main(argv):
    args = parse_args(argv)
    try:
        if args.whole_job:
            frames = render(Renderer(load_scene(args.scene)), frame_times(args), args.processes)
            pillow_apng(frames, args.output, args.fps)
            return 0
        with tempfile.TemporaryDirectory(prefix="peer_animate-") as args.work:
            report = benchmark(args)
        print_table(report)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
            print(f"wrote {args.json}")
    except OSError as error:
        print(f"peer_animate: {error}", file=sys.stderr)
        return EX_NOINPUT
    except (SceneError, ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"peer_animate: {args.scene}: not a scene this peer draws ({type(error).__name__}: {error})",
              file=sys.stderr)
        return EX_DATAERR
    except RuntimeError as error:
        print(f"peer_animate: {error}", file=sys.stderr)
        return EX_SOFTWARE
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
