// The WHIR prover on the CPU (spec §3-§4, transcript §7.2).
#include <optional>
#include <string>

#include "whir/poly.hpp"
#include "whir/transcript.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

using poly::EF;

// Reshape the 2^m table to 2^k columns (row j, column c holds T[c 2^(m-k) + j]), zero-pad to
// 2^log_height rows and evaluate each column over the subgroup of that order (spec §3).
template <class T>
std::vector<T> encode(std::span<const T> table, unsigned m, unsigned k, unsigned log_height) {
  const size_t cols = size_t(1) << k, rows = size_t(1) << (m - k), height = size_t(1) << log_height;
  std::vector<T> mat(height * cols);  // zero-initialised: BabyBear{0} is zero
#pragma omp parallel for schedule(static) if (rows * cols >= (size_t(1) << 14))
  for (size_t j = 0; j < rows; ++j)
    for (size_t c = 0; c < cols; ++c) mat[j * cols + c] = table[c * rows + j];
  ntt(std::span<T>(mat), log_height, cols, NttDirection::Forward, BabyBear::one(), Backend::Cpu);
  return mat;
}

struct SumcheckProver {
  DuplexChallenger& ch;
  std::vector<EF> w;     // the combined weight table
  EF claim;              // running claim (kept to check the prover's own consistency)
  std::vector<EF> t_ef;  // the table once the first variable has been bound
  std::vector<EF> rand;  // challenges of the current batch of rounds, in binding order

  void round(std::span<const BabyBear> t_base, bool base, unsigned pow_bits, SumcheckData& out) {
    auto [h0, h2] = base ? poly::sumcheck_coeffs(t_base, w) : poly::sumcheck_coeffs(std::span<const EF>(t_ef), w);
    ch.observe(h0);
    ch.observe(h2);
    out.h0.push_back(h0);
    out.h2.push_back(h2);
    if (pow_bits > 0) out.pow_witnesses.push_back(BabyBear::from_canonical(ch.grind(pow_bits, Backend::Cpu, true)));
    const EF r = ch.sample_ext();
    const EF h1 = claim - h0;
    claim = poly::interpolate_012(h0, h1, h2, r);
    if (base) t_ef = poly::fold(t_base, r);
    else poly::fold_in_place(t_ef, r);
    poly::fold_in_place(w, r);
    rand.push_back(r);
  }
};

// Multilinear evaluation of one opened fibre at the folding randomness (MSB first).
EF fold_fibre(const MerkleOpening& o, bool ext, std::span<const EF> rand) {
  if (!ext) return poly::evaluate(std::span<const BabyBear>(o.row), rand);
  std::vector<EF> v(o.row.size() / 4);
  for (size_t i = 0; i < v.size(); ++i) v[i] = EF{{o.row[4 * i], o.row[4 * i + 1], o.row[4 * i + 2], o.row[4 * i + 3]}};
  return poly::evaluate(std::span<const EF>(v), rand);
}

}  // namespace

Proof prove(const WhirConfig& cfg, std::span<const BabyBear> evals, std::span<const Claim> claims, Backend backend) {
  if (backend == Backend::Cuda)
    throw Error(ErrorCode::Unavailable, "the GPU WHIR prover is not built yet; use --backend cpu");
  const unsigned n = cfg.num_variables();
  if (evals.size() != (size_t(1) << n))
    throw_invalid("WHIR prove: the polynomial has " + std::to_string(evals.size()) + " evaluations, expected 2^" +
                  std::to_string(n) + " = " + std::to_string(size_t(1) << n));
  for (size_t i = 0; i < claims.size(); ++i)
    if (claims[i].point.size() != n)
      throw_invalid("WHIR prove: claim " + std::to_string(i) + " has a point of " +
                    std::to_string(claims[i].point.size()) + " coordinates, expected " + std::to_string(n));
  const auto& p2 = detail::whir_poseidon2();
  const FoldingFactor& ff = cfg.params.folding;
  const unsigned k0 = ff.at_round(0);

  Proof proof;
  DuplexChallenger ch = detail::start_transcript(cfg);

  // Commitment.
  std::optional<MerkleTree> prev_tree =
      MerkleTree::build(encode<BabyBear>(evals, n, k0, cfg.max_fft_size), size_t(1) << cfg.max_fft_size,
                        size_t(1) << k0, p2, Backend::Cpu);
  bool prev_ext = false;
  proof.initial_commitment = prev_tree->root();
  ch.observe(proof.initial_commitment);
  std::vector<std::vector<EF>> eq_points;
  std::vector<EF> eq_values;
  for (const Claim& c : claims) {
    eq_points.push_back(c.point);
    eq_values.push_back(c.value);
  }
  for (size_t s = 0; s < cfg.commitment_ood_samples; ++s) {
    const EF z = ch.sample_ext();
    std::vector<EF> pt = poly::expand_from_univariate(z, n);
    const EF v = poly::evaluate(evals, pt);
    ch.observe(v);
    proof.initial_ood_answers.push_back(v);
    eq_points.push_back(std::move(pt));
    eq_values.push_back(v);
  }
  detail::absorb_claims(ch, claims);

  // Initial combination and sumcheck.
  SumcheckProver sc{ch, std::vector<EF>(size_t(1) << n, EF::zero()), EF::zero(), {}, {}};
  {
    const EF alpha = ch.sample_ext();
    EF a = EF::one();
    for (size_t i = 0; i < eq_points.size(); ++i) {
      poly::add_eq_weights(sc.w, eq_points[i], a);
      sc.claim += a * eq_values[i];
      a *= alpha;
    }
  }
  for (unsigned j = 0; j < k0; ++j) sc.round(evals, j == 0, cfg.starting_folding_pow_bits, proof.initial_sumcheck);

  unsigned m = n - k0;
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const RoundConfig& rc = cfg.rounds[i];
    const unsigned k_next = ff.at_round(i + 1);
    RoundProof rp;
    std::vector<EF> enc = encode<EF>(sc.t_ef, m, k_next, cfg.log_tree_height(i));
    MerkleTree tree = MerkleTree::build(std::span<const EF>(enc), enc.size() >> k_next, size_t(1) << k_next, p2,
                                        Backend::Cpu);
    enc = {};
    rp.commitment = tree.root();
    ch.observe(rp.commitment);
    std::vector<std::vector<EF>> ood_points;
    std::vector<EF> values;
    for (size_t s = 0; s < rc.ood_samples; ++s) {
      const EF z = ch.sample_ext();
      std::vector<EF> pt = poly::expand_from_univariate(z, m);
      const EF v = poly::evaluate(std::span<const EF>(sc.t_ef), pt);
      ch.observe(v);
      rp.ood_answers.push_back(v);
      ood_points.push_back(std::move(pt));
      values.push_back(v);
    }
    if (rc.pow_bits > 0) rp.pow_witness = BabyBear::from_canonical(ch.grind(rc.pow_bits, Backend::Cpu, true));
    (void)ch.sample();  // 090b's TranscriptCheckpoint: sampled and discarded
    const std::vector<size_t> idx = detail::stir_query_indices(ch, rc.log_domain_size, rc.folding_factor, rc.num_queries);
    std::vector<BabyBear> zs;
    for (size_t q : idx) {
      MerkleOpening o = prev_tree->open(q);
      values.push_back(fold_fibre(o, prev_ext, sc.rand));
      zs.push_back(rc.folded_domain_gen.pow(q));
      rp.queries.push_back(std::move(o));
    }
    const EF gamma = ch.sample_ext();
    EF g = EF::one();
    for (size_t s = 0; s < ood_points.size(); ++s) {
      poly::add_eq_weights(sc.w, ood_points[s], g);
      g *= gamma;
    }
    std::vector<EF> coeffs;
    for (size_t l = 0; l < zs.size(); ++l) {
      coeffs.push_back(g);
      g *= gamma;
    }
    poly::add_select_weights(sc.w, zs, coeffs);
    g = EF::one();
    for (const EF& v : values) {
      sc.claim += g * v;
      g *= gamma;
    }
    sc.rand.clear();
    for (unsigned j = 0; j < k_next; ++j) sc.round({}, false, rc.folding_pow_bits, rp.sumcheck);
    m -= k_next;
    prev_tree.emplace(std::move(tree));
    prev_ext = true;
    proof.rounds.push_back(std::move(rp));
  }

  // Final round: the polynomial in the clear, PoW, queries, then the remaining sumcheck.
  const FinalConfig& fc = cfg.final_round;
  proof.final_poly = sc.t_ef;
  for (const EF& v : proof.final_poly) ch.observe(v);
  if (fc.pow_bits > 0) proof.final_pow_witness = BabyBear::from_canonical(ch.grind(fc.pow_bits, Backend::Cpu, true));
  for (size_t q : detail::stir_query_indices(ch, fc.log_domain_size, fc.folding_factor, fc.num_queries))
    proof.final_queries.push_back(prev_tree->open(q));
  for (unsigned j = 0; j < cfg.final_sumcheck_rounds; ++j) sc.round({}, false, fc.folding_pow_bits, proof.final_sumcheck);
  // An honest prover's last claim is W(r) T(r); a mismatch means a false claim was given.
  if (sc.claim != sc.w[0] * sc.t_ef[0])
    throw_invalid("WHIR prove: the claimed evaluations are not those of the polynomial (the sumcheck does not close)");
  return proof;
}

}  // namespace zkgpu::whir
