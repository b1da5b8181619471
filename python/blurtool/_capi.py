"""The C library through ctypes: finding and loading it, its structs, its functions' signatures, its errors.

Every function that returns a blurtool_status_t gets an errcheck that turns a nonzero status into a
BlurtoolError. errcheck runs on the calling thread straight after the call, so blurtool_last_error() (which is
per thread) still holds that call's message. ctypes releases the GIL for the call itself.
"""
import ctypes
import ctypes.util
import os

# The BLURTOOL_ABI_VERSION of the blurtool.h this module was written against.
ABI_VERSION = 1


class BlurtoolError(Exception):
    """A library call failed. `status` is the C status code (one of the class's ARGUMENT, DATA, LIMIT, MEMORY,
    FILE) and the message is the library's blurtool_last_error(), which names the function and the argument."""

    ARGUMENT = 1  # a wrong argument: size, region, unknown name, NaN...
    DATA = 2  # input that cannot be read: a damaged image, an invalid scene, a missing font
    LIMIT = 3  # over a limit: too many pixels, a scene needing too much work or memory
    MEMORY = 4  # memory could not be allocated
    FILE = 5  # a file could not be read

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class Buffer(ctypes.Structure):
    """blurtool_buffer_t: a caller's RGBA8 pixels."""

    _fields_ = [
        ("pixels", ctypes.c_void_p),
        ("width", ctypes.c_int32),
        ("height", ctypes.c_int32),
        ("stride", ctypes.c_int64),
        ("alpha", ctypes.c_int),
    ]


class Rect(ctypes.Structure):
    """blurtool_rect_t."""

    _fields_ = [(name, ctypes.c_int32) for name in ("x", "y", "width", "height")]


class Label(ctypes.Structure):
    """blurtool_label_t: a text and its style."""

    _fields_ = [
        ("text", ctypes.c_char_p),
        ("font", ctypes.c_char_p),
        ("size", ctypes.c_double),
        ("weight", ctypes.c_int32),
        ("color", ctypes.c_double * 4),
        ("alignment", ctypes.c_int),
        ("width", ctypes.c_double),
        ("line_limit", ctypes.c_int32),
        ("scale", ctypes.c_double),
    ]


class Stroke(ctypes.Structure):
    """blurtool_stroke_t: how a path is stroked."""

    _fields_ = [
        ("width", ctypes.c_double),
        ("cap", ctypes.c_int),
        ("join", ctypes.c_int),
        ("miter_limit", ctypes.c_double),
        ("dashes", ctypes.POINTER(ctypes.c_double)),
        ("dash_count", ctypes.c_int32),
        ("dash_phase", ctypes.c_double),
    ]


# blurtool.h's layout checks (layout.c), repeated so a mismatch fails at import rather than corrupting memory.
assert ctypes.sizeof(Buffer) == 32 and Buffer.alpha.offset == 24
assert ctypes.sizeof(Rect) == 16
assert ctypes.sizeof(Label) == 96 and Label.color.offset == 32
assert ctypes.sizeof(Stroke) == 48 and Stroke.dashes.offset == 24 and Stroke.dash_phase.offset == 40

ALPHA_PREMULTIPLIED, ALPHA_STRAIGHT = 0, 1
EDGES = {"mirror": 0, "clamp": 1, "wrap": 2, "transparent": 3}
PRECISIONS = {"auto": 0, "exact": 1, "fast": 2}
APPEARANCES = {"light": 0, "dark": 1}
FILTERS = {"nearest": 0, "bilinear": 1, "catmull-rom": 2, "mitchell": 3, "lanczos3": 4}
FORMATS = {"png": 0, "jpeg": 1, "jpg": 1}
FILL_RULES = {"nonzero": 0, "evenodd": 1}
LINE_CAPS = {"butt": 0, "round": 1, "square": 2}
LINE_JOINS = {"miter": 0, "round": 1, "bevel": 2}
ALIGNMENTS = {"natural": 0, "leading": 1, "center": 2, "trailing": 3}


def _load_library():
    """The shared library: BLURTOOL_LIBRARY when set (and then only it, so a wrong path is not hidden by
    another copy), else what the dynamic loader finds as libblurtool."""
    explicit = os.environ.get("BLURTOOL_LIBRARY")
    if explicit:
        try:
            return ctypes.CDLL(explicit)
        except OSError as error:
            raise ImportError(f"blurtool: BLURTOOL_LIBRARY={explicit!r} could not be loaded: {error}") from error
    failures = []
    for name in dict.fromkeys(filter(None, [ctypes.util.find_library("blurtool"), "libblurtool.so.1"])):
        try:
            return ctypes.CDLL(name)
        except OSError as error:
            failures.append(str(error))
    raise ImportError(
        "blurtool: the shared library libblurtool.so.1 was not found. Install it (make install PREFIX=...) where "
        "the dynamic loader looks (or add its lib folder to LD_LIBRARY_PATH), or set BLURTOOL_LIBRARY to the "
        "library's path" + (f" ({'; '.join(failures)})" if failures else ""))


def _raise_on_failure(status, function, arguments):
    if status != 0:
        raise BlurtoolError(status, lib.blurtool_last_error().decode("utf-8", "replace"))
    return status


lib = _load_library()

# Checked before anything else is looked up: another ABI may lack or change any function.
try:
    _abi_version = lib.blurtool_abi_version
except AttributeError as error:
    raise ImportError(f"blurtool: {lib._name!r} is not the blurtool library (no blurtool_abi_version)") from error
_abi_version.restype, _abi_version.argtypes = ctypes.c_int32, []
if _abi_version() != ABI_VERSION:
    raise ImportError(
        f"blurtool: the library {lib._name!r} has ABI version {_abi_version()}; this module was "
        f"written for {ABI_VERSION}. Install matching versions, or point BLURTOOL_LIBRARY at the right library.")

_buffer = ctypes.POINTER(Buffer)
_int32, _double, _size, _void = ctypes.c_int32, ctypes.c_double, ctypes.c_size_t, ctypes.c_void_p
_SIGNATURES = {
    # name: (result, argument types); a result of int is a blurtool_status_t, checked.
    "blurtool_version": (ctypes.c_char_p, []),
    "blurtool_kernels": (ctypes.c_char_p, []),
    "blurtool_materials": (ctypes.c_char_p, []),
    "blurtool_last_error": (ctypes.c_char_p, []),
    "blurtool_workspace_new": (_void, []),
    "blurtool_workspace_free": (None, [_void]),
    "blurtool_blur": (int, [_void, _buffer, ctypes.POINTER(Rect), _buffer, _double, ctypes.c_int, ctypes.c_int,
                            _int32]),
    "blurtool_material": (int, [_void, _buffer, ctypes.POINTER(Rect), _buffer, ctypes.c_char_p, ctypes.c_int,
                                _double, _double, _double, _int32]),
    "blurtool_composite": (int, [_void, _buffer, _buffer, _int32, _int32, ctypes.c_char_p, _double, _void,
                                 ctypes.c_int64, _int32]),
    "blurtool_warp": (int, [_buffer, _buffer, ctypes.POINTER(_double), ctypes.c_int, _int32]),
    "blurtool_warp_3d": (int, [_buffer, _buffer, ctypes.POINTER(_double), _int32]),
    "blurtool_decode": (int, [_void, _size, ctypes.c_int64, ctypes.c_int, _buffer]),
    "blurtool_encode": (int, [_buffer, ctypes.c_int, _int32, ctypes.POINTER(_void), ctypes.POINTER(_size)]),
    "blurtool_free": (None, [_void]),
    "blurtool_scene_load": (int, [ctypes.c_char_p, ctypes.POINTER(_void)]),
    "blurtool_scene_from_json": (int, [ctypes.c_char_p, _size, ctypes.c_char_p, ctypes.POINTER(_void)]),
    "blurtool_scene_free": (None, [_void]),
    "blurtool_scene_size": (int, [_void, ctypes.POINTER(_int32), ctypes.POINTER(_int32)]),
    "blurtool_scene_duration": (int, [_void, ctypes.POINTER(_double)]),
    "blurtool_scene_render": (int, [_void, _double, _buffer, _int32]),
    "blurtool_text_measure": (int, [ctypes.POINTER(Label), ctypes.POINTER(_double), ctypes.POINTER(_double)]),
    "blurtool_text_draw": (int, [ctypes.POINTER(Label), _buffer, _double, _double]),
    "blurtool_fill_path": (int, [_buffer, ctypes.c_char_p, ctypes.POINTER(_double), ctypes.POINTER(_double),
                                 ctypes.c_int, ctypes.c_char_p, _double, _int32]),
    "blurtool_stroke_path": (int, [_buffer, ctypes.c_char_p, ctypes.POINTER(_double), ctypes.POINTER(_double),
                                   ctypes.POINTER(Stroke), ctypes.c_char_p, _double, _int32]),
}
for _name, (_result, _arguments) in _SIGNATURES.items():
    try:
        _function = getattr(lib, _name)
    except AttributeError as error:
        raise ImportError(f"blurtool: the loaded library {lib._name!r} has no {_name}") from error
    _function.argtypes = _arguments
    if _result is int:
        _function.restype = ctypes.c_int
        _function.errcheck = _raise_on_failure
    else:
        _function.restype = _result

