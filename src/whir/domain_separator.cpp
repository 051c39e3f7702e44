// p3-whir 090b DomainSeparator (spec §7.1): a list of labels, each one field element
// label + count + kind, absorbed into the fresh challenger before the first commitment.
#include <bit>

#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

enum Kind : uint64_t { Sample = 0, Observe = 1, Hint = 2 };
enum SampleLabel : uint64_t {
  InitialCombinationRandomness = 0,
  FoldingRandomness = 1,
  CombinationRandomness = 2,
  StirQueries = 3,
  FinalQueries = 4,
  PowQueries = 5,
  OodQuery = 6,
  TranscriptCheckpoint = 7
};
enum ObserveLabel : uint64_t {
  MerkleDigest = 0,
  OodAnswers = 1,
  SumcheckPoly = 2,
  StirAnswersObs = 3,
  FinalCoeffs = 4,
  PowNonce = 5,
  ProtocolParam = 6
};
enum HintLabel : uint64_t {
  HintStirQueries = 0,
  HintStirAnswers = 1,
  HintMerkleProof = 2,
  DeferredWeightEvaluations = 3
};

struct Pattern {
  std::vector<uint64_t> v;
  void sample(uint64_t count, uint64_t label) { v.push_back(label + count + Sample); }
  void observe(uint64_t count, uint64_t label) { v.push_back(label + count + Observe); }
  void hint(uint64_t label) { v.push_back(label + Hint); }
  void param(uint64_t x) {
    v.push_back(uint64_t{ProtocolParam} + uint64_t{Observe});
    v.push_back(x);
  }
  void ood(size_t s) {
    if (s == 0) return;
    sample(s, OodQuery);
    observe(s, OodAnswers);
  }
  void pow(unsigned bits) {
    if (bits == 0) return;
    sample(32, PowQueries);
    observe(8, PowNonce);
  }
  void sumcheck(unsigned rounds, unsigned pow_bits) {
    for (unsigned i = 0; i < rounds; ++i) {
      observe(2, SumcheckPoly);
      sample(1, FoldingRandomness);
      pow(pow_bits);
    }
  }
};

// ceil(floor(log2(2N - 1)) / 8): the bytes 090b's pattern reserves per query index.
uint64_t query_bytes(uint64_t n) {
  const uint64_t bits = std::bit_width(2 * n - 1) - 1;
  return (bits + 7) / 8;
}

}  // namespace

std::vector<BabyBear> domain_separator_pattern(const WhirConfig& c, unsigned digest_elems) {
  const ProtocolParameters& p = c.params;
  Pattern pt;
  pt.param(p.num_variables);
  pt.param(p.security_level);
  pt.param(p.starting_log_inv_rate);
  pt.param(p.pow_bits);
  pt.param(static_cast<uint64_t>(p.soundness));
  if (!p.folding.from_second_round) {
    pt.param(0);
    pt.param(p.folding.first);
  } else {
    pt.param(1);
    pt.param(p.folding.first);
    pt.param(p.folding.rest);
  }
  pt.observe(digest_elems, MerkleDigest);
  pt.ood(c.commitment_ood_samples);

  pt.sample(1, InitialCombinationRandomness);
  pt.sumcheck(p.folding.at_round(0), c.starting_folding_pow_bits);
  for (size_t i = 0; i < c.rounds.size(); ++i) {
    const RoundConfig& r = c.rounds[i];
    pt.observe(digest_elems, MerkleDigest);
    pt.ood(r.ood_samples);
    pt.pow(r.pow_bits);
    pt.sample(1, TranscriptCheckpoint);
    pt.sample(r.num_queries * query_bytes(r.domain_size() >> r.folding_factor), StirQueries);
    pt.hint(HintStirQueries);
    pt.hint(HintMerkleProof);
    pt.sample(1, CombinationRandomness);
    pt.sumcheck(p.folding.at_round(i + 1), r.folding_pow_bits);
  }
  const FinalConfig& f = c.final_round;
  pt.observe(uint64_t(1) << c.final_sumcheck_rounds, FinalCoeffs);
  pt.pow(f.pow_bits);
  pt.sample(query_bytes(f.domain_size() >> f.folding_factor) * f.num_queries, FinalQueries);
  pt.hint(HintStirAnswers);
  pt.hint(HintMerkleProof);
  pt.sumcheck(c.final_sumcheck_rounds, f.folding_pow_bits);
  pt.hint(DeferredWeightEvaluations);

  std::vector<BabyBear> out;
  out.reserve(pt.v.size());
  for (uint64_t x : pt.v) out.push_back(BabyBear::from_u64(x));
  return out;
}

}  // namespace zkgpu::whir
