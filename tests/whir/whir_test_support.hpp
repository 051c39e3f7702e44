// Shared by the WHIR test files: parameter sets, random claims and random instances.
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
using whir::WhirConfig;

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

// The configuration of p, 2^n random evaluations and `count` true claims about them, drawn from
// rng in that order.
struct Instance {
  WhirConfig cfg;
  std::vector<BabyBear> evals;
  std::vector<Claim> claims;
};
inline Instance random_instance(Rng& rng, const ProtocolParameters& p, size_t count) {
  Instance in{WhirConfig::derive(p), rng.fes(size_t(1) << p.num_variables), {}};
  in.claims = random_claims(rng, in.evals, p.num_variables, count);
  return in;
}

}  // namespace zkgpu::test
