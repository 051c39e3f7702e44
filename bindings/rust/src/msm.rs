//! Multi-scalar multiplication on BLS12-377 G1: `sum_i s_i * P_i`.
//!
//! Points are arkworks `CanonicalSerialize` bytes (`Compressed`: x with the flags, 48 bytes;
//! `Uncompressed`: x then y, 96 bytes), validated as arkworks' `Validate::Yes` does, packed back
//! to back. Scalars are 32-byte little-endian integers `< r` (arkworks' `Fr` serialization),
//! packed back to back; the number of scalars is the number of points.
use std::ptr::NonNull;

use crate::{sys, Backend, Error};

pub const SCALAR_BYTES: usize = sys::ZKGPU_SCALAR_BYTES;
/// The bytes of one base in the MSM's mixed-adder twisted-Edwards form ([`Bases::export`]).
pub const PRECOMPUTED_BYTES: usize = sys::ZKGPU_MSM_PRECOMPUTED_BYTES;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// 48 bytes: x, little-endian, with the y-sign and infinity flags in the top bits.
    #[default]
    Compressed,
    /// 96 bytes: x, then y with the flags.
    Uncompressed,
}

impl Encoding {
    pub fn point_bytes(self) -> usize {
        match self {
            Encoding::Compressed => sys::ZKGPU_G1_COMPRESSED_BYTES,
            Encoding::Uncompressed => sys::ZKGPU_G1_UNCOMPRESSED_BYTES,
        }
    }
    fn raw(self) -> sys::zkgpu_g1_encoding {
        match self {
            Encoding::Compressed => sys::ZKGPU_G1_COMPRESSED,
            Encoding::Uncompressed => sys::ZKGPU_G1_UNCOMPRESSED,
        }
    }
}

fn scalar_count(what: &str, scalars: &[u8]) -> Result<usize, Error> {
    if !scalars.len().is_multiple_of(SCALAR_BYTES) {
        return Err(Error::invalid(format!(
            "{what}: {} scalar bytes are not whole 32-byte scalars",
            scalars.len()
        )));
    }
    Ok(scalars.len() / SCALAR_BYTES)
}

/// `sum_i scalars[i] * points[i]`, encoded in `encoding` (the encoding of `points` too). No
/// points gives the identity.
pub fn msm(
    points: &[u8],
    scalars: &[u8],
    encoding: Encoding,
    backend: Backend,
) -> Result<Vec<u8>, Error> {
    let n = scalar_count("msm::msm", scalars)?;
    if points.len() != n * encoding.point_bytes() {
        return Err(Error::invalid(format!(
            "msm::msm: {} point bytes for {n} scalars ({} bytes a point)",
            points.len(),
            encoding.point_bytes()
        )));
    }
    // SAFETY: points holds n encoded points, scalars n * 32 bytes, out one encoded point.
    crate::written(encoding.point_bytes(), |out| unsafe {
        sys::zkgpu_msm(
            points.as_ptr(),
            scalars.as_ptr(),
            n,
            encoding.raw(),
            backend.raw(),
            out,
        )
    })
}

/// Bases prepared once for repeated MSMs (kept on the GPU after the first GPU MSM). Freed on drop.
pub struct Bases {
    raw: NonNull<sys::zkgpu_msm_bases>,
    len: usize,
}

// SAFETY: zkgpu.h: handles are immutable after creation and may be used from several threads at
// once (the GPU copy is made under the library's own lock).
unsafe impl Send for Bases {}
unsafe impl Sync for Bases {}

impl Bases {
    /// Validates and prepares `points` (packed in `encoding`).
    pub fn new(points: &[u8], encoding: Encoding) -> Result<Bases, Error> {
        let size = encoding.point_bytes();
        if !points.len().is_multiple_of(size) {
            return Err(Error::invalid(format!(
                "msm::Bases::new: {} bytes are not whole {size}-byte points",
                points.len()
            )));
        }
        let n = points.len() / size;
        // SAFETY: points holds n encoded points; the handle comes back through the out pointer.
        let raw = crate::created("zkgpu_msm_bases_create: null bases", |out| unsafe {
            sys::zkgpu_msm_bases_create(points.as_ptr(), n, encoding.raw(), out)
        })?;
        Ok(Bases { raw, len: n })
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `sum_i scalars[i] * bases[i]` in `encoding`; one scalar per base.
    pub fn msm(
        &self,
        scalars: &[u8],
        encoding: Encoding,
        backend: Backend,
    ) -> Result<Vec<u8>, Error> {
        let n = scalar_count("msm::Bases::msm", scalars)?;
        if n != self.len {
            return Err(Error::invalid(format!(
                "msm::Bases::msm: {n} scalars for {} bases",
                self.len
            )));
        }
        // SAFETY: scalars holds n * 32 bytes, out one encoded point.
        crate::written(encoding.point_bytes(), |out| unsafe {
            sys::zkgpu_msm_with_bases(
                self.raw.as_ptr(),
                scalars.as_ptr(),
                n,
                encoding.raw(),
                backend.raw(),
                out,
            )
        })
    }

    /// The bases in the mixed-adder form, `PRECOMPUTED_BYTES` each: what the device-pointer MSM
    /// reads from GPU memory.
    pub fn export(&self) -> Result<Vec<u8>, Error> {
        let len = self.len * PRECOMPUTED_BYTES;
        // SAFETY: out holds len * 144 bytes, the length passed.
        crate::written(len, |out| unsafe {
            sys::zkgpu_msm_bases_export(self.raw.as_ptr(), out, len)
        })
    }
}

impl Drop for Bases {
    fn drop(&mut self) {
        // SAFETY: from zkgpu_msm_bases_create, freed once.
        unsafe { sys::zkgpu_msm_bases_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Bases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bases").field("len", &self.len).finish()
    }
}
