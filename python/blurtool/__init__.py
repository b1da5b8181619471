"""blurtool: Gaussian blurs, iOS materials, compositing, warps, codecs, scenes and text on the CPU, for numpy.

Images are numpy arrays of shape (height, width, 4), dtype uint8, RGBA. Colour is straight (not premultiplied
by alpha) unless a call is given premultiplied=True, since that is what decoders and most numpy code hold.
Arrays whose rows are packed RGBA (any row stride, e.g. a crop of a bigger image) are used where they are;
others are copied. Nothing the caller owns is kept or freed. Calls release the GIL while the library works, and
`threads` (None: one worker a core) bounds the library's own workers; results are the same for any count.

Failures of the library raise BlurtoolError with its status and message; arguments of the wrong type or shape
raise TypeError or ValueError before the library is called.

The library (libblurtool.so.1) is found through the BLURTOOL_LIBRARY environment variable (its path), else the
dynamic loader.
"""
import ctypes
import json
import os
import threading

import numpy as np

from . import _pixels
from ._capi import (ALIGNMENTS, APPEARANCES, EDGES, FILL_RULES, FILTERS, FORMATS, LINE_CAPS, LINE_JOINS, PRECISIONS,
                    BlurtoolError, Buffer, Label, Stroke, lib)

__all__ = [
    "BlurtoolError", "Scene", "blur", "composite", "decode", "draw_text", "encode", "fill_path", "kernels",
    "material", "materials", "measure_text", "stroke_path", "version", "warp",
]


def version():
    """The library's version, e.g. "0.1.0"."""
    return lib.blurtool_version().decode()


def kernels():
    """The SIMD kernels this CPU got, e.g. "x86-64-v3 (AVX2+FMA), C" (what `blurtool --verbose` prints)."""
    return lib.blurtool_kernels().decode()


def materials():
    """The names material() takes: "ultraThin", "thin", "regular", ... as `blurtool materials` lists them."""
    return lib.blurtool_materials().decode().split(",")


class _Workspace:
    """A thread's scratch memory for blurs, materials and composites, freed when the thread's locals go."""

    def __init__(self):
        self.handle = lib.blurtool_workspace_new()
        self._free = lib.blurtool_workspace_free  # held so it is still there at interpreter exit

    def __del__(self):
        self._free(self.handle)


# A library workspace is used by one thread at a time; one per Python thread lets repeated calls allocate
# nothing in the library once the sizes settle.
_thread_state = threading.local()


def _workspace():
    if not hasattr(_thread_state, "workspace"):
        _thread_state.workspace = _Workspace()
    return _thread_state.workspace.handle


def _region_call(call, array, region, out, premultiplied):
    """Runs a region filter (`call(source, rect, destination)`) the way blur and material share: out=None into a
    new array of the region's size, out=array in place, else into `out`."""
    rect = _pixels.region(region)
    if out is not None and out is array:
        with _pixels.destination(_pixels.output(array, np.shape(array), "array"), premultiplied) as buffer:
            call(buffer, rect, None)
        return out
    array = _pixels.rgba(array)
    shape = _pixels.region_shape(rect, array)
    result = np.empty(shape, np.uint8) if out is None else _pixels.output(out, shape)
    source, _kept_alive = _pixels.source(array, premultiplied)
    with _pixels.destination(result, premultiplied) as buffer:
        call(source, rect, buffer)
    return result if out is None else out


def blur(array, sigma, *, edge="mirror", premultiplied=False, region=None, out=None, threads=None,
         precision="auto"):
    """A Gaussian blur of standard deviation `sigma` pixels.

    ~ cv2.GaussianBlur(array, (0, 0), sigma) (edge="mirror" is OpenCV's default BORDER_REFLECT_101) and Pillow's
    image.filter(ImageFilter.GaussianBlur(sigma)); unlike those, the colour is blurred premultiplied by alpha, so
    transparent pixels do not darken their neighbours.

    region: (x, y, width, height) of `array` to blur, reading the pixels around it as a backdrop does, so the
        result equals the whole array blurred and then cropped (no seam); None for all of it.
    out: None returns a new array of the region's size; `array` itself blurs the region in place; another array
        of the region's size receives the result (it may overlap `array`).
    edge: how pixels past the edges read: "mirror", "clamp", "wrap" or "transparent".
    precision: "auto" (exact below sigma 6.6, the pyramid above), "exact" (up to sigma 100) or "fast".
    premultiplied: whether the arrays hold premultiplied colour. sigma <= 0 copies.
    """
    edge_value = _pixels.choice(edge, EDGES, "edge")
    precision_value = _pixels.choice(precision, PRECISIONS, "precision")
    workers = _pixels.threads(threads)

    def call(source, rect, destination):
        lib.blurtool_blur(_workspace(), source, rect, destination, float(sigma), edge_value, precision_value, workers)

    return _region_call(call, array, region, out, premultiplied)


def material(array, name, *, appearance="light", dim=0.0, effect=1.0, pixels_per_point=0.0, region=None,
             out=None, threads=None, premultiplied=False):
    """`array` (or its region) seen through an iOS material, as a backdrop behind a sheet or a bar.

    No OpenCV or Pillow equivalent: this is UIBlurEffect / SwiftUI's .background(.thinMaterial).

    name: a material of `blurtool materials` ("ultraThin", "thin", "regular", "thick", "ultraThick", "bar",
        "chrome", "systemMaterialDark", ...). appearance: "light" or "dark".
    dim: the opacity of a black overlay drawn last (0 to 1, SwiftUI's Color.black.opacity(dim)).
    effect: how much of the material shows (0 to 1, as UIVisualEffectView animates it).
    pixels_per_point: the image's scale (0: the array fills a phone screen, its shorter side 390 points).
    region, out, premultiplied: as blur().
    """
    name_bytes = _pixels.c_string(name, "name")
    appearance_value = _pixels.choice(appearance, APPEARANCES, "appearance")
    workers = _pixels.threads(threads)

    def call(source, rect, destination):
        lib.blurtool_material(_workspace(), source, rect, destination, name_bytes, appearance_value, float(dim),
                              float(effect), float(pixels_per_point), workers)

    return _region_call(call, array, region, out, premultiplied)


def composite(dst, src, x, y, *, operator="source-over", opacity=1.0, mask=None, threads=None,
              premultiplied=False):
    """Draws `src` onto `dst` in place with its top-left corner at (x, y) (parts outside are skipped); returns
    `dst`.

    ~ Pillow's dst_image.alpha_composite(src_image, dest=(x, y)) for "source-over"; with a mask, Pillow's
    paste(src, (x, y), mask) as a clip.

    operator: a Porter-Duff operator ("source-over", "copy", "clear", "destination", "source-in", "source-out",
        "source-atop", "destination-over", "destination-in", "destination-out", "destination-atop", "xor",
        "plus-lighter", "plus-darker") or a blend mode ("normal", "multiply", "screen", "overlay", "darken",
        "lighten", "color-dodge", "color-burn", "soft-light", "hard-light", "difference", "exclusion", "hue",
        "saturation", "color", "luminosity"); it acts inside the drawn rectangle only, as Core Graphics does.
    opacity: 0 to 1, how much the source counts. mask: None or an H×W uint8 coverage array of `src`'s size.
    """
    src = _pixels.rgba(src, "src")
    operator_bytes = _pixels.c_string(operator, "operator")
    x, y = _pixels.int32(x, "x"), _pixels.int32(y, "y")
    workers = _pixels.threads(threads)
    mask_pointer, mask_stride = None, 0
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != np.uint8:
            raise TypeError(f"mask must be a uint8 array, not {mask.dtype}")
        if mask.shape != src.shape[:2]:
            raise ValueError(f"mask must have src's shape {src.shape[:2]}, not {mask.shape}")
        # Rows of packed bytes are passed where they are, as for images.
        if mask.strides[1] != 1 or mask.strides[0] < mask.shape[1]:
            mask = np.ascontiguousarray(mask)
        mask_pointer, mask_stride = mask.ctypes.data, max(mask.strides[0], mask.shape[1])
    source, _kept_alive = _pixels.source(src, premultiplied)
    with _pixels.destination(_pixels.output(dst, np.shape(dst), "dst"), premultiplied) as destination:
        lib.blurtool_composite(_workspace(), destination, source, x, y, operator_bytes, float(opacity), mask_pointer,
                               mask_stride, workers)
    return dst


def warp(array, transform, size, *, filter="bilinear", threads=None, premultiplied=False):
    """`array` drawn through a transform into a new, otherwise transparent array of `size` (width, height).

    transform: 6 numbers (a, b, c, d, tx, ty) as CGAffineTransform: a source pixel position (x, y), from the
        top-left corner, lands on (a x + c y + tx, b x + d y + ty). ~ cv2.warpAffine(array, [[a, c, tx],
        [b, d, ty]], size, borderMode=cv2.BORDER_CONSTANT) and Pillow's image.transform(size, Image.AFFINE, ...)
        (which takes the inverse). Minification averages, so it does not alias.
        Or 16 numbers / a 4×4 array, CATransform3D's m11 ... m44 (row vectors, in pixels; m34 = -1 / eye
        distance for perspective), drawn in perspective with mipmaps. ~ cv2.warpPerspective.
    filter: for an affine transform, "nearest", "bilinear", "catmull-rom", "mitchell" or "lanczos3" (the 3D
        warp always samples bilinearly with mipmaps).
    """
    array = _pixels.rgba(array)
    matrix = np.asarray(transform, dtype=np.float64)
    if len(size) != 2:
        raise ValueError(f"size must be (width, height), not {size!r}")
    width, height = _pixels.int32(size[0], "size[0]"), _pixels.int32(size[1], "size[1]")
    if width < 1 or height < 1:
        raise ValueError(f"size must be at least 1×1, not {width}×{height}")
    workers = _pixels.threads(threads)
    filter_value = _pixels.choice(filter, FILTERS, "filter")
    if matrix.size == 16 and filter != "bilinear":
        raise ValueError("a 3D warp samples bilinearly with mipmaps; filter applies to affine transforms only")
    out = np.empty((height, width, 4), np.uint8)
    source, _kept_alive = _pixels.source(array, premultiplied)
    with _pixels.destination(out, premultiplied) as destination:
        if matrix.size == 16:
            lib.blurtool_warp_3d(destination, source, _pixels.doubles(matrix, 16, "transform"), workers)
        else:
            lib.blurtool_warp(destination, source, _pixels.doubles(matrix, 6, "transform"), filter_value, workers)
    return out


def decode(data, *, max_pixels=0, premultiplied=False):
    """A JPEG or PNG (recognised by its bytes) decoded to a new array, turned upright by its EXIF orientation.

    ~ cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED) (which gives BGR(A)) and
    np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGBA")).

    data: bytes, bytearray, memoryview or any contiguous buffer. max_pixels: images of more pixels are refused
    before any is allocated (0: 100 megapixels).
    """
    encoded = np.frombuffer(data, dtype=np.uint8)
    image = Buffer()
    lib.blurtool_decode(encoded.ctypes.data, encoded.size, _pixels.int32(max_pixels, "max_pixels", bits=64),
                        _pixels.alpha(premultiplied), image)
    try:
        # The library's pixels, seen as an array just long enough to copy them out.
        span = image.stride * (image.height - 1) + image.width * 4
        pixels = (ctypes.c_uint8 * span).from_address(image.pixels)
        return np.ndarray((image.height, image.width, 4), np.uint8, pixels, strides=(image.stride, 4, 1)).copy()
    finally:
        lib.blurtool_free(image.pixels)


def encode(array, format="png", quality=90, *, premultiplied=False):
    """`array` encoded as "png" or "jpeg" (quality 1 to 100, ignored for PNG); returns the bytes.

    ~ cv2.imencode(".png", array)[1].tobytes() (for BGR(A) arrays) and Pillow's image.save(buffer, "PNG").
    JPEG has no alpha: the image is written over black.
    """
    source, _kept_alive = _pixels.source(_pixels.rgba(array), premultiplied)
    format_value = _pixels.choice(format, FORMATS, "format")
    data, size = ctypes.c_void_p(), ctypes.c_size_t()
    lib.blurtool_encode(source, format_value, _pixels.int32(quality, "quality"), data, size)
    try:
        return ctypes.string_at(data.value, size.value)
    finally:
        lib.blurtool_free(data)


class Scene:
    """A scene file (the JSON of `blurtool compose` / `animate`), ready to render frame after frame.

    Scene(path) reads a file (its images and fonts relative to its folder); Scene.from_json(text, base_folder)
    reads JSON text. Frames are drawn with what does not move kept between calls, so frame after frame renders at
    the animation's speed. A Scene is safe to share between threads (renders take turns). Close it with close() or
    a `with` block; otherwise it is freed when collected.
    """

    def __init__(self, path):
        self._open(lambda handle: lib.blurtool_scene_load(_pixels.c_string(os.fsencode(path), "path"), handle))

    @classmethod
    def from_json(cls, text, base_folder=None):
        """A scene from JSON text (str or bytes, or a dict to serialise); relative image and font paths start
        from `base_folder` (None: the current directory)."""
        if isinstance(text, dict):
            text = json.dumps(text)
        encoded = _pixels.c_string(text, "text")
        folder = None if base_folder is None else _pixels.c_string(os.fsencode(base_folder), "base_folder")
        scene = cls.__new__(cls)
        scene._open(lambda handle: lib.blurtool_scene_from_json(encoded, len(encoded), folder, handle))
        return scene

    def _open(self, load):
        self._handle = None
        self._lock = threading.Lock()  # the library's handle is used by one thread at a time
        self._free = lib.blurtool_scene_free  # held so it is still there at interpreter exit
        handle = ctypes.c_void_p()
        load(handle)
        self._handle = handle.value

    def _live_handle(self):
        if self._handle is None:
            raise ValueError("the scene is closed")
        return self._handle

    @property
    def size(self):
        """The canvas in pixels, (width, height): points times the scene's scale."""
        width, height = ctypes.c_int32(), ctypes.c_int32()
        with self._lock:
            lib.blurtool_scene_size(self._live_handle(), width, height)
        return width.value, height.value

    @property
    def duration(self):
        """When the scene's last animation ends, in seconds (0 for a still scene)."""
        seconds = ctypes.c_double()
        with self._lock:
            lib.blurtool_scene_duration(self._live_handle(), seconds)
        return seconds.value

    def render(self, t=0.0, *, out=None, threads=None, premultiplied=False):
        """The frame at `t` seconds, into `out` (an array of shape (height, width, 4)) or a new array. Each frame
        equals the same frame drawn alone, to the bit, whatever `threads` says from one call to the next."""
        width, height = self.size
        out = np.empty((height, width, 4), np.uint8) if out is None else _pixels.output(out, (height, width, 4))
        workers = _pixels.threads(threads)
        with self._lock, _pixels.destination(out, premultiplied) as destination:
            lib.blurtool_scene_render(self._live_handle(), float(t), destination, workers)
        return out

    def close(self):
        """Frees the library's scene; further calls raise ValueError. Closing twice is harmless."""
        with self._lock:
            handle, self._handle = self._handle, None
            self._free(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            self._free(self._handle)


def _label(text, font, size, weight, color, alignment, width, line_limit, scale):
    if len(color) != 4:
        raise ValueError(f"color must be (red, green, blue, alpha) from 0 to 1, not {color!r}")
    return Label(
        _pixels.c_string(text, "text"),
        None if font is None else _pixels.c_string(os.fsencode(font), "font"),
        float(size), _pixels.int32(weight, "weight"), (ctypes.c_double * 4)(*map(float, color)),
        _pixels.choice(alignment, ALIGNMENTS, "alignment"), float(width), _pixels.int32(line_limit, "line_limit"),
        float(scale))


def measure_text(text, *, font=None, size=17.0, weight=400, color=(0, 0, 0, 1), alignment="natural", width=0.0,
                 line_limit=0, scale=1.0):
    """The size in pixels, (width, height), of `text` laid out as UILabel does (its sizeThatFits).

    ~ Pillow's ImageDraw.multiline_textbbox((0, 0), text, font) and cv2.getTextSize (for Hershey fonts).

    font: a family fontconfig knows ("Inter", "DejaVu Serif"), a font file's absolute path, or None for the
        system face. size: in points. weight: 100 to 900 (400 regular, 700 bold). color: straight RGBA, 0 to 1.
    alignment: "natural", "leading", "center" or "trailing". width: the width lines wrap to, in points (0: no
    wrapping). line_limit: the most lines shown, the last ending in an ellipsis (0: no limit). scale: pixels
    per point.
    """
    label = _label(text, font, size, weight, color, alignment, width, line_limit, scale)
    measured_width, measured_height = ctypes.c_double(), ctypes.c_double()
    lib.blurtool_text_measure(label, measured_width, measured_height)
    return measured_width.value, measured_height.value


def draw_text(array, text, x, y, *, font=None, size=17.0, weight=400, color=(0, 0, 0, 1), alignment="natural",
              width=0.0, line_limit=0, scale=1.0, premultiplied=False):
    """Draws `text` source-over into `array` in place with the top-left corner of its box (what measure_text
    gives) at pixel (x, y); text outside the array is clipped. Returns `array`. Keywords as measure_text().

    ~ Pillow's ImageDraw.Draw(image).multiline_text((x, y), text, fill, font) and cv2.putText.
    """
    label = _label(text, font, size, weight, color, alignment, width, line_limit, scale)
    with _pixels.destination(_pixels.output(array, np.shape(array), "array"), premultiplied) as destination:
        lib.blurtool_text_draw(label, destination, float(x), float(y))
    return array


def _path_arguments(d, color, transform, operator):
    if len(color) != 4:
        raise ValueError(f"color must be (red, green, blue, alpha) from 0 to 1, not {color!r}")
    matrix = None if transform is None else _pixels.doubles(np.asarray(transform, dtype=np.float64), 6, "transform")
    return (_pixels.c_string(d, "d"), matrix, (ctypes.c_double * 4)(*map(float, color)),
            _pixels.c_string(operator, "operator"))


def fill_path(array, d, color, *, rule="nonzero", transform=None, operator="source-over", opacity=1.0,
              threads=None, premultiplied=False):
    """Fills the SVG path data `d` ("M6 6 L18 18 ...") with `color` (straight RGBA from 0 to 1) into `array` in
    place, anti-aliased by exact area; returns `array`.

    ~ skia's canvas.drawPath(skia.Path from SVG, paint) and cairo's append_path + fill, with SVG's rules.
    rule: "nonzero" or "evenodd". transform: None or 6 numbers (a, b, c, d, tx, ty) from path units to pixels,
        as CGAffineTransform (curves are flattened after it to 0.02 px). operator, opacity: as composite().
        Pixels the path does not cover are left as they are. Bad path data raises BlurtoolError with its offset.
    """
    data, matrix, colour, op = _path_arguments(d, color, transform, operator)
    rule_value = _pixels.choice(rule, FILL_RULES, "rule")
    workers = _pixels.threads(threads)
    with _pixels.destination(_pixels.output(array, np.shape(array), "array"), premultiplied) as destination:
        lib.blurtool_fill_path(destination, data, matrix, colour, rule_value, op, float(opacity), workers)
    return array


def stroke_path(array, d, color, *, width=1.0, cap="butt", join="miter", miter_limit=4.0, dashes=(), dash_phase=0.0,
                transform=None, operator="source-over", opacity=1.0, threads=None, premultiplied=False):
    """Strokes the SVG path data `d` with `color` into `array` in place, as fill_path() fills it; returns `array`.

    ~ skia's drawPath with a stroke paint and cairo's stroke. width: in path units, so it scales with
        `transform` (0: a hairline one pixel wide). cap: "butt", "round" or "square". join: "miter", "round" or
        "bevel". dashes: lengths on and off in path units (SVG's stroke-dasharray), starting `dash_phase` into the
        pattern. Where the stroke overlaps itself it is drawn once.
    """
    data, matrix, colour, op = _path_arguments(d, color, transform, operator)
    pattern = np.ascontiguousarray(dashes, dtype=np.float64).ravel()
    dash_pointer = pattern.ctypes.data_as(ctypes.POINTER(ctypes.c_double)) if pattern.size else None
    stroke = Stroke(float(width), _pixels.choice(cap, LINE_CAPS, "cap"), _pixels.choice(join, LINE_JOINS, "join"),
                    float(miter_limit), dash_pointer, _pixels.int32(pattern.size, "len(dashes)"), float(dash_phase))
    workers = _pixels.threads(threads)
    with _pixels.destination(_pixels.output(array, np.shape(array), "array"), premultiplied) as destination:
        lib.blurtool_stroke_path(destination, data, matrix, colour, stroke, op, float(opacity), workers)
    return array
