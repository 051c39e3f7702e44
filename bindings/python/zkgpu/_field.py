"""BabyBear NTTs and low-degree extensions (include/zkgpu/ntt.hpp) on NumPy arrays of canonical
uint32 values, their device-pointer forms on GPU arrays, and the Montgomery conversions."""

from __future__ import annotations

import numpy as np

from . import _core, _gpu
from ._arrays import P, backend as _backend, count, field, field_scalar, log2_rows, matrix_shape, output
from ._errors import InvalidArgument

DEFAULT_COSET_SHIFT = 31  # Plonky3's default coset shift (the multiplicative generator)


def ntt(values, inverse: bool = False, shift: int = 1, backend: str = "auto", out=None):
    """The forward (or inverse) BabyBear NTT of each column of a (2^k,) or (2^k, cols) array.

    Plonky3's ``dft_batch`` contract: natural order in and out, forward maps coefficients to
    evaluations over ``shift * H`` (H the subgroup of order 2^k; shift=1 the plain DFT), inverse
    maps those evaluations back (scaled by 1/2^k). NumPy input: canonical uint32 values (other
    integer dtypes are range-checked and converted; non-contiguous arrays are copied); returns a
    new uint32 array of the same shape. A GPU array (CuPy, PyTorch, JAX, ...) gives a new array of
    its own library, transformed on the GPU on the array's stream (see ntt_device). out: a
    uint32 array of the same shape to write instead of a new one (may be values itself).
    """
    if _gpu.is_device_array(values):
        out = _gpu.copy_like(values)
        _require_below_p(out, "values")
        ntt_device(out, inverse=inverse, shift=shift)
        _gpu.hand_back(out)
        return out
    a = field(values, "values")
    rows, cols = matrix_shape(a)
    out = output(out, a.shape)
    _core.ntt_into(a, out, log2_rows(rows, "values"), cols, bool(inverse), field_scalar(shift, "shift"),
                   _backend(backend))
    return out


def coset_lde(evals, log_blowup: int, shift: int = DEFAULT_COSET_SHIFT, backend: str = "auto",
              out=None) -> np.ndarray:
    """Low-degree extension of evaluations over H (|H| = 2^k) to the coset shift * H' with
    |H'| = 2^(k + log_blowup): a (2^(k+log_blowup),) or (2^(k+log_blowup), cols) uint32 array,
    natural order (Plonky3's coset_lde_batch without the bit reversal)."""
    return _lde(_core.coset_lde_into, evals, log_blowup, shift, backend, "evals", out)


def lde_from_coeffs(coeffs, log_blowup: int, shift: int = 1, backend: str = "auto", out=None) -> np.ndarray:
    """Zero-pad 2^k coefficient rows to 2^(k+log_blowup) and evaluate over shift * H' (what WHIR does)."""
    return _lde(_core.lde_from_coeffs_into, coeffs, log_blowup, shift, backend, "coeffs", out)


def _lde(fn, values, log_blowup, shift, backend, what, out):
    a = field(values, what)
    rows, cols = matrix_shape(a)
    log_n = log2_rows(rows, what)
    log_blowup = count(log_blowup, "log_blowup", 28)
    if log_n + log_blowup > 27:
        raise InvalidArgument(f"log_blowup = {log_blowup}: need 0 <= log_blowup and k + log_blowup <= 27 (k = {log_n})")
    out = output(out, ((rows << log_blowup),) + a.shape[1:])
    fn(a, out, log_n, cols, log_blowup, field_scalar(shift, "shift"), _backend(backend))
    return out


def to_montgomery(values) -> np.ndarray:
    """Canonical values -> Montgomery words (x * 2^32 mod p): the layout of the device-pointer calls,
    of zkgpu's own buffers and of Plonky3's BabyBear. A new uint32 array of the same shape."""
    a = field(values, "values", ndim=tuple(range(0, 33)))
    out = np.empty_like(a)
    _core.to_montgomery_into(a, out)
    return out


def from_montgomery(words) -> np.ndarray:
    """Montgomery words -> canonical values (the inverse of to_montgomery)."""
    a = field(words, "words", ndim=tuple(range(0, 33)))
    out = np.empty_like(a)
    _core.from_montgomery_into(a, out)
    return out


def _require_below_p(arr, what: str) -> None:
    """Where the array library can compare on the device: every word < p (one reduction and one
    synchronisation; the *_device functions leave it to the caller)."""
    try:
        bad = bool((arr >= P).any())
    except Exception:  # a library without unsigned comparisons: the device calls do not check
        return
    if bad:
        raise InvalidArgument(f"{what}: a value is not a canonical BabyBear value (must be < p = {P})")


def _device_matrix(arr, what: str, stream, writable: bool):
    v = _gpu.view(arr, what, 4, stream, writable)
    if len(v.shape) not in (1, 2):
        raise InvalidArgument(f"{what}: expected a (2^k,) or (2^k, cols) GPU array, got shape {v.shape}")
    rows = v.shape[0]
    cols = 1 if len(v.shape) == 1 else v.shape[1]
    return v, rows, cols


def ntt_device(matrix, inverse: bool = False, shift: int = 1, stream=None) -> None:
    """The NTT of ntt() in place on a (2^k,) or (2^k, cols) uint32 GPU array, enqueued on the stream
    (see zkgpu._gpu: stream=, else the array library's current stream) without waiting.

    The transform is linear, so the words may be Montgomery words (the library's layout) or
    canonical values alike: each comes back in the form it went in. Words must be < p (not
    checked on the device)."""
    v, rows, cols = _device_matrix(matrix, "matrix", stream, True)
    _core.ntt_device(v.ptr, log2_rows(rows, "matrix"), cols, bool(inverse), field_scalar(shift, "shift"), v.stream)


def coset_lde_device(evals, out, log_blowup: int, shift: int = DEFAULT_COSET_SHIFT, stream=None) -> None:
    """coset_lde() from the GPU array evals (2^k rows) into the GPU array out (2^(k+log_blowup) rows,
    the same columns), enqueued on the stream; linear, so either word form works (as ntt_device)."""
    _lde_device(_core.coset_lde_device, evals, out, log_blowup, shift, stream, "evals")


def lde_from_coeffs_device(coeffs, out, log_blowup: int, shift: int = 1, stream=None) -> None:
    """lde_from_coeffs() from the GPU array coeffs into the GPU array out, enqueued on the stream."""
    _lde_device(_core.lde_from_coeffs_device, coeffs, out, log_blowup, shift, stream, "coeffs")


def _lde_device(fn, src, out, log_blowup, shift, stream, what):
    v, rows, cols = _device_matrix(src, what, stream, False)
    o, orows, ocols = _device_matrix(out, "out", v.stream if stream is None else stream, True)
    log_n = log2_rows(rows, what)
    log_blowup = count(log_blowup, "log_blowup", 28)
    if ocols != cols or orows != rows << log_blowup:
        raise InvalidArgument(f"out: shape {o.shape}, expected ({rows << log_blowup}, {cols})")
    fn(v.ptr, log_n, cols, log_blowup, field_scalar(shift, "shift"), o.ptr, v.stream)
