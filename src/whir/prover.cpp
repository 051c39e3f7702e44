// The WHIR prover's transcript logic (spec §3-§4, transcript §7.2), written once over the
// ProverBackend interface; the tables live on the CPU or the GPU backend.
#include <optional>
#include <string>

#include "whir/poly.hpp"
#include "whir/prover_backend.hpp"
#include "whir/transcript.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"
#if ZKGPU_HAVE_CUDA
#include "whir/cuda/backend.hpp"
#endif

namespace zkgpu::whir {
namespace detail {

ProverShape prover_shape(const WhirConfig& cfg) {
  ProverShape s;
  const unsigned n = cfg.num_variables();
  const FoldingFactor& ff = cfg.params.folding;
  s.num_variables = n;
  s.commits.push_back({n, ff.at_round(0), cfg.max_fft_size, false});
  unsigned m = n - ff.at_round(0);
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const unsigned k = ff.at_round(i + 1);
    s.commits.push_back({m, k, cfg.log_tree_height(i), true});
    m -= k;
  }
  return s;
}

}  // namespace detail

namespace {

using detail::ProverBackend;
using poly::EF;

// The challenger's grind(bits), with the search done where the backend says.
uint32_t grind(DuplexChallenger& ch, ProverBackend& be, unsigned bits) {
  const std::optional<uint32_t> w = be.grind(ch.pow_input(bits));
  if (!w) return ch.grind(bits, Backend::Cpu, true);
  if (!ch.check_witness(bits, BabyBear::from_canonical(*w)))
    throw Error(ErrorCode::CudaError, "WHIR prove: the GPU proof-of-work search returned w = " + std::to_string(*w) +
                                          ", which fails check_witness (a zkgpu bug; retry with the CPU backend)");
  return *w;
}

struct Sumcheck {
  DuplexChallenger& ch;
  ProverBackend& be;
  EF claim = EF::zero();  // running claim (kept to check the prover's own consistency)
  std::vector<EF> rand;   // challenges of the current batch of rounds, in binding order

  void round(unsigned pow_bits, SumcheckData& out) {
    const auto [h0, h2] = be.sumcheck_coeffs();
    ch.observe(h0);
    ch.observe(h2);
    out.h0.push_back(h0);
    out.h2.push_back(h2);
    if (pow_bits > 0) out.pow_witnesses.push_back(BabyBear::from_canonical(grind(ch, be, pow_bits)));
    const EF r = ch.sample_ext();
    claim = poly::interpolate_012(h0, claim - h0, h2, r);
    be.bind(r);
    rand.push_back(r);
  }
};

// Multilinear evaluation of one opened fibre at the folding randomness (MSB first).
// Out-of-domain samples of the current table (m variables): each z comes from the transcript, the
// answer f̂(expand(z, m)) is observed, sent, and kept as an eq constraint.
void sample_ood(DuplexChallenger& ch, ProverBackend& be, size_t count, unsigned m, std::vector<EF>& answers,
                std::vector<std::vector<EF>>& points, std::vector<EF>& values) {
  for (size_t s = 0; s < count; ++s) {
    const EF z = ch.sample_ext();
    std::vector<EF> pt = poly::expand_from_univariate(z, m);
    const EF v = be.evaluate(pt);
    ch.observe(v);
    answers.push_back(v);
    points.push_back(std::move(pt));
    values.push_back(v);
  }
}

}  // namespace

namespace detail {

Proof prove_with_backend(const WhirConfig& cfg, ProverBackend& be, std::span<const Claim> claims) {
  const unsigned n = cfg.num_variables();
  const FoldingFactor& ff = cfg.params.folding;
  const unsigned k0 = ff.at_round(0);

  Proof proof;
  DuplexChallenger ch = detail::start_transcript(cfg);

  // Commitment.
  proof.initial_commitment = be.commit(k0, cfg.max_fft_size);
  size_t prev_tree = 0;
  bool prev_ext = false;
  ch.observe(proof.initial_commitment);
  std::vector<std::vector<EF>> eq_points;
  std::vector<EF> eq_values;
  for (const Claim& c : claims) {
    eq_points.push_back(c.point);
    eq_values.push_back(c.value);
  }
  sample_ood(ch, be, cfg.commitment_ood_samples, n, proof.initial_ood_answers, eq_points, eq_values);
  detail::absorb_claims(ch, claims);

  // Initial combination and sumcheck.
  Sumcheck sc{ch, be, EF::zero(), {}};
  {
    const EF alpha = ch.sample_ext();
    std::vector<EF> scales;
    EF a = EF::one();
    for (size_t i = 0; i < eq_points.size(); ++i) {
      scales.push_back(a);
      sc.claim += a * eq_values[i];
      a *= alpha;
    }
    be.add_weights(eq_points, scales, {}, {});
  }
  for (unsigned j = 0; j < k0; ++j) sc.round(cfg.starting_folding_pow_bits, proof.initial_sumcheck);

  unsigned m = n - k0;
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const RoundConfig& rc = cfg.rounds[i];
    const unsigned k_next = ff.at_round(i + 1);
    RoundProof rp;
    rp.commitment = be.commit(k_next, cfg.log_tree_height(i));
    ch.observe(rp.commitment);
    std::vector<std::vector<EF>> ood_points;
    std::vector<EF> values;
    sample_ood(ch, be, rc.ood_samples, m, rp.ood_answers, ood_points, values);
    if (rc.pow_bits > 0) rp.pow_witness = BabyBear::from_canonical(grind(ch, be, rc.pow_bits));
    (void)ch.sample();  // 090b's TranscriptCheckpoint: sampled and discarded
    const std::vector<size_t> idx =
        detail::stir_query_indices(ch, rc.log_domain_size, rc.folding_factor, rc.num_queries);
    rp.queries = be.open(prev_tree, idx);
    std::vector<BabyBear> zs;
    for (size_t l = 0; l < idx.size(); ++l) {
      values.push_back(opened_fibre_value(rp.queries[l], prev_ext, sc.rand));
      zs.push_back(rc.folded_domain_gen.pow(idx[l]));
    }
    const EF gamma = ch.sample_ext();
    std::vector<EF> eq_scales, select_scales;
    EF g = EF::one();
    for (size_t s = 0; s < ood_points.size(); ++s, g *= gamma) eq_scales.push_back(g);
    for (size_t l = 0; l < zs.size(); ++l, g *= gamma) select_scales.push_back(g);
    be.add_weights(ood_points, eq_scales, zs, select_scales);
    g = EF::one();
    for (const EF& v : values) {
      sc.claim += g * v;
      g *= gamma;
    }
    sc.rand.clear();
    for (unsigned j = 0; j < k_next; ++j) sc.round(rc.folding_pow_bits, rp.sumcheck);
    m -= k_next;
    prev_tree = i + 1;
    prev_ext = true;
    proof.rounds.push_back(std::move(rp));
  }

  // Final round: the polynomial in the clear, PoW, queries, then the remaining sumcheck.
  const FinalConfig& fc = cfg.final_round;
  proof.final_poly = be.table();
  for (const EF& v : proof.final_poly) ch.observe(v);
  if (fc.pow_bits > 0) proof.final_pow_witness = BabyBear::from_canonical(grind(ch, be, fc.pow_bits));
  const std::vector<size_t> idx = detail::stir_query_indices(ch, fc.log_domain_size, fc.folding_factor, fc.num_queries);
  proof.final_queries = be.open(prev_tree, idx);
  for (unsigned j = 0; j < cfg.final_sumcheck_rounds; ++j) sc.round(fc.folding_pow_bits, proof.final_sumcheck);
  // An honest prover's last claim is W(r) T(r); a mismatch means a false claim was given.
  const std::vector<EF> t_last = be.table(), w_last = be.weights();
  if (t_last.size() != 1 || w_last.size() != 1 || sc.claim != w_last[0] * t_last[0])
    throw_invalid("WHIR prove: the claimed evaluations are not those of the polynomial (the sumcheck does not close)");
  return proof;
}

}  // namespace detail

Proof prove(const WhirConfig& cfg, std::span<const BabyBear> evals, std::span<const Claim> claims,
            const ProveOptions& options) {
  const unsigned n = cfg.num_variables();
  if (evals.size() != (size_t(1) << n))
    throw_invalid("WHIR prove: the polynomial has " + std::to_string(evals.size()) + " evaluations, expected 2^" +
                  std::to_string(n) + " = " + std::to_string(size_t(1) << n));
  if (claims.empty() || claims.size() > MAX_CLAIMS)
    throw_invalid("WHIR prove: " + std::to_string(claims.size()) + " evaluation claims, expected 1.." +
                  std::to_string(MAX_CLAIMS) + " (a proof of no claim proves nothing)");
  for (size_t i = 0; i < claims.size(); ++i)
    if (claims[i].point.size() != n)
      throw_invalid("WHIR prove: claim " + std::to_string(i) + " has a point of " +
                    std::to_string(claims[i].point.size()) + " coordinates, expected " + std::to_string(n));
  // Throws Error(Unavailable) for an explicit Cuda request without a usable GPU.
  const Backend used = resolve_backend(options.backend, n, options.gpu_crossover);
  if (used == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    try {
      const std::unique_ptr<ProverBackend> be =
          cuda::make_backend(evals, detail::prover_shape(cfg), detail::whir_poseidon2(),
                             {.phase_times = options.phase_times, .memory_budget = options.gpu_memory_budget});
      return detail::prove_with_backend(cfg, *be, claims);
    } catch (const Error& e) {
      if (options.backend != Backend::Auto || e.code() != ErrorCode::OutOfMemory) throw;
      if (options.gpu_fallback) *options.gpu_fallback = e.what();
    }
#else
    throw Error(ErrorCode::Unavailable, "WHIR prove: this build has no CUDA backend; use Backend::Cpu");
#endif
  }
  const std::unique_ptr<ProverBackend> be = detail::make_cpu_backend(evals);
  return detail::prove_with_backend(cfg, *be, claims);
}

Proof prove(const WhirConfig& cfg, std::span<const BabyBear> evals, std::span<const Claim> claims, Backend backend) {
  return prove(cfg, evals, claims, ProveOptions{.backend = backend});
}

}  // namespace zkgpu::whir
