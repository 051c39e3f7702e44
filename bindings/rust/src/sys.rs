//! The raw C ABI of `include/zkgpu.h`, declared by hand (the crate has no bindgen). Names, types
//! and order follow the header; the safe modules of this crate are the intended interface.
//!
//! C enums are `int`-sized on every target zkgpu supports, so each enum type is a `c_int` alias
//! with its values as constants: a value the library returns that this file does not know stays
//! a number instead of undefined behaviour.
#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_int, c_uint, c_void};

/// A C enum of the header: `pub type $ty = c_int` and a `$ty` constant for each value.
macro_rules! c_enum {
    ($ty:ident: $($name:ident = $value:literal),+ $(,)?) => {
        pub type $ty = c_int;
        $(pub const $name: $ty = $value;)+
    };
}

/// An opaque handle type of the header (`typedef struct X X;`), only ever behind a pointer.
macro_rules! opaque {
    ($name:ident) => {
        #[repr(C)]
        pub struct $name {
            _opaque: [u8; 0],
        }
    };
}

c_enum! { zkgpu_status: ZKGPU_OK = 0, ZKGPU_INVALID_ARGUMENT = 1, ZKGPU_OUT_OF_MEMORY = 2,
ZKGPU_UNAVAILABLE = 3, ZKGPU_CUDA_ERROR = 4, ZKGPU_INTERNAL = 5 }
c_enum! { zkgpu_backend: ZKGPU_BACKEND_AUTO = 0, ZKGPU_BACKEND_CPU = 1, ZKGPU_BACKEND_CUDA = 2 }

pub const ZKGPU_BABYBEAR_P: u32 = 2013265921;
c_enum! { zkgpu_babybear_repr: ZKGPU_BABYBEAR_CANONICAL = 0, ZKGPU_BABYBEAR_MONTGOMERY = 1 }
pub const ZKGPU_BABYBEAR4_WORDS: usize = 4;
pub const ZKGPU_DIGEST_WORDS: usize = 8;

c_enum! { zkgpu_ntt_direction: ZKGPU_NTT_FORWARD = 0, ZKGPU_NTT_INVERSE = 1 }

opaque! { zkgpu_merkle_tree }

c_enum! { zkgpu_whir_soundness: ZKGPU_WHIR_UNIQUE_DECODING = 0, ZKGPU_WHIR_JOHNSON_BOUND = 1,
ZKGPU_WHIR_CAPACITY_BOUND = 2 }

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct zkgpu_whir_params {
    pub num_variables: u32,
    pub security_level: u32,
    pub pow_bits: u32,
    pub folding_factor: u32,
    pub first_folding_factor: u32,
    pub folding_from_second_round: u32,
    pub soundness: zkgpu_whir_soundness,
    pub starting_log_inv_rate: u32,
    pub rs_reduction: i32,
    pub enforce_pow_budget: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct zkgpu_whir_config {
    pub num_variables: u32,
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
    pub pow_budget_exceeded: u32,
}

opaque! { zkgpu_whir_proof }

c_enum! { zkgpu_ed25519_mode: ZKGPU_ED25519_OPENSSL = 0, ZKGPU_ED25519_STRICT = 1,
ZKGPU_ED25519_ZIP215 = 2 }
pub const ZKGPU_ED25519_PUBLIC_KEY_BYTES: usize = 32;
pub const ZKGPU_ED25519_SIGNATURE_BYTES: usize = 64;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkgpu_ed25519_item {
    pub public_key: *const u8,
    pub public_key_len: usize,
    pub signature: *const u8,
    pub signature_len: usize,
    pub message: *const u8,
    pub message_len: usize,
}

c_enum! { zkgpu_g1_encoding: ZKGPU_G1_COMPRESSED = 0, ZKGPU_G1_UNCOMPRESSED = 1 }
pub const ZKGPU_G1_COMPRESSED_BYTES: usize = 48;
pub const ZKGPU_G1_UNCOMPRESSED_BYTES: usize = 96;
pub const ZKGPU_SCALAR_BYTES: usize = 32;
pub const ZKGPU_MSM_PRECOMPUTED_BYTES: usize = 144;

opaque! { zkgpu_msm_bases }

// The per-item status bytes of the batches (uint8_t arrays, hence u8 values).
pub type zkgpu_pq_status = c_int;
pub const ZKGPU_PQ_OK: u8 = 0;
pub const ZKGPU_PQ_INVALID_INPUT: u8 = 1;

c_enum! { zkgpu_mlkem_set: ZKGPU_MLKEM_512 = 0, ZKGPU_MLKEM_768 = 1, ZKGPU_MLKEM_1024 = 2 }

// Fields grouped as in the header.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[rustfmt::skip]
pub struct zkgpu_mlkem_sizes {
    pub encapsulation_key: usize, pub decapsulation_key: usize, pub ciphertext: usize,
    pub seed: usize, pub message: usize, pub shared_key: usize,
}

c_enum! { zkgpu_mldsa_set: ZKGPU_MLDSA_44 = 0, ZKGPU_MLDSA_65 = 1, ZKGPU_MLDSA_87 = 2 }

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[rustfmt::skip]
pub struct zkgpu_mldsa_sizes {
    pub public_key: usize, pub secret_key: usize, pub signature: usize,
    pub seed: usize, pub rnd: usize, pub mu: usize, pub max_context: usize,
}

// Laid out like the header, a few parameters a line, so the two read side by side (rustfmt would
// give every parameter a line of its own). Every function but the first four and the *_free ones
// returns a zkgpu_status.
#[rustfmt::skip]
extern "C" {
    pub fn zkgpu_version() -> *const c_char;
    pub fn zkgpu_last_error() -> *const c_char;
    pub fn zkgpu_status_name(status: zkgpu_status) -> *const c_char;
    pub fn zkgpu_cuda_usable() -> c_int;
    pub fn zkgpu_release_gpu_caches() -> zkgpu_status;

    pub fn zkgpu_ntt(matrix: *mut u32, log_n: c_uint, cols: usize, direction: zkgpu_ntt_direction,
        shift: u32, repr: zkgpu_babybear_repr, backend: zkgpu_backend) -> zkgpu_status;
    pub fn zkgpu_coset_lde(evals: *const u32, log_n: c_uint, cols: usize, log_blowup: c_uint,
        shift: u32, repr: zkgpu_babybear_repr, backend: zkgpu_backend, out: *mut u32)
        -> zkgpu_status;
    pub fn zkgpu_lde_from_coeffs(coeffs: *const u32, log_n: c_uint, cols: usize,
        log_blowup: c_uint, shift: u32, repr: zkgpu_babybear_repr, backend: zkgpu_backend,
        out: *mut u32) -> zkgpu_status;

    pub fn zkgpu_poseidon2_permute(states: *mut u32, n: usize, width: usize, field: *const c_char,
        constants: *const c_char, backend: zkgpu_backend) -> zkgpu_status;
    pub fn zkgpu_poseidon2_permute_repr(states: *mut u32, n: usize, width: usize,
        field: *const c_char, constants: *const c_char, repr: zkgpu_babybear_repr,
        backend: zkgpu_backend) -> zkgpu_status;

    pub fn zkgpu_merkle_build(matrix: *const u32, rows: usize, cols: usize,
        constants: *const c_char, repr: zkgpu_babybear_repr, backend: zkgpu_backend,
        out_tree: *mut *mut zkgpu_merkle_tree) -> zkgpu_status;
    pub fn zkgpu_merkle_free(tree: *mut zkgpu_merkle_tree);
    pub fn zkgpu_merkle_shape(tree: *const zkgpu_merkle_tree, rows: *mut usize, cols: *mut usize,
        depth: *mut usize) -> zkgpu_status;
    pub fn zkgpu_merkle_root(tree: *const zkgpu_merkle_tree, root: *mut u32) -> zkgpu_status;
    pub fn zkgpu_merkle_nodes(tree: *const zkgpu_merkle_tree, nodes: *mut u32, nodes_words: usize)
        -> zkgpu_status;
    pub fn zkgpu_merkle_open(tree: *const zkgpu_merkle_tree, index: usize, row: *mut u32,
        row_len: usize, siblings: *mut u32, siblings_words: usize) -> zkgpu_status;
    pub fn zkgpu_merkle_verify(root: *const u32, rows: usize, cols: usize, index: usize,
        row: *const u32, siblings: *const u32, depth: usize, constants: *const c_char,
        repr: zkgpu_babybear_repr, accepted: *mut u8) -> zkgpu_status;

    pub fn zkgpu_whir_params_init(params: *mut zkgpu_whir_params, num_variables: u32)
        -> zkgpu_status;
    pub fn zkgpu_whir_derive(params: *const zkgpu_whir_params, config: *mut zkgpu_whir_config)
        -> zkgpu_status;
    pub fn zkgpu_whir_max_proof_size(params: *const zkgpu_whir_params, num_claims: usize,
        bytes: *mut u64) -> zkgpu_status;
    pub fn zkgpu_whir_prove(params: *const zkgpu_whir_params, evals: *const u32, num_evals: usize,
        points: *const u32, values: *const u32, num_claims: usize, repr: zkgpu_babybear_repr,
        backend: zkgpu_backend, out_proof: *mut *mut zkgpu_whir_proof) -> zkgpu_status;
    pub fn zkgpu_whir_proof_free(proof: *mut zkgpu_whir_proof);
    pub fn zkgpu_whir_proof_size(proof: *const zkgpu_whir_proof, bytes: *mut usize)
        -> zkgpu_status;
    pub fn zkgpu_whir_proof_write(proof: *const zkgpu_whir_proof, out: *mut u8, out_len: usize)
        -> zkgpu_status;
    pub fn zkgpu_whir_proof_root(proof: *const zkgpu_whir_proof, repr: zkgpu_babybear_repr,
        root: *mut u32) -> zkgpu_status;
    pub fn zkgpu_whir_verify(params: *const zkgpu_whir_params, points: *const u32,
        values: *const u32, num_claims: usize, expected_root: *const u32,
        repr: zkgpu_babybear_repr, proof: *const u8, proof_len: usize, accepted: *mut u8,
        reason: *mut c_char, reason_len: usize) -> zkgpu_status;

    pub fn zkgpu_ed25519_verify_batch(public_keys: *const *const u8, public_key_lens: *const usize,
        signatures: *const *const u8, signature_lens: *const usize, messages: *const *const u8,
        message_lens: *const usize, n: usize, mode: zkgpu_ed25519_mode, backend: zkgpu_backend,
        verdicts: *mut u8) -> zkgpu_status;
    pub fn zkgpu_ed25519_verify_batch_items(items: *const zkgpu_ed25519_item, n: usize,
        mode: zkgpu_ed25519_mode, backend: zkgpu_backend, verdicts: *mut u8) -> zkgpu_status;
    pub fn zkgpu_ed25519_verify_batch_packed(public_keys: *const u8, signatures: *const u8,
        messages: *const u8, message_offsets: *const u64, n: usize, mode: zkgpu_ed25519_mode,
        backend: zkgpu_backend, verdicts: *mut u8) -> zkgpu_status;
    pub fn zkgpu_ed25519_verify_batch_device(public_keys: *const u8, signatures: *const u8,
        messages: *const u8, message_bytes: usize, message_offsets: *const u64, n: usize,
        mode: zkgpu_ed25519_mode, verdicts: *mut u8, stream: *mut c_void) -> zkgpu_status;

    pub fn zkgpu_msm(points: *const u8, scalars: *const u8, n: usize, encoding: zkgpu_g1_encoding,
        backend: zkgpu_backend, result: *mut u8) -> zkgpu_status;
    pub fn zkgpu_msm_bases_create(points: *const u8, n: usize, encoding: zkgpu_g1_encoding,
        out_bases: *mut *mut zkgpu_msm_bases) -> zkgpu_status;
    pub fn zkgpu_msm_bases_free(bases: *mut zkgpu_msm_bases);
    pub fn zkgpu_msm_bases_size(bases: *const zkgpu_msm_bases, n: *mut usize) -> zkgpu_status;
    pub fn zkgpu_msm_with_bases(bases: *const zkgpu_msm_bases, scalars: *const u8, n: usize,
        encoding: zkgpu_g1_encoding, backend: zkgpu_backend, result: *mut u8) -> zkgpu_status;
    pub fn zkgpu_msm_bases_export(bases: *const zkgpu_msm_bases, out: *mut u8, out_len: usize)
        -> zkgpu_status;

    pub fn zkgpu_mlkem_sizes_of(set: zkgpu_mlkem_set, sizes: *mut zkgpu_mlkem_sizes)
        -> zkgpu_status;
    pub fn zkgpu_mlkem_keygen_batch(set: zkgpu_mlkem_set, seeds: *const u8, n: usize,
        backend: zkgpu_backend, ek: *mut u8, dk: *mut u8) -> zkgpu_status;
    pub fn zkgpu_mlkem_encaps_batch(set: zkgpu_mlkem_set, ek: *const u8, m: *const u8, n: usize,
        backend: zkgpu_backend, ct: *mut u8, key: *mut u8, status: *mut u8) -> zkgpu_status;
    pub fn zkgpu_mlkem_encaps_random_batch(set: zkgpu_mlkem_set, ek: *const u8, n: usize,
        backend: zkgpu_backend, ct: *mut u8, key: *mut u8, status: *mut u8) -> zkgpu_status;
    pub fn zkgpu_mlkem_decaps_batch(set: zkgpu_mlkem_set, dk: *const u8, ct: *const u8, n: usize,
        backend: zkgpu_backend, key: *mut u8, status: *mut u8) -> zkgpu_status;

    pub fn zkgpu_mldsa_sizes_of(set: zkgpu_mldsa_set, sizes: *mut zkgpu_mldsa_sizes)
        -> zkgpu_status;
    pub fn zkgpu_mldsa_keygen_batch(set: zkgpu_mldsa_set, seeds: *const u8, n: usize,
        backend: zkgpu_backend, pk: *mut u8, sk: *mut u8) -> zkgpu_status;
    pub fn zkgpu_mldsa_sign_batch(set: zkgpu_mldsa_set, secret_keys: *const *const u8,
        secret_key_lens: *const usize, messages: *const *const u8, message_lens: *const usize,
        contexts: *const *const u8, context_lens: *const usize, rnds: *const *const u8,
        rnd_lens: *const usize, n: usize, external_mu: c_int, backend: zkgpu_backend,
        signatures: *mut u8, status: *mut u8) -> zkgpu_status;
    pub fn zkgpu_mldsa_verify_batch(set: zkgpu_mldsa_set, public_keys: *const *const u8,
        public_key_lens: *const usize, messages: *const *const u8, message_lens: *const usize,
        contexts: *const *const u8, context_lens: *const usize, signatures: *const *const u8,
        signature_lens: *const usize, n: usize, external_mu: c_int, backend: zkgpu_backend,
        verdicts: *mut u8) -> zkgpu_status;
}
