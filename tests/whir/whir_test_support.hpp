// Shared by the WHIR test files: parameter sets and random claims.
#pragma once
#include <span>
#include <vector>

#include "support/test_support.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::test {

using whir::Claim;
using whir::FoldingFactor;
using whir::ProtocolParameters;
using whir::Soundness;

inline ProtocolParameters make_params(unsigned n, FoldingFactor f, unsigned rate, Soundness s, unsigned lambda = 100,
                                      unsigned budget = 16) {
  ProtocolParameters p;
  p.num_variables = n;
  p.folding = f;
  p.starting_log_inv_rate = rate;
  p.soundness = s;
  p.security_level = lambda;
  p.pow_bits = budget;
  return p;
}

// `count` claims at random extension-field points, with their true values.
inline std::vector<Claim> random_claims(Rng& rng, std::span<const BabyBear> evals, unsigned n, size_t count) {
  std::vector<Claim> cs(count);
  for (Claim& c : cs) {
    for (unsigned i = 0; i < n; ++i) c.point.push_back(rng.fe4());
    c.value = whir::evaluate_multilinear(evals, c.point);
  }
  return cs;
}

}  // namespace zkgpu::test
