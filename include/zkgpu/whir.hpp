// WHIR polynomial commitment over BabyBear / BabyBear4 in the Plonky3 p3-whir 090b dialect
// (shared/specs/whir.md): parameter derivation (§2), prover and verifier (§3-§5, transcript §7),
// and zkgpu's own versioned proof-file format (docs/whir-proof-format.md).
//
// One deliberate deviation from 090b: the caller's evaluation claims are absorbed into the
// transcript (their number, then each point's coordinates and value) after the commitment's OOD
// answers and before the first combination challenge, so the statement is bound (spec §7.2).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::whir {

// Field size in bits of BabyBear4 (EF::bits()), the fb of the soundness formulas.
inline constexpr unsigned FIELD_SIZE_BITS = 124;
// MAX_NUM_VARIABLES_TO_SEND_COEFFS of p3-whir: below this the polynomial is sent in the clear.
inline constexpr unsigned MAX_VARS_TO_SEND = 6;
// sample_bits cannot produce more than 30 bits over BabyBear, so no PoW can be harder.
inline constexpr unsigned MAX_POW_BITS = 30;
// Guards the float formulas and the proof parser against absurd inputs.
inline constexpr unsigned MAX_SECURITY_LEVEL = 512;
inline constexpr unsigned MAX_NUM_VARIABLES = 30;
// Domain-separator DIGEST_ELEMS: 8 in whir-p3-metal's sweep and tests (spec §7.1).
inline constexpr unsigned DIGEST_ELEMS = 8;

// Ids are the ones absorbed into the domain separator (param(soundness id)).
enum class Soundness : uint32_t { UniqueDecoding = 0, JohnsonBound = 1, CapacityBound = 2 };
const char* to_string(Soundness s);                            // "ud" | "jb" | "cb"
const char* long_name(Soundness s);                            // "UniqueDecoding" | ...
std::optional<Soundness> parse_soundness(std::string_view s);  // "ud"|"jb"|"cb" (and the long names)

// Constant(k): every round folds k variables. ConstantFromSecondRound(k0, k): the first folds k0.
struct FoldingFactor {
  unsigned first = 4;
  unsigned rest = 4;
  bool from_second_round = false;

  static FoldingFactor constant(unsigned k) { return {k, k, false}; }
  static FoldingFactor constant_from_second_round(unsigned k0, unsigned k) { return {k0, k, true}; }
  unsigned at_round(size_t i) const { return i == 0 ? first : rest; }
  bool operator==(const FoldingFactor&) const = default;
};

struct ProtocolParameters {
  unsigned num_variables = 0;
  unsigned security_level = 100;
  unsigned pow_bits = 16;  // the PoW budget: credited to the query phases, reported (not enforced)
  FoldingFactor folding = FoldingFactor::constant(4);
  Soundness soundness = Soundness::UniqueDecoding;
  unsigned starting_log_inv_rate = 1;
  std::optional<unsigned> rs_reduction;  // first-round domain reduction; default min(k0, 3)
  bool enforce_pow_budget = false;       // reject configurations whose derived PoW exceeds pow_bits
};

struct RoundConfig {
  unsigned log_domain_size = 0;   // domain of the codeword this round's queries test
  unsigned folding_factor = 0;    // k_i: opened fibres hold 2^k_i values
  unsigned num_variables = 0;     // variables left after this round's folding
  unsigned domain_reduction = 0;  // red_i: the next domain is this one >> red_i
  size_t num_queries = 0;
  size_t ood_samples = 0;
  unsigned pow_bits = 0;
  unsigned folding_pow_bits = 0;
  BabyBear folded_domain_gen{};  // generator of order 2^(log_domain_size - folding_factor)

  uint64_t domain_size() const { return uint64_t(1) << log_domain_size; }
};

struct FinalConfig {
  unsigned log_domain_size = 0;
  unsigned folding_factor = 0;
  size_t num_queries = 0;
  unsigned pow_bits = 0;
  unsigned folding_pow_bits = 0;
  unsigned sumcheck_rounds = 0;
  BabyBear folded_domain_gen{};

  uint64_t domain_size() const { return uint64_t(1) << log_domain_size; }
};

// Every derived value of WhirConfig::new (spec §2.2), plus the shapes the prover and the proof
// format need. derive() throws Error(InvalidArgument) with an actionable message for the cases
// zkgpu rejects: security not above the PoW budget (the queries would be credited 0 bits: no
// query, nothing checked), a phase of 0 queries, rate 0 or above 27, fold 0 or fold > n,
// rs_reduction > k0, a folded domain beyond two-adicity 27, a derived PoW above 30 bits, a round
// schedule with a negative final round count, and (only with enforce_pow_budget) a derived PoW
// above the budget.
struct WhirConfig {
  ProtocolParameters params;  // with rs_reduction filled in
  unsigned rs_reduction = 0;
  size_t n_rounds = 0;
  unsigned final_sumcheck_rounds = 0;
  size_t commitment_ood_samples = 0;
  unsigned starting_folding_pow_bits = 0;
  std::vector<RoundConfig> rounds;
  FinalConfig final_round;
  unsigned max_fft_size = 0;  // n + r0 - k0

  static WhirConfig derive(const ProtocolParameters& p);

  unsigned num_variables() const { return params.num_variables; }
  unsigned log_starting_domain() const { return params.num_variables + params.starting_log_inv_rate; }
  // The largest PoW any phase grinds, and a line per phase above the budget (empty when none).
  unsigned max_derived_pow_bits() const;
  std::vector<std::string> pow_budget_violations() const;
  // Height (rows) of the Merkle tree committed in round i (i < n_rounds); the initial tree is
  // 2^(n + r0 - k0) rows.
  unsigned log_tree_height(size_t round) const;
};

// The DomainSeparator pattern of spec §7.1, as field elements (values < 2^32 and < p).
std::vector<BabyBear> domain_separator_pattern(const WhirConfig& cfg, unsigned digest_elems = DIGEST_ELEMS);

// An evaluation claim f^(point) = value, point in EF^n (x_0 = the MSB of the table index).
struct Claim {
  std::vector<BabyBear4> point;
  BabyBear4 value;
};

struct SumcheckData {
  std::vector<BabyBear4> h0, h2;        // one (h(0), h(2)) pair per round
  std::vector<BabyBear> pow_witnesses;  // one per round when that sumcheck's PoW > 0, else empty
};

struct RoundProof {
  Digest commitment{};
  std::vector<BabyBear4> ood_answers;
  BabyBear pow_witness = BabyBear::zero();  // zero (and absent from the file) when pow_bits == 0
  std::vector<MerkleOpening> queries;       // in ascending, deduplicated query order
  SumcheckData sumcheck;
};

struct Proof {
  Digest initial_commitment{};
  std::vector<BabyBear4> initial_ood_answers;
  SumcheckData initial_sumcheck;
  std::vector<RoundProof> rounds;
  std::vector<BabyBear4> final_poly;
  BabyBear final_pow_witness = BabyBear::zero();
  std::vector<MerkleOpening> final_queries;
  SumcheckData final_sumcheck;
};

// Multilinear extension of a table of 2^m values at an EF point of m coordinates (x_0 = MSB).
BabyBear4 evaluate_multilinear(std::span<const BabyBear> table, std::span<const BabyBear4> point);
BabyBear4 evaluate_multilinear(std::span<const BabyBear4> table, std::span<const BabyBear4> point);

// Backend::Auto proves on the GPU from this many variables up (per call: ProveOptions::gpu_crossover).
inline constexpr unsigned WHIR_GPU_CROSSOVER_VARS = 14;

// What travels with one prove.
struct ProveOptions {
  Backend backend = Backend::Auto;
  // Backend::Auto proves on the GPU from this many variables up.
  unsigned gpu_crossover = WHIR_GPU_CROSSOVER_VARS;
  // GPU prover: every stage call in the order they ran, each with its device time on the prover's
  // stream: "upload", "transpose", "lde", "merkle", "sumcheck", "weights", "ood-eval", "open",
  // "download", "gpu-pow", and "host" for the stream time between two stages (the host's
  // transcript, CPU PoW and fibre folds); wall_ms, the prove from the workspace's allocation on.
  // Appended to (one PhaseTimes can collect several proves) when the prove succeeds; the CPU
  // prover leaves it alone.
  PhaseTimes* phase_times = nullptr;
  // Set to the GPU's out-of-memory message when Backend::Auto took the GPU, the prover's tables did
  // not fit and the CPU proved instead; left alone otherwise.
  std::string* gpu_fallback = nullptr;
  // Bytes of device memory this prove may use; 0: what the device has free. The GPU prover keeps
  // every table of the prove on the device at once, so a prove that needs more is
  // Error(OutOfMemory) for Backend::Cuda (Backend::Auto proves on the CPU, as when the device is
  // full).
  uint64_t gpu_memory_budget = 0;
};

// Commits to the 2^n evaluations and proves the claims (each point of n coordinates; the values are
// taken as given: a false claim yields a proof the verifier rejects). The PoW is ground
// deterministically (smallest witness), so equal inputs give equal proofs, on either backend: the
// CPU and GPU provers write byte-identical proofs. Backend::Cuda proves on the GPU (the witness is
// uploaded once, only transcript values come back) and throws Error(Unavailable) without a usable
// GPU, Error(OutOfMemory) when the prover's tables do not fit in free device memory. Backend::Auto
// uses the GPU from options.gpu_crossover variables up and falls back to the CPU when the GPU is out
// of memory (options.gpu_fallback says so).
Proof prove(const WhirConfig& cfg, std::span<const BabyBear> evals, std::span<const Claim> claims,
            const ProveOptions& options);
// The same with the default options and this backend.
Proof prove(const WhirConfig& cfg, std::span<const BabyBear> evals, std::span<const Claim> claims,
            Backend backend = Backend::Auto);

struct VerifyResult {
  bool accepted = false;
  std::string reason;  // why it was rejected; empty when accepted
};
// Accepts when `proof` shows that the polynomial committed to by proof.initial_commitment takes
// the claimed values at the claimed points, under the configuration `cfg`, which the caller fixes:
// what is proven is only as strong as cfg's security, so cfg must be the caller's own choice,
// never read from the prover's file (docs/whir-verification.md). Rejects a statement of no claim.
// Checks every count against cfg before using it; never throws on a malformed proof.
[[nodiscard]] VerifyResult verify(const WhirConfig& cfg, std::span<const Claim> claims, const Proof& proof);

// The proof file: parameters, claims and proof (docs/whir-proof-format.md).
inline constexpr char PROOF_FILE_MAGIC[8] = {'Z', 'K', 'G', 'P', 'W', 'H', 'I', 'R'};
inline constexpr uint32_t PROOF_FILE_VERSION = 1;
// Magic, version, the ten parameter words and the claim count.
inline constexpr size_t PROOF_FILE_HEADER_BYTES = 52;
// Claims per proof (the prover and the file refuse more; a proof of no claim proves nothing).
inline constexpr size_t MAX_CLAIMS = 65536;

struct ProofFile {
  ProtocolParameters params;  // the verifier's (read_proof_file's `expected`), which the header matched
  std::vector<Claim> claims;
  Proof proof;
};
std::vector<uint8_t> write_proof_file(const WhirConfig& cfg, std::span<const Claim> claims, const Proof& proof);
// Parses a proof file against the verifier's own configuration: the header must repeat
// `expected`'s parameters exactly (the first differing field is named), and every count of the
// proof comes from `expected`, never from the file. Error(InvalidArgument) naming the offending
// field and byte offset on any malformed input: bad magic or version, parameters other than
// `expected`'s, a claim count outside 1..MAX_CLAIMS, a count that disagrees with the parameters,
// non-canonical field elements, truncation or trailing bytes.
ProofFile read_proof_file(std::span<const uint8_t> bytes, const WhirConfig& expected);
// The parameters a file's header states (checked to derive a valid configuration), for tools that
// report what a file claims, e.g. to say which flags a mismatching proof was made with. Never use
// it to choose the configuration a proof is verified under.
ProtocolParameters read_proof_header(std::span<const uint8_t> bytes);
// The first field in which a header's parameters differ from `expected`, as a sentence; nullopt
// when they agree.
std::optional<std::string> header_mismatch(const ProtocolParameters& header, const WhirConfig& expected);
// An upper bound on the size of a proof file of `num_claims` claims under `cfg` (every query
// opened, none deduplicated): a larger input is refused before it is read.
uint64_t max_proof_file_size(const WhirConfig& cfg, size_t num_claims);

}  // namespace zkgpu::whir
