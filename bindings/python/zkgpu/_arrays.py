"""Checks and conversions at the edge of the package: every array is turned into exactly the layout
the C++ module reads (C-contiguous, uint32 or uint8, the expected shape) or refused with a message
naming the argument. Non-contiguous arrays are copied; other integer dtypes are converted after a
range check; floats, bools and objects are refused, so no value is ever misread.
"""

from __future__ import annotations

import numpy as np

from ._errors import InvalidArgument

P = 2013265921
BACKENDS = ("auto", "cpu", "cuda")


def backend(name: str) -> str:
    if name not in BACKENDS:
        raise InvalidArgument(f'backend {name!r} is not one of "auto", "cpu", "cuda"')
    return name


def field(values, what: str, ndim: tuple[int, ...] = (1, 2)) -> np.ndarray:
    """Canonical BabyBear values as a C-contiguous uint32 array (the range check < p is done in C++
    for uint32 input, here for wider dtypes, whose values must first fit in uint32)."""
    a = np.asarray(values)
    if a.dtype == np.uint32:
        pass
    elif a.dtype.kind in "ui":
        if a.size and (int(a.min()) < 0 or int(a.max()) >= P):
            bad = int(np.argmax((a < 0) | (a >= P)))
            raise InvalidArgument(
                f"{what}[{bad}] = {a.reshape(-1)[bad]} is not a canonical BabyBear value (must be in 0..p-1, "
                f"p = {P})"
            )
        a = a.astype(np.uint32)
    else:
        raise InvalidArgument(
            f"{what}: dtype {a.dtype} cannot hold field elements; pass uint32 canonical values (< p = {P})"
        )
    if a.ndim not in ndim:
        raise InvalidArgument(f"{what}: expected {' or '.join(f'{d}-D' for d in ndim)} array, got shape {a.shape}")
    return np.ascontiguousarray(a)


def byte_rows(values, what: str, width: int | None = None) -> np.ndarray:
    """A 2-D C-contiguous uint8 array (n, width): from such an array, or from a sequence of
    bytes-like items of one length."""
    if isinstance(values, np.ndarray) or hasattr(values, "__array_interface__"):
        a = np.asarray(values)
        if a.dtype != np.uint8:
            raise InvalidArgument(f"{what}: dtype {a.dtype} is not uint8 (bytes)")
        if a.ndim != 2:
            raise InvalidArgument(f"{what}: expected an (n, {width or 'size'}) uint8 array, got shape {a.shape}")
        if width is not None and a.shape[1] != width:
            raise InvalidArgument(f"{what}: rows of {a.shape[1]} bytes, expected {width}")
        return np.ascontiguousarray(a)
    items = [_bytes(v, what, i) for i, v in enumerate(values)]
    w = width if width is not None else (len(items[0]) if items else 0)
    for i, b in enumerate(items):
        if len(b) != w:
            raise InvalidArgument(f"{what}[{i}] has {len(b)} bytes, expected {w}")
    return np.frombuffer(b"".join(items), dtype=np.uint8).reshape(len(items), w).copy()


def byte_items(values, what: str):
    """Per-item byte strings for the C++ module: a 2-D uint8 array (used in place) or a list of
    bytes-like objects (held by the module, not copied)."""
    if isinstance(values, np.ndarray):
        if values.dtype != np.uint8 or values.ndim != 2:
            raise InvalidArgument(f"{what}: an array of items must be 2-D uint8 (n, bytes), got {values.dtype} "
                                  f"{values.shape}")
        return np.ascontiguousarray(values)
    if isinstance(values, (bytes, bytearray, str)):
        raise InvalidArgument(f"{what}: expected a sequence of items, got a single {type(values).__name__}")
    return values if isinstance(values, (list, tuple)) else list(values)


def _bytes(v, what: str, i: int) -> bytes:
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        raise InvalidArgument(f"{what}[{i}] is a str, not a bytes-like object")
    try:
        return bytes(memoryview(v))
    except TypeError:
        raise InvalidArgument(f"{what}[{i}] is a {type(v).__name__}, not a bytes-like object") from None


def log2_rows(rows: int, what: str) -> int:
    if rows < 1 or rows & (rows - 1):
        raise InvalidArgument(f"{what}: {rows} rows is not a power of two")
    return rows.bit_length() - 1


def matrix_shape(a: np.ndarray) -> tuple[int, int]:
    """(rows, cols) of a (rows,) or (rows, cols) array."""
    return (a.shape[0], 1) if a.ndim == 1 else (a.shape[0], a.shape[1])


def field_scalar(value, what: str) -> int:
    """One canonical BabyBear value given as a Python int (a shift, say)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidArgument(f"{what}: expected an int, got {type(value).__name__}")
    if not 0 <= int(value) < P:
        raise InvalidArgument(f"{what} = {value} is not a canonical BabyBear value (must be in 0..p-1, p = {P})")
    return int(value)


def count(value, what: str, limit: int = 1 << 32) -> int:
    """A non-negative int argument below limit."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) < limit:
        raise InvalidArgument(f"{what} = {value!r}: expected an int in 0..{limit - 1}")
    return int(value)


def output(out, shape: tuple, what: str = "out") -> np.ndarray:
    """A caller's output array: exactly uint32, C-contiguous, writable and of this shape (an
    output is written in place, so it is never copied or converted)."""
    if out is None:
        return np.empty(shape, dtype=np.uint32)
    if not isinstance(out, np.ndarray) or out.dtype != np.uint32 or not out.flags.c_contiguous \
            or not out.flags.writeable:
        raise InvalidArgument(f"{what}: must be a writable C-contiguous uint32 NumPy array")
    if out.shape != tuple(shape):
        raise InvalidArgument(f"{what}: shape {out.shape}, expected {tuple(shape)}")
    return out
