//! WHIR polynomial commitments over BabyBear / BabyBear4 (the p3-whir 090b dialect): commit to
//! the `2^n` evaluations of a multilinear polynomial and prove evaluation claims; proofs travel
//! as bytes in zkgpu's versioned proof-file format (docs/whir-proof-format.md).
use std::ptr::NonNull;

use crate::babybear::Repr;
use crate::merkle::Digest;
use crate::{sys, Backend, Error, ErrorKind};

/// An element of BabyBear4 = `F[X]/(X^4 - 11)`: coefficients c0..c3 in the call's representation.
pub type Ext4 = [u32; 4];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Soundness {
    UniqueDecoding,
    JohnsonBound,
    /// Rests on a refuted conjecture (Crites-Stewart, eprint 2025/2046).
    CapacityBound,
}

/// How many variables each round folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Folding {
    /// Every round folds k.
    Constant(u32),
    /// The first round folds `first`, every later one `rest`.
    ConstantFromSecondRound { first: u32, rest: u32 },
}

/// The protocol parameters. The verifier must choose them itself: what a proof shows is only as
/// strong as these (never read them from the prover).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// n: the polynomial has 2^n evaluations (1..=30).
    pub num_variables: u32,
    pub security_level: u32,
    /// The PoW budget credited to the query phases.
    pub pow_bits: u32,
    pub folding: Folding,
    pub soundness: Soundness,
    /// r0: the starting rate is 2^-r0.
    pub starting_log_inv_rate: u32,
    /// First-round domain reduction; `None`: min(k0, 3).
    pub rs_reduction: Option<u32>,
    /// Reject configurations whose derived PoW exceeds `pow_bits`.
    pub enforce_pow_budget: bool,
}

/// What the parameters derive (WhirConfig::derive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub num_variables: u32,
    /// 2^n: how many evaluations `prove` takes.
    pub num_evaluations: u64,
    pub rs_reduction: u32,
    pub n_rounds: u32,
    pub final_sumcheck_rounds: u32,
    pub commitment_ood_samples: u32,
    pub starting_folding_pow_bits: u32,
    pub log_starting_domain: u32,
    pub max_fft_log_size: u32,
    pub final_num_queries: u32,
    pub max_derived_pow_bits: u32,
    pub pow_budget_exceeded: bool,
}

impl Params {
    /// The library's defaults for `num_variables` (security 100, PoW 16, fold 4, unique
    /// decoding, rate 1/2).
    pub fn new(num_variables: u32) -> Result<Params, Error> {
        let mut raw = sys::zkgpu_whir_params::default();
        // SAFETY: raw is a valid out pointer.
        Error::check(unsafe { sys::zkgpu_whir_params_init(&mut raw, num_variables) })?;
        Params::from_raw(&raw)
    }

    fn from_raw(r: &sys::zkgpu_whir_params) -> Result<Params, Error> {
        let soundness = match r.soundness {
            sys::ZKGPU_WHIR_UNIQUE_DECODING => Soundness::UniqueDecoding,
            sys::ZKGPU_WHIR_JOHNSON_BOUND => Soundness::JohnsonBound,
            sys::ZKGPU_WHIR_CAPACITY_BOUND => Soundness::CapacityBound,
            other => {
                return Err(Error::new(
                    ErrorKind::Internal,
                    format!("zkgpu_whir_params_init: soundness {other}"),
                ))
            }
        };
        Ok(Params {
            num_variables: r.num_variables,
            security_level: r.security_level,
            pow_bits: r.pow_bits,
            folding: if r.folding_from_second_round != 0 {
                Folding::ConstantFromSecondRound {
                    first: r.first_folding_factor,
                    rest: r.folding_factor,
                }
            } else {
                Folding::Constant(r.folding_factor)
            },
            soundness,
            starting_log_inv_rate: r.starting_log_inv_rate,
            rs_reduction: u32::try_from(r.rs_reduction).ok(),
            enforce_pow_budget: r.enforce_pow_budget != 0,
        })
    }

    fn raw(&self) -> Result<sys::zkgpu_whir_params, Error> {
        let (folding_factor, first_folding_factor, from_second) = match self.folding {
            Folding::Constant(k) => (k, k, 0),
            Folding::ConstantFromSecondRound { first, rest } => (rest, first, 1),
        };
        let rs_reduction = match self.rs_reduction {
            None => -1,
            Some(r) => i32::try_from(r)
                .map_err(|_| Error::invalid(format!("whir::Params: rs_reduction {r}")))?,
        };
        Ok(sys::zkgpu_whir_params {
            num_variables: self.num_variables,
            security_level: self.security_level,
            pow_bits: self.pow_bits,
            folding_factor,
            first_folding_factor,
            folding_from_second_round: from_second,
            soundness: match self.soundness {
                Soundness::UniqueDecoding => sys::ZKGPU_WHIR_UNIQUE_DECODING,
                Soundness::JohnsonBound => sys::ZKGPU_WHIR_JOHNSON_BOUND,
                Soundness::CapacityBound => sys::ZKGPU_WHIR_CAPACITY_BOUND,
            },
            starting_log_inv_rate: self.starting_log_inv_rate,
            rs_reduction,
            enforce_pow_budget: u32::from(self.enforce_pow_budget),
        })
    }

    /// Derives the configuration; InvalidArgument with the reason for parameters zkgpu rejects.
    pub fn derive(&self) -> Result<Config, Error> {
        let raw = self.raw()?;
        let mut c = sys::zkgpu_whir_config::default();
        // SAFETY: valid in and out pointers.
        Error::check(unsafe { sys::zkgpu_whir_derive(&raw, &mut c) })?;
        Ok(copy_fields!(c => Config {
            num_variables, num_evaluations, rs_reduction, n_rounds, final_sumcheck_rounds,
            commitment_ood_samples, starting_folding_pow_bits, log_starting_domain,
            max_fft_log_size, final_num_queries, max_derived_pow_bits;
            pow_budget_exceeded: c.pow_budget_exceeded != 0
        }))
    }

    /// An upper bound on the proof bytes of `num_claims` claims (every query opened).
    pub fn max_proof_size(&self, num_claims: usize) -> Result<u64, Error> {
        let raw = self.raw()?;
        let mut bytes = 0u64;
        // SAFETY: valid in and out pointers.
        Error::check(unsafe { sys::zkgpu_whir_max_proof_size(&raw, num_claims, &mut bytes) })?;
        Ok(bytes)
    }
}

/// The claim f(point) = value, with `point` in BabyBear4^n (x_0 = the most significant bit of
/// the evaluation index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub point: Vec<Ext4>,
    pub value: Ext4,
}

/// A proof: the proof file (parameters, claims and proof) and the commitment root, which a
/// verifier pins through `verify`'s `expected_root`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub bytes: Vec<u8>,
    /// In the representation `prove` was called with.
    pub root: Digest,
}

/// A verifier's decision on a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    /// Why: malformed, other parameters, claims or root, or a failed check.
    Rejected(String),
}

impl Verdict {
    pub fn is_accepted(&self) -> bool {
        *self == Verdict::Accepted
    }
}

/// The claims as the C ABI lays them out: points claim-major (num_claims * n * 4 words), values
/// (num_claims * 4 words).
fn flatten_claims(what: &str, n: u32, claims: &[Claim]) -> Result<(Vec<u32>, Vec<u32>), Error> {
    let mut points = Vec::with_capacity(claims.len() * n as usize * 4);
    let mut values = Vec::with_capacity(claims.len() * 4);
    for (i, c) in claims.iter().enumerate() {
        if c.point.len() != n as usize {
            return Err(Error::invalid(format!(
                "{what}: claim {i} has a point of {} coordinates, the polynomial {n} variables",
                c.point.len()
            )));
        }
        points.extend(c.point.iter().flatten());
        values.extend(c.value);
    }
    Ok((points, values))
}

struct ProofHandle(NonNull<sys::zkgpu_whir_proof>);

impl Drop for ProofHandle {
    fn drop(&mut self) {
        // SAFETY: from zkgpu_whir_prove, freed once.
        unsafe { sys::zkgpu_whir_proof_free(self.0.as_ptr()) }
    }
}

/// Commits to `evals` (2^n words in `repr`) and proves `claims` (1..=65536; values taken as
/// given: a false claim gives a proof `verify` rejects). Deterministic: equal inputs give equal
/// bytes on every backend.
pub fn prove(
    params: &Params,
    evals: &[u32],
    claims: &[Claim],
    repr: Repr,
    backend: Backend,
) -> Result<Proof, Error> {
    let raw = params.raw()?;
    let (points, values) = flatten_claims("whir::prove", params.num_variables, claims)?;
    // SAFETY: evals.len() words are passed with their count; points and values hold the words
    // of claims.len() claims of n coordinates (checked above).
    let proof = crate::created("zkgpu_whir_prove: null proof", |out| unsafe {
        sys::zkgpu_whir_prove(
            &raw,
            evals.as_ptr(),
            evals.len(),
            points.as_ptr(),
            values.as_ptr(),
            claims.len(),
            repr.raw(),
            backend.raw(),
            out,
        )
    })?;
    let h = ProofHandle(proof);
    let mut size = 0usize;
    // SAFETY: live handle, out pointers of the stated sizes.
    Error::check(unsafe { sys::zkgpu_whir_proof_size(h.0.as_ptr(), &mut size) })?;
    let bytes = crate::written(size, |out| unsafe {
        sys::zkgpu_whir_proof_write(h.0.as_ptr(), out, size)
    })?;
    let mut root = [0u32; 8];
    Error::check(unsafe {
        sys::zkgpu_whir_proof_root(h.0.as_ptr(), repr.raw(), root.as_mut_ptr())
    })?;
    Ok(Proof { bytes, root })
}

/// Verifies proof-file bytes against the verifier's own parameters and claims and, when given,
/// the commitment root it expects (`None` checks only that some polynomial has these values).
/// Any defect of the proof is `Ok(Verdict::Rejected(reason))`; errors are for the caller's own
/// inputs (parameters, claims).
pub fn verify(
    params: &Params,
    claims: &[Claim],
    expected_root: Option<&Digest>,
    proof: &[u8],
    repr: Repr,
) -> Result<Verdict, Error> {
    let raw = params.raw()?;
    let (points, values) = flatten_claims("whir::verify", params.num_variables, claims)?;
    let mut accepted = 0u8;
    let mut reason = vec![0u8; 1024];
    let root_ptr = expected_root.map_or(std::ptr::null(), |r| r.as_ptr());
    // SAFETY: as in prove; proof bytes with their length; reason has reason.len() bytes and
    // comes back NUL-terminated.
    Error::check(unsafe {
        sys::zkgpu_whir_verify(
            &raw,
            points.as_ptr(),
            values.as_ptr(),
            claims.len(),
            root_ptr,
            repr.raw(),
            proof.as_ptr(),
            proof.len(),
            &mut accepted,
            reason.as_mut_ptr().cast(),
            reason.len(),
        )
    })?;
    if accepted == 1 {
        return Ok(Verdict::Accepted);
    }
    let end = reason.iter().position(|&b| b == 0).unwrap_or(reason.len());
    Ok(Verdict::Rejected(
        String::from_utf8_lossy(&reason[..end]).into_owned(),
    ))
}
