//! The one error type of the crate: the C ABI's `zkgpu_status` plus its thread-local message.
use std::ffi::CStr;
use std::fmt;

use crate::sys;

/// What went wrong, as the C ABI's `zkgpu_status` says (every value but `ZKGPU_OK`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Wrong sizes, a wrong matrix shape, non-canonical values, malformed input.
    InvalidArgument,
    /// A host or GPU allocation failed.
    OutOfMemory,
    /// The backend asked for is not built or has no usable device.
    Unavailable,
    /// Any other CUDA runtime failure.
    CudaError,
    /// A bug in zkgpu, or a status this crate does not know (a newer library).
    Internal,
}

impl ErrorKind {
    fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidArgument => "invalid argument",
            ErrorKind::OutOfMemory => "out of memory",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::CudaError => "CUDA error",
            ErrorKind::Internal => "internal error",
        }
    }
}

/// A failed call: the status kind and the message zkgpu gave (`zkgpu_last_error()`), or one this
/// crate wrote for checks it does before calling into C.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    pub fn message(&self) -> &str {
        &self.message
    }

    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidArgument, message)
    }

    /// Turns a status into Ok or an Error carrying the C side's message. Must be called on the
    /// thread that made the call, right after it: the message is thread-local and the next call
    /// overwrites it.
    pub(crate) fn check(status: sys::zkgpu_status) -> Result<(), Error> {
        let kind = match status {
            sys::ZKGPU_OK => return Ok(()),
            sys::ZKGPU_INVALID_ARGUMENT => ErrorKind::InvalidArgument,
            sys::ZKGPU_OUT_OF_MEMORY => ErrorKind::OutOfMemory,
            sys::ZKGPU_UNAVAILABLE => ErrorKind::Unavailable,
            sys::ZKGPU_CUDA_ERROR => ErrorKind::CudaError,
            _ => ErrorKind::Internal,
        };
        let mut message = last_error();
        if kind == ErrorKind::Internal && status != sys::ZKGPU_INTERNAL {
            message = format!("unknown zkgpu_status {status}: {message}");
        }
        Err(Error { kind, message })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "zkgpu: {}", self.kind.as_str())
        } else {
            write!(f, "zkgpu: {}: {}", self.kind.as_str(), self.message)
        }
    }
}

impl std::error::Error for Error {}

/// `zkgpu_last_error()`, copied: the C string lives in thread-local storage that the next call
/// on this thread overwrites.
fn last_error() -> String {
    // SAFETY: zkgpu_last_error takes no arguments and returns null or a NUL-terminated string
    // valid until the next zkgpu call on this thread; it is copied before any other call.
    unsafe {
        let p = sys::zkgpu_last_error();
        if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    }
}
