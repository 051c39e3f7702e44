"""GPU arrays of any library (CuPy, PyTorch, JAX, Numba, ...) as a pointer, a shape and a stream for
the library's device-pointer calls, used in place.

An array is taken through DLPack (``__dlpack__``, the array API standard) when it has it, else
through ``__cuda_array_interface__`` (version 2 or 3). The stream the work is enqueued on is, in
this order: the ``stream=`` argument (an int handle, a ``cupy.cuda.Stream``, a ``torch.cuda.Stream``
or anything with ``.ptr`` / ``.cuda_stream``), the array library's current stream (CuPy, PyTorch),
the array's ``__cuda_array_interface__`` "stream" (v3), else the legacy default stream. Through
DLPack the producer is asked (``__dlpack__(stream=...)``) to make the data ready on that stream;
through ``__cuda_array_interface__`` alone, when the array's v3 stream is another one, an event
makes the stream wait for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _core
from ._errors import InvalidArgument

_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13
_DL_UINT = 1
_TYPESTR = {"<u4": 4, "|u1": 1, "<u1": 1}


@dataclass
class DeviceArray:
    """One GPU array for one call: keep it (it holds the owner) until the call has returned."""

    ptr: int
    shape: tuple[int, ...]
    itemsize: int
    stream: int
    device: int | None
    owner: Any

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


def is_device_array(obj) -> bool:
    """Whether obj is GPU memory this module takes (DLPack CUDA / managed, or CAI)."""
    if hasattr(obj, "__cuda_array_interface__"):
        return True
    dev = getattr(obj, "__dlpack_device__", None)
    if dev is None:
        return False
    try:
        return dev()[0] in (_DL_CUDA, _DL_CUDA_MANAGED)
    except Exception:
        return False


def stream_handle(obj, stream) -> int:
    """The cudaStream_t (as an int; 0 = legacy default) the work on obj is enqueued on."""
    if stream is not None:
        return _as_handle(stream)
    top = type(obj).__module__.split(".")[0]
    if top == "cupy":
        import cupy

        return int(cupy.cuda.get_current_stream().ptr)
    if top == "torch":
        import torch

        return int(torch.cuda.current_stream(obj.device).cuda_stream)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None and cai.get("stream") is not None:
        return _cai_stream(cai["stream"])
    return 0


def _as_handle(stream) -> int:
    for attr in ("ptr", "cuda_stream", "handle"):
        if hasattr(stream, attr):
            return int(getattr(stream, attr))
    if isinstance(stream, int) and stream >= 0:
        return stream
    raise InvalidArgument(f"stream: expected a CUDA stream handle (int >= 0) or a stream object, got {stream!r}")


def _cai_stream(s: int) -> int:
    # CAI v3: 1 is the legacy default stream (handle 0), 2 the per-thread default (handle 2).
    if s == 0:
        raise InvalidArgument("__cuda_array_interface__ stream 0 is disallowed by the protocol (ambiguous)")
    return 0 if s == 1 else int(s)


def view(obj, what: str, itemsize: int, stream, writable: bool) -> DeviceArray:
    """obj as a C-contiguous GPU array of unsigned itemsize-byte words; InvalidArgument otherwise."""
    handle = stream_handle(obj, stream)
    _check_current_device(obj, what)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(obj, what, itemsize, handle)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is None:
        raise InvalidArgument(f"{what}: {type(obj).__name__} is not a GPU array (no __dlpack__ or "
                              "__cuda_array_interface__)")
    return _from_cai(obj, cai, what, itemsize, handle, stream is not None, writable)


def _from_dlpack(obj, what, itemsize, handle) -> DeviceArray:
    dev = getattr(obj, "__dlpack_device__", None)
    if dev is not None and dev()[0] not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise InvalidArgument(f"{what}: the array is not in GPU memory (DLPack device type {dev()[0]}); "
                              "host arrays go to the functions without _device")
    dl_stream = 1 if handle == 0 else handle  # DLPack: 1 is the legacy default stream; 0 is disallowed
    try:
        capsule = obj.__dlpack__(stream=dl_stream)
    except TypeError:  # a producer without the stream keyword
        capsule = obj.__dlpack__()
    ptr, shape, strides, code, bits, lanes, dev_type, dev_id = _core.dlpack_view(capsule)
    if dev_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise InvalidArgument(f"{what}: the array is not in GPU memory (DLPack device type {dev_type}); "
                              "host arrays go to the functions without _device")
    if code != _DL_UINT or bits != 8 * itemsize or lanes != 1:
        raise InvalidArgument(f"{what}: dtype (code {code}, {bits} bits) is not uint{8 * itemsize}")
    _require_contiguous(shape, strides, 1, what)
    return DeviceArray(ptr, tuple(shape), itemsize, handle, dev_id, (obj, capsule))


def _from_cai(obj, cai, what, itemsize, handle, explicit, writable) -> DeviceArray:
    if _TYPESTR.get(cai["typestr"]) != itemsize:
        raise InvalidArgument(f"{what}: typestr {cai['typestr']} is not uint{8 * itemsize}")
    ptr, readonly = cai["data"]
    if writable and readonly:
        raise InvalidArgument(f"{what}: the array is read-only")
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    if strides is not None:
        _require_contiguous(shape, tuple(s // itemsize for s in strides), 1, what)
    s = cai.get("stream")
    if explicit and s is not None and _cai_stream(s) != handle:
        _core.stream_wait(handle, _cai_stream(s))  # the work on `handle` starts after the producer's
    return DeviceArray(int(ptr or 0), shape, itemsize, handle, None, obj)


def _require_contiguous(shape, strides, elem, what) -> None:
    expect = elem
    for dim, st in zip(reversed(shape), reversed(strides)):
        if dim > 1 and st != expect:
            raise InvalidArgument(f"{what}: the array is not C-contiguous (strides {tuple(strides)}); "
                                  "a GPU array is used in place, so make it contiguous first")
        expect *= dim


def _check_current_device(obj, what) -> None:
    """Where the array library can say it: the array must be on the current device (the library
    checks every pointer itself too, through cudaPointerGetAttributes)."""
    top = type(obj).__module__.split(".")[0]
    if top == "cupy":
        import cupy

        cur, dev = cupy.cuda.runtime.getDevice(), obj.device.id
    elif top == "torch":
        import torch

        cur, dev = torch.cuda.current_device(), obj.device.index
    else:
        return
    if dev != cur:
        raise InvalidArgument(f"{what}: the array is on GPU {dev}, the current device is GPU {cur} "
                              "(switch with cupy.cuda.Device / torch.cuda.device, or move the array)")


def hand_back(obj) -> None:
    """Before a new GPU array made by zkgpu goes back to its library: CuPy and PyTorch read it on
    the stream the work ran on (their current one, or stream= which the caller orders), so
    nothing is needed; any other library (JAX, Numba, ...) gets it after the stream has finished."""
    top = type(obj).__module__.split(".")[0]
    if top not in ("cupy", "torch"):
        _core.stream_synchronize(stream_handle(obj, None))


def copy_like(obj):
    """A new GPU array of obj's library holding a copy of obj (for the calls that return new arrays)."""
    top = type(obj).__module__.split(".")[0]
    if top == "torch":
        return obj.clone()
    if hasattr(obj, "copy"):
        return obj.copy()
    ns = getattr(obj, "__array_namespace__", None)
    if ns is not None:
        return ns().asarray(obj, copy=True)
    raise InvalidArgument(f"{type(obj).__name__}: cannot make a copy of this GPU array; use the *_device "
                          "function, which works in place")
