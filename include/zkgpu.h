/* zkgpu's C ABI (C99): every capability of the library behind one prefix, one status enum and
 * caller-owned buffers, for C programs and for the Go and Rust bindings (docs/c-api.md).
 *
 * The rules every function follows:
 * - It returns a zkgpu_status (the exceptions: zkgpu_version, zkgpu_last_error,
 *   zkgpu_status_name, zkgpu_cuda_usable and the *_free functions, which cannot fail).
 * - zkgpu_last_error() is this thread's message about the last call that failed; every call
 *   that returns a status clears it to "" first, so after ZKGPU_OK it is "".
 * - Outputs go to buffers the caller owns. A buffer whose size follows from the call's own size
 *   arguments (n, width, log_n, cols, ...) has no length argument; a buffer whose size the
 *   library determines (a handle's contents, a WHIR proof) comes with its capacity.
 * - n = 0 is a valid empty batch: nothing is read or written and the pointers may be NULL. A
 *   NULL pointer where data is needed is ZKGPU_INVALID_ARGUMENT, as is an enum value outside
 *   its list.
 * - ZKGPU_INVALID_ARGUMENT is decided before anything is written. After any other failure the
 *   contents of an output or in-place buffer are unspecified. A call that creates a handle sets
 *   *out_... to NULL when it fails.
 * - Batches of independent items (signatures, KEM and DSA operations) report per item: a bad
 *   item never fails the call and never changes another item's result.
 * - Handles (zkgpu_merkle_tree, zkgpu_msm_bases, zkgpu_whir_proof) are immutable after creation
 *   and may be used from several threads at once; free each exactly once (NULL is ignored).
 */
#ifndef ZKGPU_H
#define ZKGPU_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define ZKGPU_API __attribute__((visibility("default")))
#else
#define ZKGPU_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status, errors, version, backends ------------------------------------------------------ */

typedef enum {
  ZKGPU_OK = 0,
  ZKGPU_INVALID_ARGUMENT = 1, /* wrong sizes, NULL pointers, non-canonical values, unknown names */
  ZKGPU_OUT_OF_MEMORY = 2,    /* a host or GPU allocation failed */
  ZKGPU_UNAVAILABLE = 3,      /* ZKGPU_BACKEND_CUDA without the CUDA backend or a usable GPU */
  ZKGPU_CUDA_ERROR = 4,       /* any other CUDA runtime failure */
  ZKGPU_INTERNAL = 5          /* a bug in zkgpu: please report the message */
} zkgpu_status;

/* AUTO runs on the GPU when the library has the CUDA backend, a GPU answers and the work reaches
 * the operation's measured crossover; CUDA without a usable GPU is ZKGPU_UNAVAILABLE, never a
 * silent CPU run; CPU always works. */
typedef enum { ZKGPU_BACKEND_AUTO = 0, ZKGPU_BACKEND_CPU = 1, ZKGPU_BACKEND_CUDA = 2 } zkgpu_backend;

/* "MAJOR.MINOR.PATCH" of the library (zkgpu::version()); a static string. */
ZKGPU_API const char* zkgpu_version(void);
/* This thread's message about its last failed call ("" after a success); valid until this
 * thread's next zkgpu call. Never NULL. */
ZKGPU_API const char* zkgpu_last_error(void);
/* "ZKGPU_OK", "ZKGPU_INVALID_ARGUMENT", ...; "unknown zkgpu_status" for other values. */
ZKGPU_API const char* zkgpu_status_name(zkgpu_status status);
/* 1 when the library has the CUDA backend and a usable GPU answers, else 0. */
ZKGPU_API int zkgpu_cuda_usable(void);
/* Frees the GPU memory zkgpu keeps between calls (zkgpu::release_gpu_caches); call it when no
 * zkgpu call is in flight. Handles the caller owns are not touched. */
ZKGPU_API zkgpu_status zkgpu_release_gpu_caches(void);

/* ---- BabyBear field elements ----------------------------------------------------------------- */

#define ZKGPU_BABYBEAR_P 2013265921u /* 2^31 - 2^27 + 1 */

/* How a uint32_t holds a BabyBear element. CANONICAL: the value x < p. MONTGOMERY: the word
 * x * 2^32 mod p (< p), which is how Plonky3 stores BabyBear and how zkgpu computes, so such
 * buffers are used without conversion. Every input word must be < p in either form. */
typedef enum { ZKGPU_BABYBEAR_CANONICAL = 0, ZKGPU_BABYBEAR_MONTGOMERY = 1 } zkgpu_babybear_repr;

/* An element of the extension BabyBear4 = F[X]/(X^4 - 11) is 4 words c0, c1, c2, c3 in the same
 * representation; a Poseidon2 / Merkle digest is 8 words. */
#define ZKGPU_BABYBEAR4_WORDS 4
#define ZKGPU_DIGEST_WORDS 8

/* ---- NTT and low-degree extension over BabyBear -------------------------------------------- */

typedef enum { ZKGPU_NTT_FORWARD = 0, ZKGPU_NTT_INVERSE = 1 } zkgpu_ntt_direction;

/* matrix: (2^log_n) x cols row-major, each column a polynomial, natural order, transformed in
 * place (Plonky3's dft_batch contract). FORWARD: coefficients -> evaluations over shift * H;
 * INVERSE: those evaluations -> coefficients. shift (in the matrix's representation) is 1 for the
 * plain DFT, any nonzero element for a coset (Plonky3's default coset shift is 31). log_n <= 27,
 * cols >= 1. */
ZKGPU_API zkgpu_status zkgpu_ntt(uint32_t* matrix, unsigned log_n, size_t cols, zkgpu_ntt_direction direction,
                                 uint32_t shift, zkgpu_babybear_repr repr, zkgpu_backend backend);

/* Low-degree extension: `evals` holds (2^log_n) x cols evaluations over H; `out` receives the
 * (2^(log_n + log_blowup)) x cols evaluations over shift * H' (natural order, Plonky3's
 * coset_lde_batch without the bit reversal). log_n + log_blowup <= 27; out must not overlap the
 * input. */
ZKGPU_API zkgpu_status zkgpu_coset_lde(const uint32_t* evals, unsigned log_n, size_t cols, unsigned log_blowup,
                                       uint32_t shift, zkgpu_babybear_repr repr, zkgpu_backend backend, uint32_t* out);
/* The same from coefficients (what WHIR does): zero-pad the 2^log_n coefficient rows to
 * 2^(log_n + log_blowup) and evaluate over shift * H'. */
ZKGPU_API zkgpu_status zkgpu_lde_from_coeffs(const uint32_t* coeffs, unsigned log_n, size_t cols, unsigned log_blowup,
                                             uint32_t shift, zkgpu_babybear_repr repr, zkgpu_backend backend,
                                             uint32_t* out);

/* ---- Poseidon2 -------------------------------------------------------------------------------- */

/* Field and constant-set names, as `zkgpu poseidon2 permute --field --constants` takes them:
 * field "babybear" with "plonky3" (Plonky3's default BabyBear set) or "whir" (SmallRng seed 1, the
 * set of every WHIR configuration); field "koalabear" (host calls only, so far) with "plonky3"
 * (Plonky3's default KoalaBear set) or "xoroshiro1" (Xoroshiro128Plus seed 1). Widths are 16 and
 * 24. Every other field is "babybear" only. */

/* states: n * width canonical values, permuted in place; field "babybear" | "koalabear" */
ZKGPU_API zkgpu_status zkgpu_poseidon2_permute(uint32_t* states, size_t n, size_t width, const char* field,
                                               const char* constants, zkgpu_backend backend);
/* The same with the states in either representation (MONTGOMERY for Plonky3's words). */
ZKGPU_API zkgpu_status zkgpu_poseidon2_permute_repr(uint32_t* states, size_t n, size_t width, const char* field,
                                                    const char* constants, zkgpu_babybear_repr repr,
                                                    zkgpu_backend backend);

/* ---- Merkle commitment (Plonky3 MerkleTreeMmcs, arity 2, Poseidon2-16 sponge and compression) - */

typedef struct zkgpu_merkle_tree zkgpu_merkle_tree;

/* Commits to a rows x cols row-major matrix (rows a power of two, cols >= 1) with the Poseidon2
 * constant set `constants`. The tree keeps a copy of the matrix; digests and rows it returns are
 * in the representation it was built with. Free it with zkgpu_merkle_free. */
ZKGPU_API zkgpu_status zkgpu_merkle_build(const uint32_t* matrix, size_t rows, size_t cols, const char* constants,
                                          zkgpu_babybear_repr repr, zkgpu_backend backend,
                                          zkgpu_merkle_tree** out_tree);
ZKGPU_API void zkgpu_merkle_free(zkgpu_merkle_tree* tree);
/* rows, cols and depth = log2(rows) (the number of sibling digests of an opening); any of the
 * out pointers may be NULL. */
ZKGPU_API zkgpu_status zkgpu_merkle_shape(const zkgpu_merkle_tree* tree, size_t* rows, size_t* cols, size_t* depth);
/* root: ZKGPU_DIGEST_WORDS words. */
ZKGPU_API zkgpu_status zkgpu_merkle_root(const zkgpu_merkle_tree* tree, uint32_t* root);
/* Every node: 2*rows - 1 digests, leaves first, then each level up, the root last (the layout
 * zkgpu_merkle_build_device writes). nodes_words must be (2*rows - 1) * ZKGPU_DIGEST_WORDS. */
ZKGPU_API zkgpu_status zkgpu_merkle_nodes(const zkgpu_merkle_tree* tree, uint32_t* nodes, size_t nodes_words);
/* The opening of row `index`: the row (row_len must be cols) and depth sibling digests, leaf level
 * first (siblings_words must be depth * ZKGPU_DIGEST_WORDS). index >= rows is an error. */
ZKGPU_API zkgpu_status zkgpu_merkle_open(const zkgpu_merkle_tree* tree, size_t index, uint32_t* row, size_t row_len,
                                         uint32_t* siblings, size_t siblings_words);
/* Checks an opening (row: cols words, siblings: depth digests) of row `index` of a rows x cols
 * commitment against root. *accepted = 1 iff index < rows, rows is a power of two, depth =
 * log2(rows), every word is < p and the recomputed root equals root; a wrong opening is a
 * rejection (ZKGPU_OK, *accepted = 0), not an error. */
ZKGPU_API zkgpu_status zkgpu_merkle_verify(const uint32_t* root, size_t rows, size_t cols, size_t index,
                                           const uint32_t* row, const uint32_t* siblings, size_t depth,
                                           const char* constants, zkgpu_babybear_repr repr, uint8_t* accepted);

/* ---- WHIR polynomial commitment (p3-whir 090b dialect, docs/whir-proof-format.md) ----------- */

typedef enum {
  ZKGPU_WHIR_UNIQUE_DECODING = 0,
  ZKGPU_WHIR_JOHNSON_BOUND = 1,
  ZKGPU_WHIR_CAPACITY_BOUND = 2 /* rests on a refuted conjecture (Crites-Stewart, eprint 2025/2046) */
} zkgpu_whir_soundness;

/* The protocol parameters (zkgpu::whir::ProtocolParameters). zkgpu_whir_params_init fills the
 * library's defaults. Folding: every round folds folding_factor variables; with
 * folding_from_second_round = 1 the first round folds first_folding_factor instead. */
typedef struct {
  uint32_t num_variables;             /* n: the polynomial has 2^n evaluations (1..30) */
  uint32_t security_level;            /* bits (100) */
  uint32_t pow_bits;                  /* the PoW budget credited to the query phases (16) */
  uint32_t folding_factor;            /* k (4) */
  uint32_t first_folding_factor;      /* k0, read only when folding_from_second_round */
  uint32_t folding_from_second_round; /* 0 or 1 */
  zkgpu_whir_soundness soundness;     /* UNIQUE_DECODING */
  uint32_t starting_log_inv_rate;     /* r0: rate 2^-r0 (1) */
  int32_t rs_reduction;               /* first-round domain reduction; -1: the default min(k0, 3) */
  uint32_t enforce_pow_budget;        /* 0 or 1: reject configurations whose derived PoW exceeds pow_bits */
} zkgpu_whir_params;

/* What the parameters derive (WhirConfig::derive), enough to size the buffers of a proof. */
typedef struct {
  uint32_t num_variables;
  uint64_t num_evaluations; /* 2^n: the evaluations zkgpu_whir_prove takes */
  uint32_t rs_reduction;    /* with the default filled in */
  uint32_t n_rounds;
  uint32_t final_sumcheck_rounds;
  uint32_t commitment_ood_samples;
  uint32_t starting_folding_pow_bits;
  uint32_t log_starting_domain; /* n + r0 */
  uint32_t max_fft_log_size;    /* n + r0 - k0 */
  uint32_t final_num_queries;
  uint32_t max_derived_pow_bits; /* the largest PoW any phase grinds */
  uint32_t pow_budget_exceeded;  /* 1 when some phase's PoW is above pow_bits */
} zkgpu_whir_config;

ZKGPU_API zkgpu_status zkgpu_whir_params_init(zkgpu_whir_params* params, uint32_t num_variables);
/* Derives the configuration; ZKGPU_INVALID_ARGUMENT with the reason for parameters zkgpu rejects. */
ZKGPU_API zkgpu_status zkgpu_whir_derive(const zkgpu_whir_params* params, zkgpu_whir_config* config);
/* An upper bound on the proof bytes of num_claims claims under params (every query opened). */
ZKGPU_API zkgpu_status zkgpu_whir_max_proof_size(const zkgpu_whir_params* params, size_t num_claims, uint64_t* bytes);

typedef struct zkgpu_whir_proof zkgpu_whir_proof;

/* Claims: claim c says f(point_c) = value_c, point_c in BabyBear4^n. points holds num_claims * n
 * extension elements (claim-major, x_0 first: num_claims * n * 4 words), values num_claims
 * extension elements (num_claims * 4 words), both in `repr`; 1 <= num_claims <= 65536.
 *
 * Commits to the num_evals = 2^n evaluations and proves the claims (values are taken as given:
 * a false claim yields a proof the verifier rejects). The proof is ground deterministically, so
 * equal inputs give equal bytes on every backend. Free the proof with zkgpu_whir_proof_free. */
ZKGPU_API zkgpu_status zkgpu_whir_prove(const zkgpu_whir_params* params, const uint32_t* evals, size_t num_evals,
                                        const uint32_t* points, const uint32_t* values, size_t num_claims,
                                        zkgpu_babybear_repr repr, zkgpu_backend backend, zkgpu_whir_proof** out_proof);
ZKGPU_API void zkgpu_whir_proof_free(zkgpu_whir_proof* proof);
/* The proof file's size in bytes (parameters, claims and proof: docs/whir-proof-format.md). */
ZKGPU_API zkgpu_status zkgpu_whir_proof_size(const zkgpu_whir_proof* proof, size_t* bytes);
/* Copies the proof file into out; out_len must be at least zkgpu_whir_proof_size's. */
ZKGPU_API zkgpu_status zkgpu_whir_proof_write(const zkgpu_whir_proof* proof, uint8_t* out, size_t out_len);
/* The commitment (the root of the initial Merkle tree), ZKGPU_DIGEST_WORDS words in repr: what a
 * verifier pins through zkgpu_whir_verify's expected_root. */
ZKGPU_API zkgpu_status zkgpu_whir_proof_root(const zkgpu_whir_proof* proof, zkgpu_babybear_repr repr, uint32_t* root);

/* Verifies proof file bytes against the verifier's own statement: its parameters (never read
 * from the proof), its claims (laid out as for zkgpu_whir_prove) and, unless expected_root is
 * NULL, the commitment root (ZKGPU_DIGEST_WORDS words in repr) the prover committed to earlier.
 * Without expected_root only "some polynomial has these values" is checked. A proof that is
 * malformed, truncated, made under other parameters, about other claims or another root, or that
 * fails verification is a rejection: ZKGPU_OK with *accepted = 0 and the reason in `reason`
 * (NUL-terminated, truncated to reason_len; reason may be NULL when reason_len is 0; "" when
 * accepted). Errors are for the caller's own inputs (parameters, claims, NULL pointers). */
ZKGPU_API zkgpu_status zkgpu_whir_verify(const zkgpu_whir_params* params, const uint32_t* points,
                                         const uint32_t* values, size_t num_claims, const uint32_t* expected_root,
                                         zkgpu_babybear_repr repr, const uint8_t* proof, size_t proof_len,
                                         uint8_t* accepted, char* reason, size_t reason_len);

/* ---- Ed25519 batch verification (RFC 8032, docs/ed25519.md) ---------------------------------- */

/* OPENSSL: OpenSSL, Go crypto/ed25519, BoringSSL, ed25519-dalek verify() (the default).
 * STRICT: ed25519-dalek verify_strict(). ZIP215: ed25519-zebra / ed25519-consensus. */
typedef enum { ZKGPU_ED25519_OPENSSL = 0, ZKGPU_ED25519_STRICT = 1, ZKGPU_ED25519_ZIP215 = 2 } zkgpu_ed25519_mode;

#define ZKGPU_ED25519_PUBLIC_KEY_BYTES 32
#define ZKGPU_ED25519_SIGNATURE_BYTES 64

/* Item i is (public_keys[i], public_key_lens[i]), (signatures[i], signature_lens[i]),
 * (messages[i], message_lens[i]); a pointer may be NULL only when its length is 0. */
/* verdicts[i] = 1 valid, 0 invalid; a wrong-length key or signature is an invalid item, not an error */
ZKGPU_API zkgpu_status zkgpu_ed25519_verify_batch(const uint8_t* const* public_keys, const size_t* public_key_lens,
                                                  const uint8_t* const* signatures, const size_t* signature_lens,
                                                  const uint8_t* const* messages, const size_t* message_lens, size_t n,
                                                  zkgpu_ed25519_mode mode, zkgpu_backend backend, uint8_t* verdicts);

/* The same batch as an array of structs, read in place: what a binding whose items are
 * (pointer, length) pairs already holds (the Rust crate's ed25519::Item) passes without building
 * the six arrays. Same rules and verdicts as zkgpu_ed25519_verify_batch. */
typedef struct zkgpu_ed25519_item {
  const uint8_t* public_key;
  size_t public_key_len;
  const uint8_t* signature;
  size_t signature_len;
  const uint8_t* message;
  size_t message_len;
} zkgpu_ed25519_item;
ZKGPU_API zkgpu_status zkgpu_ed25519_verify_batch_items(const zkgpu_ed25519_item* items, size_t n,
                                                        zkgpu_ed25519_mode mode, zkgpu_backend backend,
                                                        uint8_t* verdicts);

/* The same batch in packed arrays, read in place (what the Go binding fills): public_keys
 * 32*n bytes, signatures 64*n bytes, messages back to back, item i's message =
 * messages[message_offsets[i], message_offsets[i+1]); message_offsets has n + 1 nondecreasing
 * entries, message_offsets[0] == 0, and message_offsets[n] is the length of messages (NULL only
 * when that is 0). Offsets that break these rules, or verdicts overlapping an input, are
 * ZKGPU_INVALID_ARGUMENT. Every item has the right lengths by construction. */
ZKGPU_API zkgpu_status zkgpu_ed25519_verify_batch_packed(const uint8_t* public_keys, const uint8_t* signatures,
                                                         const uint8_t* messages, const uint64_t* message_offsets,
                                                         size_t n, zkgpu_ed25519_mode mode, zkgpu_backend backend,
                                                         uint8_t* verdicts);
/* The packed batch written by a callback straight into the library's buffers (what the Go binding
 * calls: it must copy its items once anyway, since cgo forbids handing C arrays of Go pointers).
 * fill(ctx, first, count, public_keys, signatures, messages) writes items [first, first + count):
 * count 32-byte keys back to back at public_keys, count 64-byte signatures at signatures, and
 * their messages back to back at messages (message_offsets[first + count] - message_offsets[first]
 * bytes). It is called before the call returns, a chunk at a time, each chunk in pieces on several
 * of the library's threads at once (disjoint ranges: fill must be safe to call concurrently and
 * must not rely on the calling thread's state): on the GPU each chunk goes to pinned staging while
 * the GPU verifies the chunk before. message_offsets
 * follows the packed call's rules (n + 1 nondecreasing entries from 0); fill must be non-NULL when
 * n > 0. On the GPU the offsets are checked a chunk at a time, each before its callback, so a bad
 * entry may be found after fill has run for earlier items: the call is then ZKGPU_INVALID_ARGUMENT
 * with the verdicts unspecified, and fill is never asked for a range the offsets break. Every item has the right
 * lengths by construction: a binding reports its wrong-length items itself (writing them as zeros with empty messages,
 * say). */
typedef void (*zkgpu_ed25519_fill_fn)(void* ctx, size_t first, size_t count, uint8_t* public_keys, uint8_t* signatures,
                                      uint8_t* messages);
ZKGPU_API zkgpu_status zkgpu_ed25519_verify_batch_fill(const uint64_t* message_offsets, size_t n,
                                                       zkgpu_ed25519_fill_fn fill, void* ctx, zkgpu_ed25519_mode mode,
                                                       zkgpu_backend backend, uint8_t* verdicts);
/* The packed batch in the current GPU's memory (see the device-pointer variants below): every
 * array and the n verdict bytes device memory, the work enqueued on `stream` (a cudaStream_t;
 * NULL: the legacy default stream) and the call returns without waiting. message_bytes is the
 * length of messages, which the host cannot read off the device's offsets. The offsets are not
 * checked on the host: the kernel gives verdict 0 to an item whose message_offsets[i] >
 * message_offsets[i+1] or message_offsets[i+1] > message_bytes (the other items are judged as
 * usual). Host pointers, and verdicts overlapping an input, are ZKGPU_INVALID_ARGUMENT;
 * without the CUDA backend or a usable GPU a well-formed call is ZKGPU_UNAVAILABLE. */
ZKGPU_API zkgpu_status zkgpu_ed25519_verify_batch_device(const uint8_t* public_keys, const uint8_t* signatures,
                                                         const uint8_t* messages, size_t message_bytes,
                                                         const uint64_t* message_offsets, size_t n,
                                                         zkgpu_ed25519_mode mode, uint8_t* verdicts, void* stream);

/* ---- BLS12-377 G1 multi-scalar multiplication ------------------------------------------------ */

/* Points in arkworks' CanonicalSerialize encodings: COMPRESSED = x with the flags (48 bytes),
 * UNCOMPRESSED = x, y with the flags (96 bytes); both validated as arkworks' Validate::Yes does
 * (canonical coordinates, on the curve, in G1). Scalars are 32-byte little-endian integers < r. */
typedef enum { ZKGPU_G1_COMPRESSED = 0, ZKGPU_G1_UNCOMPRESSED = 1 } zkgpu_g1_encoding;

#define ZKGPU_G1_COMPRESSED_BYTES 48
#define ZKGPU_G1_UNCOMPRESSED_BYTES 96
#define ZKGPU_SCALAR_BYTES 32
/* A base in the MSM's mixed-adder twisted-Edwards form (zkgpu_msm_bases_export, zkgpu_msm_device). */
#define ZKGPU_MSM_PRECOMPUTED_BYTES 144

/* result = sum_i scalars[i] * points[i], in `encoding` (48 or 96 bytes); n = 0 gives the identity.
 * points: n encoded points back to back, scalars: n * 32 bytes. */
ZKGPU_API zkgpu_status zkgpu_msm(const uint8_t* points, const uint8_t* scalars, size_t n, zkgpu_g1_encoding encoding,
                                 zkgpu_backend backend, uint8_t* result);

/* Bases prepared once for repeated MSMs (and kept on the GPU after the first GPU MSM). */
typedef struct zkgpu_msm_bases zkgpu_msm_bases;
ZKGPU_API zkgpu_status zkgpu_msm_bases_create(const uint8_t* points, size_t n, zkgpu_g1_encoding encoding,
                                              zkgpu_msm_bases** out_bases);
ZKGPU_API void zkgpu_msm_bases_free(zkgpu_msm_bases* bases);
ZKGPU_API zkgpu_status zkgpu_msm_bases_size(const zkgpu_msm_bases* bases, size_t* n);
/* n must be the bases' size; the result is written in `encoding`. */
ZKGPU_API zkgpu_status zkgpu_msm_with_bases(const zkgpu_msm_bases* bases, const uint8_t* scalars, size_t n,
                                            zkgpu_g1_encoding encoding, zkgpu_backend backend, uint8_t* result);
/* The bases in the mixed-adder form, ZKGPU_MSM_PRECOMPUTED_BYTES each (out_len must be
 * n * 144), the bytes zkgpu_msm_device reads from GPU memory. */
ZKGPU_API zkgpu_status zkgpu_msm_bases_export(const zkgpu_msm_bases* bases, uint8_t* out, size_t out_len);

/* ---- ML-KEM (FIPS 203) batches ----------------------------------------------------------------- */

/* Per-item status of the ML-KEM and ML-DSA batches (zkgpu::PqStatus): every slot is written. */
typedef enum { ZKGPU_PQ_OK = 0, ZKGPU_PQ_INVALID_INPUT = 1 } zkgpu_pq_status;

typedef enum { ZKGPU_MLKEM_512 = 0, ZKGPU_MLKEM_768 = 1, ZKGPU_MLKEM_1024 = 2 } zkgpu_mlkem_set;

typedef struct {
  size_t encapsulation_key, decapsulation_key, ciphertext; /* ek, expanded dk, c */
  size_t seed, message, shared_key;                        /* d || z (64), m (32), K (32) */
} zkgpu_mlkem_sizes;
ZKGPU_API zkgpu_status zkgpu_mlkem_sizes_of(zkgpu_mlkem_set set, zkgpu_mlkem_sizes* sizes);

/* Items are fixed-size and packed back to back (item i at offset i * size). */
/* KeyGen_internal(d, z) for each 64-byte seed d || z: ek and dk of every item. */
ZKGPU_API zkgpu_status zkgpu_mlkem_keygen_batch(zkgpu_mlkem_set set, const uint8_t* seeds, size_t n,
                                                zkgpu_backend backend, uint8_t* ek, uint8_t* dk);
/* The deterministic Encaps_internal with an explicit 32-byte message m per item. An ek that fails
 * the modulus check gives ZKGPU_PQ_INVALID_INPUT and zeroed ct and key. */
ZKGPU_API zkgpu_status zkgpu_mlkem_encaps_batch(zkgpu_mlkem_set set, const uint8_t* ek, const uint8_t* m, size_t n,
                                                zkgpu_backend backend, uint8_t* ct, uint8_t* key, uint8_t* status);
/* Encaps with fresh randomness from the operating system (FIPS 203 Algorithm 20). */
ZKGPU_API zkgpu_status zkgpu_mlkem_encaps_random_batch(zkgpu_mlkem_set set, const uint8_t* ek, size_t n,
                                                       zkgpu_backend backend, uint8_t* ct, uint8_t* key,
                                                       uint8_t* status);
/* Decaps with implicit rejection: a ciphertext that does not re-encrypt still gives a key and
 * ZKGPU_PQ_OK; ZKGPU_PQ_INVALID_INPUT only for a dk whose stored H(ek) does not match. */
ZKGPU_API zkgpu_status zkgpu_mlkem_decaps_batch(zkgpu_mlkem_set set, const uint8_t* dk, const uint8_t* ct, size_t n,
                                                zkgpu_backend backend, uint8_t* key, uint8_t* status);

/* The same batches on buffers already in the current GPU's memory (every buffer, 8-byte aligned;
 * sizes as above; status on the device too), enqueued on `stream` (a cudaStream_t; NULL: the legacy
 * default stream) under the rules of the "device-pointer variants" section below: checked before
 * anything is enqueued, ZKGPU_UNAVAILABLE without a usable GPU, the call returns without waiting.
 * Outputs and statuses equal the host calls' byte for byte (docs/pq-gpu.md). The random variant
 * draws m on the host and copies it to the device. */
ZKGPU_API zkgpu_status zkgpu_mlkem_keygen_batch_device(zkgpu_mlkem_set set, const uint8_t* seeds, size_t n, uint8_t* ek,
                                                       uint8_t* dk, void* stream);
ZKGPU_API zkgpu_status zkgpu_mlkem_encaps_batch_device(zkgpu_mlkem_set set, const uint8_t* ek, const uint8_t* m,
                                                       size_t n, uint8_t* ct, uint8_t* key, uint8_t* status,
                                                       void* stream);
ZKGPU_API zkgpu_status zkgpu_mlkem_encaps_random_batch_device(zkgpu_mlkem_set set, const uint8_t* ek, size_t n,
                                                              uint8_t* ct, uint8_t* key, uint8_t* status, void* stream);
ZKGPU_API zkgpu_status zkgpu_mlkem_decaps_batch_device(zkgpu_mlkem_set set, const uint8_t* dk, const uint8_t* ct,
                                                       size_t n, uint8_t* key, uint8_t* status, void* stream);

/* ---- ML-DSA (FIPS 204) batches ----------------------------------------------------------------- */

typedef enum { ZKGPU_MLDSA_44 = 0, ZKGPU_MLDSA_65 = 1, ZKGPU_MLDSA_87 = 2 } zkgpu_mldsa_set;

typedef struct {
  size_t public_key, secret_key, signature; /* pk, expanded sk, sig */
  size_t seed, rnd, mu, max_context;        /* 32, 32, 64, 255 */
} zkgpu_mldsa_sizes;
ZKGPU_API zkgpu_status zkgpu_mldsa_sizes_of(zkgpu_mldsa_set set, zkgpu_mldsa_sizes* sizes);

/* KeyGen_internal(xi) for each 32-byte seed; pk and sk packed back to back. */
ZKGPU_API zkgpu_status zkgpu_mldsa_keygen_batch(zkgpu_mldsa_set set, const uint8_t* seeds, size_t n,
                                                zkgpu_backend backend, uint8_t* pk, uint8_t* sk);
/* Item i signs (messages[i], message_lens[i]) under (secret_keys[i], secret_key_lens[i]) with
 * context (contexts[i], context_lens[i]) (at most 255 bytes; contexts and context_lens both NULL:
 * every context empty) and randomness (rnds[i], rnd_lens[i]) (32 bytes for hedged signing, length
 * 0 for deterministic; both arrays NULL: every item deterministic). external_mu = 1: each message
 * is the 64-byte mu itself and the contexts are ignored. Signatures are packed back to back;
 * status[i] = ZKGPU_PQ_INVALID_INPUT (and a zeroed signature) for a wrong key, rnd or mu length,
 * a context over 255 bytes or a key with s1/s2 out of range. */
ZKGPU_API zkgpu_status zkgpu_mldsa_sign_batch(zkgpu_mldsa_set set, const uint8_t* const* secret_keys,
                                              const size_t* secret_key_lens, const uint8_t* const* messages,
                                              const size_t* message_lens, const uint8_t* const* contexts,
                                              const size_t* context_lens, const uint8_t* const* rnds,
                                              const size_t* rnd_lens, size_t n, int external_mu, zkgpu_backend backend,
                                              uint8_t* signatures, uint8_t* status);
/* verdicts[i] = 1 iff signature i is valid for (public key i, message i, context i); wrong lengths
 * and contexts over 255 bytes give 0. contexts and context_lens as for signing. */
ZKGPU_API zkgpu_status zkgpu_mldsa_verify_batch(zkgpu_mldsa_set set, const uint8_t* const* public_keys,
                                                const size_t* public_key_lens, const uint8_t* const* messages,
                                                const size_t* message_lens, const uint8_t* const* contexts,
                                                const size_t* context_lens, const uint8_t* const* signatures,
                                                const size_t* signature_lens, size_t n, int external_mu,
                                                zkgpu_backend backend, uint8_t* verdicts);

/* The same batches on buffers already in the current GPU's memory, enqueued on `stream`, under the
 * ML-KEM device variants' rules. Keys, signatures and rnds are packed (item i at i * size); item
 * i's message is messages[message_offsets[i], message_offsets[i + 1]) and its context
 * contexts[context_offsets[i], context_offsets[i + 1]) (context_offsets NULL: every context
 * empty; contexts then NULL with context_bytes 0), n + 1 uint64_t offsets each (8-byte aligned),
 * all in GPU memory; message_bytes and context_bytes are the buffers' sizes. The offsets are
 * checked on the device, per item: a range that runs backwards or leaves its buffer, a context
 * over 255 bytes or (external_mu = 1) a message that is not 64 bytes rejects that item alone
 * (verdict 0, or ZKGPU_PQ_INVALID_INPUT with a zeroed signature). rnds NULL: every item
 * deterministic, else n * 32 bytes. */
ZKGPU_API zkgpu_status zkgpu_mldsa_keygen_batch_device(zkgpu_mldsa_set set, const uint8_t* seeds, size_t n, uint8_t* pk,
                                                       uint8_t* sk, void* stream);
ZKGPU_API zkgpu_status zkgpu_mldsa_sign_batch_device(zkgpu_mldsa_set set, const uint8_t* secret_keys,
                                                     const uint8_t* messages, const uint64_t* message_offsets,
                                                     size_t message_bytes, const uint8_t* contexts,
                                                     const uint64_t* context_offsets, size_t context_bytes,
                                                     const uint8_t* rnds, size_t n, int external_mu,
                                                     uint8_t* signatures, uint8_t* status, void* stream);
ZKGPU_API zkgpu_status zkgpu_mldsa_verify_batch_device(zkgpu_mldsa_set set, const uint8_t* public_keys,
                                                       const uint8_t* signatures, const uint8_t* messages,
                                                       const uint64_t* message_offsets, size_t message_bytes,
                                                       const uint8_t* contexts, const uint64_t* context_offsets,
                                                       size_t context_bytes, size_t n, int external_mu,
                                                       uint8_t* verdicts, void* stream);

/* ---- device-pointer variants (CUDA) ------------------------------------------------------------- */

/* Buffers already in the current GPU's memory, for pipelines that keep their data there. They
 * hold the library's own layout, the host calls' with BabyBear as Montgomery words (so there is
 * no repr argument; a shift is a Montgomery word too), and their sizes follow from the shape as
 * in the host calls. `stream` is a cudaStream_t the caller owns (NULL: the legacy default
 * stream). The arguments are checked on the host before anything is enqueued, with the host
 * calls' rules plus: every buffer must be memory the current device can address, and an output
 * must not overlap an input (ZKGPU_INVALID_ARGUMENT). Except for zkgpu_msm_device, the work is
 * enqueued on the stream and the call returns without waiting: synchronise the stream before
 * reading an output, and keep the buffers alive until then; a failure of the enqueued work shows
 * at that synchronisation, not in the status. ZKGPU_UNAVAILABLE without the CUDA backend or a
 * usable GPU. */
ZKGPU_API zkgpu_status zkgpu_ntt_device(uint32_t* d_matrix, unsigned log_n, size_t cols, zkgpu_ntt_direction direction,
                                        uint32_t shift, void* stream);
ZKGPU_API zkgpu_status zkgpu_coset_lde_device(const uint32_t* d_evals, unsigned log_n, size_t cols, unsigned log_blowup,
                                              uint32_t shift, uint32_t* d_out, void* stream);
ZKGPU_API zkgpu_status zkgpu_lde_from_coeffs_device(const uint32_t* d_coeffs, unsigned log_n, size_t cols,
                                                    unsigned log_blowup, uint32_t shift, uint32_t* d_out, void* stream);
/* n * width Montgomery words permuted in place. */
ZKGPU_API zkgpu_status zkgpu_poseidon2_permute_device(uint32_t* d_states, size_t n, size_t width, const char* field,
                                                      const char* constants, void* stream);
/* The 2*rows - 1 digests of zkgpu_merkle_nodes' layout (leaves first, the root last) into d_nodes,
 * (2*rows - 1) * ZKGPU_DIGEST_WORDS words. */
ZKGPU_API zkgpu_status zkgpu_merkle_build_device(const uint32_t* d_matrix, size_t rows, size_t cols,
                                                 const char* constants, uint32_t* d_nodes, void* stream);
/* d_points: n bases in the mixed-adder form (zkgpu_msm_bases_export's bytes, copied to the GPU),
 * d_scalars: n 32-byte little-endian scalars < r (in GPU memory they are not checked: a larger
 * one gives a wrong sum, never a fault). Waits for the work queued on `stream` (which may
 * produce the inputs), then writes the sum to the host buffer `result` in `encoding`.
 * window_bits: 0 to choose from n, else 2..20. */
ZKGPU_API zkgpu_status zkgpu_msm_device(const void* d_points, const void* d_scalars, size_t n, unsigned window_bits,
                                        zkgpu_g1_encoding encoding, void* stream, uint8_t* result);

#ifdef __cplusplus
}
#endif

#endif /* ZKGPU_H */
