"""numpy arrays as blurtool_buffer_t, and the checks on the plain values passed to C.

The library addresses a buffer as rows of packed RGBA bytes `stride` bytes apart, so any array whose rows are
packed (strides[1] == 4 and strides[2] == 1) is passed where it is, with its own row stride. Other layouts
(every other column, channels reversed, negative row strides) are copied to a contiguous array first; when the
library writes to such an array, it writes the copy, which is then copied back.
"""
import ctypes
import operator

import numpy as np

from ._capi import ALPHA_PREMULTIPLIED, ALPHA_STRAIGHT, Buffer, Rect


def rgba(array, name="array"):
    """`array` as an ndarray, checked to be H×W×4 uint8 RGBA with at least one pixel."""
    array = np.asarray(array)
    if array.dtype != np.uint8:
        raise TypeError(f"{name} must be a uint8 array (H×W×4 RGBA), not {array.dtype}")
    if array.ndim != 3 or array.shape[2] != 4:
        raise ValueError(f"{name} must have the shape (height, width, 4), not {array.shape}")
    if array.shape[0] < 1 or array.shape[1] < 1:
        raise ValueError(f"{name} has no pixels: {array.shape}")
    return array


def output(array, shape, name="out"):
    """A caller's array the library writes into, checked to be an ndarray (a list would be copied and the
    result lost), RGBA of `shape` and writable."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, not {type(array).__name__}")
    array = rgba(array, name)
    if array.shape != shape:
        raise ValueError(f"{name} must have the shape {shape}, not {array.shape}")
    if not array.flags.writeable:
        raise ValueError(f"{name} is read-only")
    return array


def _row_stride(array):
    """The bytes from one row to the next when the library can address `array` where it is, else None."""
    height, width = array.shape[:2]
    row, pixel, channel = array.strides
    # A side of length 1 has no meaningful stride (numpy may give it anything).
    if channel != 1 or (width > 1 and pixel != 4):
        return None
    if height == 1:
        return width * 4
    return row if row >= width * 4 else None


def alpha(premultiplied):
    """The blurtool_alpha_t of a `premultiplied` keyword."""
    return ALPHA_PREMULTIPLIED if premultiplied else ALPHA_STRAIGHT


def _buffer(array, stride, premultiplied):
    height, width = array.shape[:2]
    return Buffer(array.ctypes.data, width, height, stride, alpha(premultiplied))


def source(array, premultiplied):
    """A buffer the library reads, and the array it points into (keep it alive for the call)."""
    stride = _row_stride(array)
    if stride is None:
        array = np.ascontiguousarray(array)
        stride = array.shape[1] * 4
    return _buffer(array, stride, premultiplied), array


class destination:
    """A buffer the library writes (and may read) for the `with` block; written back into `array` after it when
    `array`'s layout needed a copy, and only when the block succeeded. (A class, not a generator: a Python call's
    cost over the C call's is counted in microseconds, and @contextmanager alone cost 3 of them.)"""

    __slots__ = ("array", "scratch", "buffer")

    def __init__(self, array, premultiplied):
        stride = _row_stride(array)
        self.array = array
        self.scratch = None
        if stride is None:
            self.scratch = np.ascontiguousarray(array)
            array, stride = self.scratch, array.shape[1] * 4
        self.buffer = _buffer(array, stride, premultiplied)

    def __enter__(self):
        return self.buffer

    def __exit__(self, failure, *_):
        if failure is None and self.scratch is not None:
            self.array[...] = self.scratch


def int32(value, name, bits=32):
    """An integer argument that fits the C int32_t (or int`bits`_t) it goes to: ctypes would silently wrap it."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None
    if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        raise ValueError(f"{name} must fit in {bits} bits, not {value}")
    return value


def threads(value):
    """A `threads` keyword: None is 0, one worker a core."""
    return 0 if value is None else int32(value, "threads")


def region(value):
    """A (x, y, width, height) keyword as a blurtool_rect_t, or None for the whole buffer."""
    if value is None:
        return None
    if len(value) != 4:
        raise ValueError(f"region must be (x, y, width, height), not {value!r}")
    return Rect(*(int32(number, f"region[{index}]") for index, number in enumerate(value)))


def region_shape(rect, array):
    """The (height, width, 4) shape of a region's result. Clamped to the array so that a region outside it is
    reported by the library (which checks the region before the destination) rather than by a huge allocation."""
    if rect is None:
        return array.shape
    height, width = array.shape[:2]
    return (min(max(rect.height, 0), height), min(max(rect.width, 0), width), 4)


def choice(value, table, name):
    """A named option's C enum value."""
    try:
        return table[value]
    except (KeyError, TypeError):
        raise ValueError(f"{name} must be one of {', '.join(map(repr, table))}, not {value!r}") from None


def c_string(value, name):
    """A str (or bytes) as NUL-terminated UTF-8; an embedded NUL would cut it short in C, so it is refused."""
    encoded = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    if b"\0" in encoded:
        raise ValueError(f"{name} contains a NUL character")
    return encoded


def doubles(values, count, name):
    """A sequence of `count` numbers as a C double array."""
    values = np.asarray(values, dtype=np.float64).ravel()
    if values.size != count:
        raise ValueError(f"{name} must have {count} numbers, not {values.size}")
    return (ctypes.c_double * count)(*values.tolist())
