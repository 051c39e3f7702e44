"""The exceptions of zkgpu, one per zkgpu::ErrorCode (include/zkgpu/status.hpp).

They live in Python, not in the C++ module, so each can also derive from the built-in exception a
caller would catch for that kind of problem (ValueError for bad input, MemoryError, RuntimeError).
The C++ module raises them with the library's own message.
"""


class Error(Exception):
    """Base class of every error zkgpu raises."""


class InvalidArgument(Error, ValueError):
    """Wrong dtype, shape, size or name; a value that is not canonical (>= p); an array on another device."""


class OutOfMemory(Error, MemoryError):
    """A host or GPU allocation failed, or the work does not fit the device memory budget."""


class Unavailable(Error, RuntimeError):
    """A backend that was asked for is not built or has no usable device (backend="cuda" without a GPU)."""


class CudaError(Error, RuntimeError):
    """Any other CUDA runtime failure."""


class Internal(Error, RuntimeError):
    """A bug in zkgpu (an unexpected C++ exception): please report the message."""
