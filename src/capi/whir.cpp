// The C ABI's WHIR commitment (include/zkgpu.h), over include/zkgpu/whir.hpp: parameters as a C
// struct, the proof as an opaque handle holding the proof file's bytes, verification of those
// bytes against the verifier's own parameters, claims and root.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capi/babybear.hpp"
#include "capi/capi.hpp"
#include "zkgpu/whir.hpp"

struct zkgpu_whir_proof {
  std::vector<uint8_t> file;
  zkgpu::Digest root;
};

using namespace zkgpu;
using namespace zkgpu::capi;

namespace {

whir::ProtocolParameters params_of(const zkgpu_whir_params* c) {
  require(c, "params");
  whir::ProtocolParameters p;
  p.num_variables = c->num_variables;
  p.security_level = c->security_level;
  p.pow_bits = c->pow_bits;
  p.folding = flag_of(c->folding_from_second_round, "params.folding_from_second_round")
                  ? whir::FoldingFactor::constant_from_second_round(c->first_folding_factor, c->folding_factor)
                  : whir::FoldingFactor::constant(c->folding_factor);
  static_assert(ZKGPU_WHIR_UNIQUE_DECODING == 0 && ZKGPU_WHIR_JOHNSON_BOUND == 1 && ZKGPU_WHIR_CAPACITY_BOUND == 2);
  constexpr whir::Soundness soundness[] = {whir::Soundness::UniqueDecoding, whir::Soundness::JohnsonBound,
                                           whir::Soundness::CapacityBound};
  p.soundness = enum_of(c->soundness, soundness, "params.soundness", "zkgpu_whir_soundness",
                        "0 UNIQUE_DECODING, 1 JOHNSON_BOUND, 2 CAPACITY_BOUND");
  p.starting_log_inv_rate = c->starting_log_inv_rate;
  if (c->rs_reduction < -1)
    throw_invalid("params.rs_reduction is " + std::to_string(c->rs_reduction) + " (-1 for the default, else >= 0)");
  if (c->rs_reduction >= 0) p.rs_reduction = static_cast<unsigned>(c->rs_reduction);
  p.enforce_pow_budget = flag_of(c->enforce_pow_budget, "params.enforce_pow_budget");
  return p;
}

whir::WhirConfig config_of(const zkgpu_whir_params* c) { return whir::WhirConfig::derive(params_of(c)); }

// The caller's claims (its statement: a bad word or count is an error).
std::vector<whir::Claim> claims_of(const whir::WhirConfig& cfg, const uint32_t* points, const uint32_t* values,
                                   size_t num_claims, Repr r) {
  if (num_claims == 0 || num_claims > whir::MAX_CLAIMS)
    throw_invalid("num_claims is " + std::to_string(num_claims) + ", not in 1.." + std::to_string(whir::MAX_CLAIMS) +
                  " (a proof of no claim proves nothing)");
  const size_t n = cfg.num_variables();
  require(points, num_claims * n * 4, "points");
  require(values, num_claims * 4, "values");
  const std::vector<BabyBear4> pts = read_ext(points, num_claims * n, r, "points");
  const std::vector<BabyBear4> vals = read_ext(values, num_claims, r, "values");
  std::vector<whir::Claim> claims(num_claims);
  for (size_t c = 0; c < num_claims; ++c) {
    claims[c].point.assign(pts.begin() + c * n, pts.begin() + (c + 1) * n);
    claims[c].value = vals[c];
  }
  return claims;
}

// Why the proof file's statement is not the verifier's; empty when it is.
std::string statement_mismatch(const whir::ProofFile& pf, const std::vector<whir::Claim>& claims,
                               const Digest* expected_root) {
  if (expected_root && pf.proof.initial_commitment != *expected_root)
    return "the proof commits to another root than the expected one";
  if (pf.claims.size() != claims.size())
    return "the proof holds " + std::to_string(pf.claims.size()) + " claim(s), the verifier's statement " +
           std::to_string(claims.size());
  for (size_t i = 0; i < claims.size(); ++i)
    if (pf.claims[i].point != claims[i].point || pf.claims[i].value != claims[i].value)
      return "claim " + std::to_string(i) + " of the proof is not the verifier's claim " + std::to_string(i);
  return {};
}

// The reason of a verdict: NUL-terminated, truncated to the caller's buffer.
void write_reason(const std::string& reason, char* out, size_t out_len) {
  if (out_len == 0) return;
  const size_t k = std::min(reason.size(), out_len - 1);
  std::memcpy(out, reason.data(), k);
  out[k] = '\0';
}

}  // namespace

extern "C" {

zkgpu_status zkgpu_whir_params_init(zkgpu_whir_params* params, uint32_t num_variables) {
  return guarded([&] {
    require(params, "params");
    const whir::ProtocolParameters d;
    *params = {};
    params->num_variables = num_variables;
    params->security_level = d.security_level;
    params->pow_bits = d.pow_bits;
    params->folding_factor = d.folding.rest;
    params->first_folding_factor = d.folding.first;
    params->folding_from_second_round = d.folding.from_second_round ? 1 : 0;
    params->soundness = ZKGPU_WHIR_UNIQUE_DECODING;
    params->starting_log_inv_rate = d.starting_log_inv_rate;
    params->rs_reduction = -1;
    params->enforce_pow_budget = d.enforce_pow_budget ? 1 : 0;
  });
}

zkgpu_status zkgpu_whir_derive(const zkgpu_whir_params* params, zkgpu_whir_config* config) {
  return guarded([&] {
    require(config, "config");
    const whir::WhirConfig c = config_of(params);
    zkgpu_whir_config out{};
    out.num_variables = c.num_variables();
    out.num_evaluations = uint64_t{1} << c.num_variables();
    out.rs_reduction = c.rs_reduction;
    out.n_rounds = static_cast<uint32_t>(c.n_rounds);
    out.final_sumcheck_rounds = c.final_sumcheck_rounds;
    out.commitment_ood_samples = static_cast<uint32_t>(c.commitment_ood_samples);
    out.starting_folding_pow_bits = c.starting_folding_pow_bits;
    out.log_starting_domain = c.log_starting_domain();
    out.max_fft_log_size = c.max_fft_size;
    out.final_num_queries = static_cast<uint32_t>(c.final_round.num_queries);
    out.max_derived_pow_bits = c.max_derived_pow_bits();
    out.pow_budget_exceeded = c.pow_budget_violations().empty() ? 0 : 1;
    *config = out;
  });
}

zkgpu_status zkgpu_whir_max_proof_size(const zkgpu_whir_params* params, size_t num_claims, uint64_t* bytes) {
  return guarded([&] {
    require(bytes, "bytes");
    const whir::WhirConfig c = config_of(params);
    if (num_claims == 0 || num_claims > whir::MAX_CLAIMS)
      throw_invalid("num_claims is " + std::to_string(num_claims) + ", not in 1.." + std::to_string(whir::MAX_CLAIMS));
    *bytes = whir::max_proof_file_size(c, num_claims);
  });
}

zkgpu_status zkgpu_whir_prove(const zkgpu_whir_params* params, const uint32_t* evals, size_t num_evals,
                              const uint32_t* points, const uint32_t* values, size_t num_claims,
                              zkgpu_babybear_repr repr, zkgpu_backend backend, zkgpu_whir_proof** out_proof) {
  return guarded([&] {
    require(out_proof, "out_proof");
    *out_proof = nullptr;
    const Backend b = backend_of(backend);
    const Repr r = repr_of(repr);
    const whir::WhirConfig cfg = config_of(params);
    const uint64_t want = uint64_t{1} << cfg.num_variables();
    if (num_evals != want)
      throw_invalid("num_evals is " + std::to_string(num_evals) + ", the parameters take 2^" +
                    std::to_string(cfg.num_variables()) + " = " + std::to_string(want));
    require(evals, num_evals, "evals");
    const std::vector<whir::Claim> claims = claims_of(cfg, points, values, num_claims, r);
    const FieldInput input(evals, num_evals, r, "evals");
    const whir::Proof proof = whir::prove(cfg, input.span(), claims, b);
    auto handle = std::make_unique<zkgpu_whir_proof>();
    handle->file = whir::write_proof_file(cfg, claims, proof);
    handle->root = proof.initial_commitment;
    *out_proof = handle.release();
  });
}

void zkgpu_whir_proof_free(zkgpu_whir_proof* proof) { delete proof; }

zkgpu_status zkgpu_whir_proof_size(const zkgpu_whir_proof* proof, size_t* bytes) {
  return guarded([&] {
    require(proof, "proof");
    require(bytes, "bytes");
    *bytes = proof->file.size();
  });
}

zkgpu_status zkgpu_whir_proof_write(const zkgpu_whir_proof* proof, uint8_t* out, size_t out_len) {
  return guarded([&] {
    require(proof, "proof");
    if (out_len < proof->file.size())
      throw_invalid("out_len is " + std::to_string(out_len) + " bytes, the proof needs " +
                    std::to_string(proof->file.size()) + " (zkgpu_whir_proof_size)");
    require(out, out_len, "out");
    std::memcpy(out, proof->file.data(), proof->file.size());
  });
}

zkgpu_status zkgpu_whir_proof_root(const zkgpu_whir_proof* proof, zkgpu_babybear_repr repr, uint32_t* root) {
  return guarded([&] {
    require(proof, "proof");
    require(root, "root");
    write_digest(proof->root, root, repr_of(repr));
  });
}

zkgpu_status zkgpu_whir_verify(const zkgpu_whir_params* params, const uint32_t* points, const uint32_t* values,
                               size_t num_claims, const uint32_t* expected_root, zkgpu_babybear_repr repr,
                               const uint8_t* proof, size_t proof_len, uint8_t* accepted, char* reason,
                               size_t reason_len) {
  return guarded([&] {
    require(accepted, "accepted");
    require(reason, reason_len, "reason");
    const Repr r = repr_of(repr);
    const whir::WhirConfig cfg = config_of(params);
    const std::vector<whir::Claim> claims = claims_of(cfg, points, values, num_claims, r);
    Digest root{};
    if (expected_root) root = read_digest(expected_root, r, "expected_root");
    require(proof, proof_len, "proof");
    // From here on every problem is the proof's: a verdict, not an error.
    std::string why;
    whir::ProofFile pf;
    try {
      pf = whir::read_proof_file({proof, proof_len}, cfg);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::InvalidArgument) throw;
      why = std::string("malformed proof: ") + e.what();
    }
    if (why.empty()) why = statement_mismatch(pf, claims, expected_root ? &root : nullptr);
    if (why.empty()) {
      const whir::VerifyResult v = whir::verify(cfg, claims, pf.proof);
      if (!v.accepted) why = v.reason.empty() ? "rejected" : v.reason;
    }
    *accepted = why.empty() ? 1 : 0;
    write_reason(why, reason, reason_len);
  });
}

}  // extern "C"
