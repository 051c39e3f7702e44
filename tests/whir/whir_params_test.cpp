// WHIR parameter derivation (spec §2) and domain separator (spec §7.1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

ProtocolParameters cb_params(unsigned n, unsigned fold, unsigned rate) {
  ProtocolParameters p;
  p.num_variables = n;
  p.security_level = 100;
  p.pow_bits = 16;
  p.folding = FoldingFactor::constant(fold);
  p.soundness = Soundness::CapacityBound;
  p.starting_log_inv_rate = rate;
  p.rs_reduction = std::min(fold, 3u);
  return p;
}

TEST(WhirParams, WorkedExampleOfTheSpec) {
  const WhirConfig c = WhirConfig::derive(cb_params(20, 4, 1));
  EXPECT_EQ(c.n_rounds, 3u);
  EXPECT_EQ(c.final_sumcheck_rounds, 4u);
  EXPECT_EQ(c.commitment_ood_samples, 2u);
  EXPECT_EQ(c.starting_folding_pow_bits, 3u);
  EXPECT_EQ(c.max_fft_size, 17u);
  const unsigned dom[3] = {21, 18, 17}, t[3] = {91, 44, 18}, pow[3] = {15, 15, 11}, fpow[3] = {2, 7, 12};
  const unsigned height[3] = {14, 13, 12}, vars[3] = {16, 12, 8};
  ASSERT_EQ(c.rounds.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(c.rounds[i].log_domain_size, dom[i]);
    EXPECT_EQ(c.rounds[i].num_queries, t[i]);
    EXPECT_EQ(c.rounds[i].ood_samples, 2u);
    EXPECT_EQ(c.rounds[i].pow_bits, pow[i]);
    EXPECT_EQ(c.rounds[i].folding_pow_bits, fpow[i]);
    EXPECT_EQ(c.rounds[i].folding_factor, 4u);
    EXPECT_EQ(c.rounds[i].num_variables, vars[i]);
    EXPECT_EQ(c.log_tree_height(i), height[i]);
    EXPECT_EQ(c.rounds[i].folded_domain_gen, BabyBear::two_adic_generator(dom[i] - 4));
  }
  EXPECT_EQ(c.final_round.log_domain_size, 16u);
  EXPECT_EQ(c.final_round.num_queries, 11u);
  EXPECT_EQ(c.final_round.pow_bits, 12u);
  EXPECT_EQ(c.final_round.folding_pow_bits, 0u);
  EXPECT_EQ(c.final_round.folding_factor, 4u);
}

// An independent transcription of spec §2.1-2.2, written per regime without sharing code with
// the library.
struct Expected {
  bool rejected = false;
  size_t n_rounds = 0;
  long final_rounds = 0;
  size_t ood0 = 0;
  unsigned fpow0 = 0;
  std::vector<size_t> t, ood;
  std::vector<unsigned> pow, fpow;
  size_t final_t = 0;
  unsigned final_pow = 0;
};

Expected recompute(unsigned n, unsigned k, unsigned r0, unsigned lambda, unsigned budget, int regime, unsigned red) {
  const double fb = 124, l10 = std::log2(10.0);
  auto eta = [&](double r) { return regime == 1 ? -(r / 2 + l10 + 1) : -(r + l10 + 1); };
  auto list = [&](double d, double r) { return regime == 0 ? 0.0 : regime == 1 ? r / 2 - 1 - eta(r) : d + r - eta(r); };
  auto prox = [&](double d, double r) {
    double e = regime == 0   ? d + r
               : regime == 1 ? d + r + std::log2(2 * std::pow(10.5, 5) / 3) + 1.5 * r
                             : d + 2 * r - eta(r);
    return fb - e;  // log2(2 - 1) = 0
  };
  auto l1d = [&](double r) {
    double rho = std::pow(2.0, -r);
    double delta = regime == 0   ? (1 - rho) / 2
                   : regime == 1 ? 1 - std::sqrt(rho) - std::pow(2, eta(r))
                                 : 1 - rho - std::pow(2, eta(r));
    return std::log2(1 - delta);
  };
  auto queries = [&](double lq, double r) { return size_t(std::max(0.0, std::ceil(-lq / l1d(r)))); };
  auto ood = [&](double d, double r) -> size_t {
    if (regime == 0) return 0;
    for (size_t s = 1; s < 64; ++s)
      if (double(s) * fb + 1 - (2 * list(d, r) + d * double(s)) >= lambda) return s;
    return 1000;
  };
  auto fpow = [&](double d, double r) {
    return unsigned(std::floor(std::max(0.0, lambda - std::min(prox(d, r), fb - (list(d, r) + 1)))));
  };
  Expected e;
  if (n <= 6) {
    e.n_rounds = 0;
    e.final_rounds = long(n) - long(k);
  } else {
    long R = long(std::ceil(double(n - 6) / k));
    e.n_rounds = size_t(R - 1);
    e.final_rounds = long(n) - R * long(k);
  }
  if (e.final_rounds < 0 || n + r0 - k > 27) return e.rejected = true, e;
  const double lq = lambda > budget ? lambda - budget : 0;
  e.ood0 = ood(n, r0);
  e.fpow0 = fpow(n, r0);
  unsigned maxpow = e.fpow0;
  double r = r0, m = n - k;
  for (size_t i = 0; i < e.n_rounds; ++i) {
    double rp = r + k - (i == 0 ? red : 1);
    size_t t = queries(lq, r), o = ood(m, rp);
    double qe = -double(t) * l1d(r);
    double qce = fb - (std::log2(double(o + t)) + list(m, rp) + 1);
    unsigned pw = unsigned(std::floor(std::max(0.0, lambda - std::min(qe, qce))));
    e.t.push_back(t);
    e.ood.push_back(o);
    e.pow.push_back(pw);
    e.fpow.push_back(fpow(m, rp));
    maxpow = std::max({maxpow, pw, e.fpow.back()});
    m -= k;
    r = rp;
  }
  e.final_t = queries(lq, r);
  e.final_pow = unsigned(std::floor(std::max(0.0, lambda - (-double(e.final_t) * l1d(r)))));
  maxpow = std::max(maxpow, e.final_pow);
  if (maxpow > 30) e.rejected = true;
  return e;
}

TEST(WhirParams, MatchesAnIndependentRecomputationOnTheBenchmarkGrid) {
  size_t checked = 0, rejected = 0;
  for (unsigned n : {7u, 12u, 16u, 18u, 20u, 22u, 24u})
    for (unsigned k : {1u, 2u, 3u, 4u, 6u, 8u})
      for (unsigned r0 : {1u, 2u, 3u})
        for (int regime : {0, 1, 2}) {
          SCOPED_TRACE("n" + std::to_string(n) + " f" + std::to_string(k) + " r" + std::to_string(r0) + " regime " +
                       std::to_string(regime));
          ProtocolParameters p = cb_params(n, k, r0);
          p.soundness = static_cast<Soundness>(regime);
          const Expected e = recompute(n, k, r0, 100, 16, regime, std::min(k, 3u));
          if (e.rejected) {
            EXPECT_THROW(WhirConfig::derive(p), Error);
            ++rejected;
            continue;
          }
          const WhirConfig c = WhirConfig::derive(p);
          ASSERT_EQ(c.n_rounds, e.n_rounds);
          EXPECT_EQ(long(c.final_sumcheck_rounds), e.final_rounds);
          EXPECT_EQ(c.commitment_ood_samples, e.ood0);
          EXPECT_EQ(c.starting_folding_pow_bits, e.fpow0);
          for (size_t i = 0; i < e.n_rounds; ++i) {
            EXPECT_EQ(c.rounds[i].num_queries, e.t[i]) << "round " << i;
            EXPECT_EQ(c.rounds[i].ood_samples, e.ood[i]) << "round " << i;
            EXPECT_EQ(c.rounds[i].pow_bits, e.pow[i]) << "round " << i;
            EXPECT_EQ(c.rounds[i].folding_pow_bits, e.fpow[i]) << "round " << i;
          }
          EXPECT_EQ(c.final_round.num_queries, e.final_t);
          EXPECT_EQ(c.final_round.pow_bits, e.final_pow);
          EXPECT_EQ(n, c.params.folding.first + c.n_rounds * k + c.final_sumcheck_rounds);
          ++checked;
        }
  EXPECT_GT(checked, 250u);
  EXPECT_GT(rejected, 0u);
}

TEST(WhirParams, RowsFlaggedInTheSpec) {
  // n24 f4 r1: the last two rounds' folding PoW is 16, then 21 bits (above the 16-bit budget,
  // reported only).
  const WhirConfig a = WhirConfig::derive(cb_params(24, 4, 1));
  ASSERT_EQ(a.rounds.size(), 4u);
  EXPECT_EQ(a.rounds[2].folding_pow_bits, 16u);
  EXPECT_EQ(a.rounds[3].folding_pow_bits, 21u);
  EXPECT_EQ(a.max_derived_pow_bits(), 21u);
  EXPECT_FALSE(a.pow_budget_violations().empty());
  // n20 f4 r3: folding PoW 18.
  const WhirConfig b = WhirConfig::derive(cb_params(20, 4, 3));
  unsigned fp = b.starting_folding_pow_bits;
  for (auto& r : b.rounds) fp = std::max(fp, r.folding_pow_bits);
  EXPECT_EQ(fp, 18u);
  // n24 f8 r1: folding PoW 27.
  const WhirConfig c = WhirConfig::derive(cb_params(24, 8, 1));
  EXPECT_EQ(c.max_derived_pow_bits(), 27u);
  // n24 f8 r2: exactly 30 bits, still within sample_bits.
  EXPECT_EQ(WhirConfig::derive(cb_params(24, 8, 2)).max_derived_pow_bits(), 30u);
  // n24 f8 r3: 33 bits, beyond sample_bits: rejected with the phase named.
  try {
    (void)WhirConfig::derive(cb_params(24, 8, 3));
    FAIL() << "n24 f8 r3 must be rejected";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("30-bit"), std::string::npos) << e.what();
  }
}

TEST(WhirParams, RejectsWhatZkgpuDoesNotAccept) {
  ProtocolParameters p = cb_params(20, 4, 1);
  p.starting_log_inv_rate = 0;
  EXPECT_THROW(WhirConfig::derive(p), Error);
  p = cb_params(20, 4, 1);
  p.folding = FoldingFactor::constant(0);
  EXPECT_THROW(WhirConfig::derive(p), Error);
  p.folding = FoldingFactor::constant(21);
  EXPECT_THROW(WhirConfig::derive(p), Error);
  p = cb_params(27, 1, 2);  // 27 + 2 - 1 = 28 > 27
  try {
    (void)WhirConfig::derive(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("two-adicity 27"), std::string::npos) << e.what();
  }
  p = cb_params(20, 4, 1);
  p.rs_reduction = 5;
  EXPECT_THROW(WhirConfig::derive(p), Error);
  // The budget is reported, and enforced only on request.
  p = cb_params(24, 4, 1);
  EXPECT_NO_THROW(WhirConfig::derive(p));
  p.enforce_pow_budget = true;
  EXPECT_THROW(WhirConfig::derive(p), Error);
  p = cb_params(20, 4, 1);
  p.enforce_pow_budget = true;
  EXPECT_NO_THROW(WhirConfig::derive(p));
}

TEST(WhirParams, DefaultsAndFoldFirst) {
  ProtocolParameters p;
  p.num_variables = 20;
  const WhirConfig c = WhirConfig::derive(p);
  EXPECT_EQ(c.rs_reduction, 3u);
  EXPECT_EQ(c.commitment_ood_samples, 0u);  // unique decoding: no OOD
  p.folding = FoldingFactor::constant_from_second_round(5, 3);
  const WhirConfig d = WhirConfig::derive(p);
  // n' = 15: R = ceil(9/3) = 3 rounds, final 15 - 9 = 6.
  EXPECT_EQ(d.n_rounds, 3u);
  EXPECT_EQ(d.final_sumcheck_rounds, 6u);
  EXPECT_EQ(d.rounds[0].folding_factor, 5u);
  EXPECT_EQ(d.rounds[1].folding_factor, 3u);
  EXPECT_EQ(d.rounds[0].num_variables, 15u);
  EXPECT_EQ(d.rounds[1].num_variables, 12u);
}

TEST(WhirDomainSeparator, WorkedExamplePatternMatchesTheVector) {
  const auto j = test::load_vectors("babybear/duplex_challenger_derived_vectors.json");
  const std::vector<BabyBear> want = test::canonical_vec(j["domain_separator_pattern_p3_090b"]);
  ASSERT_EQ(want.size(), 127u);
  const std::vector<BabyBear> got = domain_separator_pattern(WhirConfig::derive(cb_params(20, 4, 1)));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].canonical(), want[i].canonical()) << "entry " << i;
}

}  // namespace
}  // namespace zkgpu::whir
