"""BLS12-377 G1 multi-scalar multiplication (include/zkgpu/msm.hpp, docs/msm.md).

Points are arkworks' CanonicalSerialize encodings: compressed (48 bytes, x with the flags) or
uncompressed (96 bytes, x then y with the flags), validated as arkworks' Validate::Yes does (on the
curve, in G1). Scalars are integers < r, given as Python ints or as (n, 32) little-endian uint8
rows. Results are encoded points (bytes)."""

from __future__ import annotations

import numpy as np

from . import _core, _gpu
from ._arrays import backend as _backend, byte_rows, count
from ._errors import InvalidArgument

R = 0x12AB655E9A2CA55660B44D1E5C37B00159AA76FED00000010A11800000000001  # the order of G1
PRECOMPUTED_BYTES = 144  # one base in the MSM's mixed-adder twisted-Edwards form


def scalars_array(scalars) -> np.ndarray:
    """(n, 32) little-endian uint8 rows from a sequence of ints in [0, r) or such an array."""
    if isinstance(scalars, np.ndarray):
        return byte_rows(scalars, "scalars", 32)
    out = bytearray()
    for i, s in enumerate(scalars):
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise InvalidArgument(f"scalars[{i}] is a {type(s).__name__}, not an int")
        s = int(s)
        if not 0 <= s < R:
            raise InvalidArgument(f"scalars[{i}] is not in [0, r) (a canonical Fr element of BLS12-377)")
        out += s.to_bytes(32, "little")
    return np.frombuffer(bytes(out), dtype=np.uint8).reshape(-1, 32).copy()


def _points(points) -> np.ndarray:
    if isinstance(points, np.ndarray):
        return byte_rows(points, "points")
    items = list(points)
    return byte_rows(items, "points", len(items[0]) if items else 48)


class MsmBases:
    """Bases prepared once for repeated MSMs: validated, converted to the mixed-adder form, and
    after the first GPU MSM kept resident on the GPU until this object dies."""

    def __init__(self, points):
        self._bases = _core.msm_bases(_points(points))

    @property
    def size(self) -> int:
        return self._bases.size

    def __len__(self) -> int:
        return self._bases.size

    def msm(self, scalars, backend: str = "auto", compressed: bool = True) -> bytes:
        """sum_i scalars[i] * bases[i], encoded (48 bytes compressed, else 96)."""
        return self._bases.msm(scalars_array(scalars), bool(compressed), _backend(backend))

    def export(self) -> np.ndarray:
        """The bases in the mixed-adder form, (n, 144) uint8: copy them to the GPU for msm_device."""
        return self._bases.export()


def msm(points, scalars, backend: str = "auto", compressed: bool = True) -> bytes:
    """sum_i scalars[i] * points[i] on G1 (an empty batch is the identity), encoded (48 bytes
    compressed, else 96). points: an (n, 48) / (n, 96) uint8 array or a sequence of encodings."""
    return _core.msm(_points(points), scalars_array(scalars), bool(compressed), _backend(backend))


def msm_device(points, scalars, window_bits: int = 0, compressed: bool = True, stream=None) -> bytes:
    """The MSM of bases already on the GPU: points an (n, 144) uint8 GPU array of
    MsmBases.export() rows, scalars an (n, 32) uint8 GPU array of little-endian scalars < r (not
    checked on the device: a larger one gives a wrong sum, never a fault). Waits for the work queued
    on the stream (which may produce the inputs), then returns the encoded sum. window_bits: 0
    chooses from n, else 2..20."""
    p = _gpu.view(points, "points", 1, stream, False)
    s = _gpu.view(scalars, "scalars", 1, p.stream if stream is None else stream, False)
    if len(p.shape) != 2 or p.shape[1] != PRECOMPUTED_BYTES:
        raise InvalidArgument(f"points: shape {p.shape}, expected (n, {PRECOMPUTED_BYTES}) (MsmBases.export rows)")
    if tuple(s.shape) != (p.shape[0], 32):
        raise InvalidArgument(f"scalars: shape {s.shape}, expected ({p.shape[0]}, 32)")
    return _core.msm_device(p.ptr, s.ptr, p.shape[0], count(window_bits, "window_bits", 64), bool(compressed),
                            p.stream)
