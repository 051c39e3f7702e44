//! Safe Rust bindings to zkgpu, over its C ABI (`include/zkgpu.h`).
//!
//! Every call returns `Result<_, zkgpu::Error>`; nothing panics on bad input (wrong lengths and
//! shapes are `ErrorKind::InvalidArgument`). Each operation takes a [`Backend`]: `Cpu` (always
//! built), `Cuda` (an error when the library has no CUDA backend or no GPU is usable) or `Auto`
//! (the GPU above the operation's measured crossover, the CPU below).
//!
//! The library is found at build time with `pkg-config --libs zkgpu` (set `PKG_CONFIG_PATH` to
//! `<prefix>/lib/pkgconfig`; `ZKGPU_STATIC=1` links `libzkgpu.a`). See docs/rust.md.
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;
use std::fmt;
use std::ptr::NonNull;

/// `$ty { f: $src.f, .. }` for the fields a safe struct shares, by name and type, with the C
/// struct `$src`, then the fields given as `g: expr`.
macro_rules! copy_fields {
    ($src:ident => $ty:ident { $($f:ident),+ $(; $($g:ident: $e:expr),+)? $(,)? }) => {
        $ty { $($f: $src.$f,)+ $($($g: $e,)+)? }
    };
}

mod error;
pub mod sys;

pub mod babybear;
pub mod ed25519;
pub mod merkle;
pub mod mldsa;
pub mod mlkem;
pub mod msm;
pub mod whir;

pub use error::{Error, ErrorKind};

/// Where an operation runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The GPU when one is usable and the work is at least the operation's crossover, else the CPU.
    #[default]
    Auto,
    Cpu,
    /// The GPU; `ErrorKind::Unavailable` without the CUDA backend or a usable device.
    Cuda,
}

impl Backend {
    pub(crate) fn raw(self) -> sys::zkgpu_backend {
        match self {
            Backend::Auto => sys::ZKGPU_BACKEND_AUTO,
            Backend::Cpu => sys::ZKGPU_BACKEND_CPU,
            Backend::Cuda => sys::ZKGPU_BACKEND_CUDA,
        }
    }
}

/// The library's version string (`zkgpu_version()`), e.g. "0.1.0".
pub fn version() -> &'static str {
    // SAFETY: zkgpu_version returns a pointer to a static NUL-terminated string.
    let c = unsafe { std::ffi::CStr::from_ptr(sys::zkgpu_version()) };
    c.to_str().unwrap_or("")
}

/// Whether the library has the CUDA backend and a usable GPU answers (`zkgpu_cuda_usable`).
pub fn cuda_usable() -> bool {
    // SAFETY: no arguments; cannot fail.
    unsafe { sys::zkgpu_cuda_usable() == 1 }
}

/// Frees the GPU memory zkgpu keeps between calls (call it when no zkgpu call is in flight);
/// handles the caller owns are not touched.
pub fn release_gpu_caches() -> Result<(), Error> {
    // SAFETY: no arguments.
    Error::check(unsafe { sys::zkgpu_release_gpu_caches() })
}

/// The outcome of one item of an ML-KEM or ML-DSA batch (a bad item never fails the call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemStatus {
    Ok,
    /// Rejected: wrong length, ek not reduced mod q, dk hash mismatch, context over 255 bytes, ...
    InvalidInput,
}

impl ItemStatus {
    fn from_raw(v: u8) -> ItemStatus {
        if v == sys::ZKGPU_PQ_OK {
            ItemStatus::Ok
        } else {
            ItemStatus::InvalidInput
        }
    }
}

/// The number of `size`-byte items packed in `buf`, which must be `expect` when given.
pub(crate) fn item_count(
    what: &str,
    name: &str,
    buf: &[u8],
    size: usize,
    expect: Option<usize>,
) -> Result<usize, Error> {
    if size == 0 || !buf.len().is_multiple_of(size) {
        return Err(Error::invalid(format!(
            "{what}: {} bytes of {name} are not whole {size}-byte items",
            buf.len()
        )));
    }
    let n = buf.len() / size;
    match expect {
        Some(e) if e != n => Err(Error::invalid(format!(
            "{what}: {n} items of {name} for {e} items"
        ))),
        _ => Ok(n),
    }
}

pub(crate) fn item_statuses(raw: Vec<u8>) -> Vec<ItemStatus> {
    raw.into_iter().map(ItemStatus::from_raw).collect()
}

/// Pointer and length arrays of one byte-slice field of every item, as the C ABI's batches take
/// them (the slices stay borrowed through `items`).
pub(crate) fn item_views<'a, T>(
    items: &'a [T],
    field: impl Fn(&'a T) -> &'a [u8],
) -> (Vec<*const u8>, Vec<usize>) {
    items
        .iter()
        .map(field)
        .map(|s| (s.as_ptr(), s.len()))
        .unzip()
}

/// `true` for each verdict byte that is 1 (the C ABI's "valid" / "accepted").
pub(crate) fn verdicts(raw: Vec<u8>) -> Vec<bool> {
    raw.into_iter().map(|v| v == 1).collect()
}

/// A zeroed buffer of `len` elements that `write` (a C call given its pointer) fills.
pub(crate) fn written<T: Copy + Default>(
    len: usize,
    write: impl FnOnce(*mut T) -> sys::zkgpu_status,
) -> Result<Vec<T>, Error> {
    let mut out = vec![T::default(); len];
    Error::check(write(out.as_mut_ptr()))?;
    Ok(out)
}

/// The handle a C constructor stores through its out pointer; `null` is the Internal error's
/// message for a constructor that reports success and leaves the handle null.
pub(crate) fn created<T>(
    null: &'static str,
    create: impl FnOnce(*mut *mut T) -> sys::zkgpu_status,
) -> Result<NonNull<T>, Error> {
    let mut raw = std::ptr::null_mut();
    Error::check(create(&mut raw))?;
    NonNull::new(raw).ok_or_else(|| Error::new(ErrorKind::Internal, null))
}

/// What a `zkgpu_*_sizes_of` writes for the parameter set `set`; it cannot fail for a set of
/// the crate's enums (`what` names the call in the panic message if it does).
pub(crate) fn sizes_of<S: Default>(
    sizes_of: unsafe extern "C" fn(c_int, *mut S) -> sys::zkgpu_status,
    set: c_int,
    what: fmt::Arguments<'_>,
) -> S {
    let mut s = S::default();
    // SAFETY: a valid set and out pointer.
    let status = unsafe { sizes_of(set, &mut s) };
    assert_eq!(status, sys::ZKGPU_OK, "{what}");
    s
}

/// KeyGen over `seeds` packed at `seed_bytes` each: both keys of every item, packed at
/// `key_bytes`, which `call(n, first_keys, second_keys)` writes (into buffers of n keys each).
pub(crate) fn keygen(
    what: &str,
    seeds: &[u8],
    seed_bytes: usize,
    key_bytes: [usize; 2],
    call: impl FnOnce(usize, *mut u8, *mut u8) -> sys::zkgpu_status,
) -> Result<[Vec<u8>; 2], Error> {
    let n = item_count(what, "seeds", seeds, seed_bytes, None)?;
    let [mut a, mut b] = key_bytes.map(|size| vec![0u8; n * size]);
    Error::check(call(n, a.as_mut_ptr(), b.as_mut_ptr()))?;
    Ok([a, b])
}
