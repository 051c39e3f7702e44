//! BabyBear (p = 2^31 - 2^27 + 1) transforms and Poseidon2 over `u32` words, in Plonky3's layout.
//!
//! A matrix is a `&[u32]` of `height * width` words, row-major, each column a polynomial (or its
//! evaluations) in natural order: the `values` of Plonky3's `RowMajorMatrix<BabyBear>`, whose
//! `width` is passed alongside. Plonky3's `BabyBear` is `#[repr(transparent)]` over the
//! Montgomery word `x * 2^32 mod p`, so `Repr::Montgomery` takes its values as they lie in
//! memory; `Repr::Canonical` takes the integers `x < p`. Every word must be `< p` in either form.
//!
//! Correspondence with Plonky3's `TwoAdicSubgroupDft` (p3-dft), for a matrix of height `2^k`:
//!
//! | zkgpu                                              | Plonky3                                      |
//! |----------------------------------------------------|----------------------------------------------|
//! | `ntt(m, w, Direction::Forward, ..)`                 | `dft_batch(m)`                               |
//! | `ntt(m, w, Direction::Inverse, ..)`                 | `idft_batch(m)`                              |
//! | `coset_ntt(m, w, Direction::Forward, shift, ..)`    | `coset_dft_batch(m, shift)`                  |
//! | `coset_ntt(m, w, Direction::Inverse, shift, ..)`    | `coset_idft_batch(m, shift)`                 |
//! | `coset_lde(m, w, bits, shift, ..)`                  | `coset_lde_batch(m, bits, shift)`, natural order |
//! | `lde_from_coeffs(m, w, bits, shift, ..)`            | `coset_dft_batch(m.pad_to_height(h << bits), shift)` |
//!
//! "Natural order": row `i` is the evaluation at `shift * w^i`. Plonky3's DFTs return
//! `Self::Evaluations`, which reads in natural order for every implementation (`Radix2Dit` and
//! `NaiveDft` return a `RowMajorMatrix`; `Radix2DitParallel` a `BitReversedMatrixView` whose
//! storage is bit-reversed but whose rows read in natural order): its `.to_row_major_matrix()`
//! holds the words zkgpu writes. zkgpu never leaves its output bit-reversed.
use std::ffi::CStr;

use crate::{sys, Backend, Error};

/// The BabyBear prime.
pub const P: u32 = sys::ZKGPU_BABYBEAR_P;
/// The largest `k` of a transform of height `2^k` (BabyBear's two-adicity).
pub const MAX_LOG_HEIGHT: u32 = 27;
/// Plonky3's default coset shift (`BabyBear::GENERATOR`, canonical value).
pub const GENERATOR: u32 = 31;

/// How a `u32` holds a field element.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Repr {
    /// The integer `x < p`.
    #[default]
    Canonical,
    /// The Montgomery word `x * 2^32 mod p`: Plonky3's `BabyBear` in memory.
    Montgomery,
}

impl Repr {
    pub(crate) fn raw(self) -> sys::zkgpu_babybear_repr {
        match self {
            Repr::Canonical => sys::ZKGPU_BABYBEAR_CANONICAL,
            Repr::Montgomery => sys::ZKGPU_BABYBEAR_MONTGOMERY,
        }
    }

    /// The word of the canonical value `x < p` in this representation (e.g. a coset shift).
    pub fn encode(self, x: u32) -> u32 {
        match self {
            Repr::Canonical => x,
            Repr::Montgomery => ((u64::from(x) << 32) % u64::from(P)) as u32,
        }
    }

    /// The canonical value of a word `< p` in this representation.
    pub fn decode(self, w: u32) -> u32 {
        match self {
            Repr::Canonical => w,
            // w * 2^-32 mod p; 2^-32 = 943718400 mod p.
            Repr::Montgomery => ((u64::from(w) * 943_718_400) % u64::from(P)) as u32,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Coefficients -> evaluations: `E[i][c] = sum_j M[j][c] * (shift * w^i)^j`, `w` the
    /// generator of the subgroup of order `height` (Plonky3's `two_adic_generator(k)`).
    Forward,
    /// Those evaluations -> coefficients (scaled by 1/height).
    Inverse,
}

/// The height of a `values.len() / width` matrix and its log2, or InvalidArgument naming what is
/// wrong. The C ABI takes no buffer length, so this check is what keeps its reads in bounds.
fn shape(what: &str, len: usize, width: usize) -> Result<(usize, u32), Error> {
    if width == 0 {
        return Err(Error::invalid(format!("{what}: width 0")));
    }
    if !len.is_multiple_of(width) {
        return Err(Error::invalid(format!(
            "{what}: {len} words are not a whole number of rows of width {width}"
        )));
    }
    let height = len / width;
    if !height.is_power_of_two() {
        return Err(Error::invalid(format!(
            "{what}: height {height} (= {len} / {width}) is not a power of two"
        )));
    }
    Ok((height, height.trailing_zeros()))
}

/// Transforms each column of the row-major `values` (height `values.len() / width`, a power of
/// two up to 2^27) in place: `Forward` equals Plonky3's `dft_batch`, `Inverse` its `idft_batch`.
pub fn ntt(
    values: &mut [u32],
    width: usize,
    direction: Direction,
    repr: Repr,
    backend: Backend,
) -> Result<(), Error> {
    coset_ntt(values, width, direction, repr.encode(1), repr, backend)
}

/// The transform over the coset `shift * H` (`shift` a nonzero word in `repr`): `Forward`
/// equals Plonky3's `coset_dft_batch(m, shift)`, `Inverse` its `coset_idft_batch(m, shift)`.
pub fn coset_ntt(
    values: &mut [u32],
    width: usize,
    direction: Direction,
    shift: u32,
    repr: Repr,
    backend: Backend,
) -> Result<(), Error> {
    let (_, log_n) = shape("babybear::ntt", values.len(), width)?;
    let dir = match direction {
        Direction::Forward => sys::ZKGPU_NTT_FORWARD,
        Direction::Inverse => sys::ZKGPU_NTT_INVERSE,
    };
    // SAFETY: values holds exactly (1 << log_n) * width words (checked by shape).
    Error::check(unsafe {
        sys::zkgpu_ntt(
            values.as_mut_ptr(),
            log_n,
            width,
            dir,
            shift,
            repr.raw(),
            backend.raw(),
        )
    })
}

fn lde_out_len(what: &str, height: usize, width: usize, log_blowup: u32) -> Result<usize, Error> {
    let too_big = || {
        Error::invalid(format!(
            "{what}: height {height} << {log_blowup} exceeds 2^{MAX_LOG_HEIGHT}"
        ))
    };
    if log_blowup > MAX_LOG_HEIGHT {
        return Err(too_big());
    }
    let out_height = height
        .checked_shl(log_blowup)
        .filter(|&h| h <= 1 << MAX_LOG_HEIGHT)
        .ok_or_else(too_big)?;
    out_height.checked_mul(width).ok_or_else(too_big)
}

/// The LDEs: one signature and one body, over their own C entry points (`what` names the
/// function in errors).
macro_rules! lde_fns {
    ($($(#[$doc:meta])* pub fn $name:ident($input:ident) => $c_fn:ident;)+) => {$(
        $(#[$doc])*
        pub fn $name(
            $input: &[u32],
            width: usize,
            log_blowup: u32,
            shift: u32,
            repr: Repr,
            backend: Backend,
        ) -> Result<Vec<u32>, Error> {
            let what = concat!("babybear::", stringify!($name));
            let (height, log_n) = shape(what, $input.len(), width)?;
            let len = lde_out_len(what, height, width, log_blowup)?;
            // SAFETY: the input holds 2^log_n * width words, out (a fresh buffer, no overlap)
            // holds 2^(log_n + log_blowup) * width.
            crate::written(len, |out| unsafe {
                sys::$c_fn($input.as_ptr(), log_n, width, log_blowup, shift, repr.raw(),
                    backend.raw(), out)
            })
        }
    )+};
}

lde_fns! {
    /// Low-degree extension of evaluations over `H` (height `2^k`) to the coset `shift * H'` with
    /// `|H'| = 2^(k + log_blowup)`: Plonky3's `coset_lde_batch(m, log_blowup, shift)` in natural
    /// order. Returns the `(height << log_blowup) x width` matrix.
    pub fn coset_lde(evals) => zkgpu_coset_lde;

    /// The LDE from coefficients (what WHIR commits to): zero-pad the rows to `height << log_blowup`
    /// and evaluate over `shift * H'`, i.e. Plonky3's `coset_dft_batch` of the padded matrix.
    pub fn lde_from_coeffs(coeffs) => zkgpu_lde_from_coeffs;
}

/// A Poseidon2 constant set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Poseidon2Constants {
    /// Plonky3's `default_babybear_poseidon2_16()` / `_24()`.
    #[default]
    Plonky3,
    /// `new_from_rng_128(&mut SmallRng::seed_from_u64(1))`: the set of every WHIR configuration
    /// (and of zkgpu's Merkle trees under WHIR).
    Whir,
}

impl Poseidon2Constants {
    pub(crate) fn c_name(self) -> &'static CStr {
        match self {
            Poseidon2Constants::Plonky3 => c"plonky3",
            Poseidon2Constants::Whir => c"whir",
        }
    }
}

/// Permutes the `states.len() / width` consecutive states (width 16 or 24) in place, as
/// Plonky3's `Poseidon2BabyBear::<W>::permute_mut` on each.
pub fn poseidon2_permute(
    states: &mut [u32],
    width: usize,
    constants: Poseidon2Constants,
    repr: Repr,
    backend: Backend,
) -> Result<(), Error> {
    if width != 16 && width != 24 {
        return Err(Error::invalid(format!(
            "babybear::poseidon2_permute: width {width} (16 or 24)"
        )));
    }
    if !states.len().is_multiple_of(width) {
        return Err(Error::invalid(format!(
            "babybear::poseidon2_permute: {} words are not a whole number of width-{width} states",
            states.len()
        )));
    }
    let n = states.len() / width;
    // SAFETY: states holds n * width words; the names are NUL-terminated static strings.
    Error::check(unsafe {
        sys::zkgpu_poseidon2_permute_repr(
            states.as_mut_ptr(),
            n,
            width,
            c"babybear".as_ptr(),
            constants.c_name().as_ptr(),
            repr.raw(),
            backend.raw(),
        )
    })
}
