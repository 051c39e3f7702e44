#include "zkgpu/challenger.hpp"

#include "zkgpu/core/poseidon2/params.hpp"
#include "pow/cpu/pow_cpu.hpp"
#include "support/test_support.hpp"
#include "zkgpu/pow.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

using test::Rng;

const Poseidon2Params<16>& whir_params() {
  static const Poseidon2Params<16> p = poseidon2_params<16>(Poseidon2Constants::Whir);
  return p;
}

const nlohmann::json& vectors() {
  static const nlohmann::json v = test::load_vectors("babybear/duplex_challenger_derived_vectors.json");
  return v;
}

std::vector<uint32_t> canon(std::span<const BabyBear> xs) {
  std::vector<uint32_t> out;
  for (auto x : xs) out.push_back(x.canonical());
  return out;
}
std::vector<uint32_t> canon(const BabyBear4& e) { return canon(std::span<const BabyBear>(e.c, 4)); }

struct RuleCase {
  AbsorbRule rule;
  const char* key;
};
const RuleCase RULES[] = {{AbsorbRule::Overwrite090b, "variant_090b"}, {AbsorbRule::LengthBindingHead, "variant_head"}};

// Plonky3's grind, literally: try w = 0, 1, ... with check_witness on a copy.
uint32_t smallest_witness_by_copies(const DuplexChallenger& c, unsigned bits) {
  for (uint32_t w = 0;; ++w) {
    DuplexChallenger copy = c;
    if (copy.check_witness(bits, BabyBear::from_canonical(w))) return w;
  }
}

TEST(DuplexChallenger, DefaultRuleIs090b) {
  DuplexChallenger c(whir_params());
  EXPECT_EQ(c.rule(), AbsorbRule::Overwrite090b);
}

TEST(DuplexChallenger, PatternStateAndSamplesMatchVectors) {
  const auto& v = vectors();
  const auto pattern = test::canonical_vec(v["domain_separator_pattern_p3_090b"]);
  ASSERT_EQ(pattern.size(), 127u);
  for (const auto& rc : RULES) {
    SCOPED_TRACE(rc.key);
    const auto& e = v[rc.key];
    DuplexChallenger c(whir_params(), rc.rule);
    c.observe_slice(pattern);
    EXPECT_EQ(canon(c.state()), e["after_observing_pattern"]["sponge_state"].get<std::vector<uint32_t>>());
    EXPECT_EQ(canon(c.input_buffer()), e["after_observing_pattern"]["input_buffer"].get<std::vector<uint32_t>>());
    EXPECT_TRUE(c.output_buffer().empty());
    EXPECT_EQ(canon(c.sample_ext()), e["then_sample_algebra_element_EF4_coeffs"].get<std::vector<uint32_t>>());
    EXPECT_EQ(c.sample_bits(20), e["then_sample_bits_20"].get<uint32_t>());

    // Element-by-element observe and observe_slice are the same transcript.
    DuplexChallenger d(whir_params(), rc.rule);
    for (auto x : pattern) d.observe(x);
    EXPECT_EQ(canon(d.state()), e["after_observing_pattern"]["sponge_state"].get<std::vector<uint32_t>>());
    EXPECT_EQ(canon(d.input_buffer()), e["after_observing_pattern"]["input_buffer"].get<std::vector<uint32_t>>());
  }
}

TEST(DuplexChallenger, TenSamplesAfterObservingOneToTen) {
  for (const auto& rc : RULES) {
    SCOPED_TRACE(rc.key);
    DuplexChallenger c(whir_params(), rc.rule);
    for (uint32_t i = 1; i <= 10; ++i) c.observe(BabyBear::from_canonical(i));
    std::vector<uint32_t> got;
    for (int i = 0; i < 10; ++i) got.push_back(c.sample().canonical());
    EXPECT_EQ(got, vectors()[rc.key]["fresh_observe_1..10_then_10_samples"].get<std::vector<uint32_t>>());
  }
}

TEST(DuplexChallenger, SmallestPowWitnessAndSampleAfterIt) {
  for (const auto& rc : RULES) {
    SCOPED_TRACE(rc.key);
    const auto& e = vectors()[rc.key];
    const uint32_t expect = e["fresh_observe_[1,2,3]_smallest_pow_witness_8_bits"].get<uint32_t>();
    DuplexChallenger c(whir_params(), rc.rule);
    for (uint32_t i = 1; i <= 3; ++i) c.observe(BabyBear::from_canonical(i));

    EXPECT_EQ(smallest_witness_by_copies(c, 8), expect);
    EXPECT_EQ(cpu::pow_grind(c.pow_input(8), whir_params(), true), expect);
    {
      DuplexChallenger copy = c;
      EXPECT_TRUE(copy.check_witness(8, BabyBear::from_canonical(expect)));
    }
    for (uint32_t w = 0; w < expect; ++w) {
      DuplexChallenger copy = c;
      EXPECT_FALSE(copy.check_witness(8, BabyBear::from_canonical(w))) << w;
    }
    {
      DuplexChallenger copy = c;
      const bool next_ok = pow_witness_ok(c.pow_input(8), BabyBear::from_canonical(expect + 1), whir_params());
      EXPECT_EQ(copy.check_witness(8, BabyBear::from_canonical(expect + 1)), next_ok);
      if (!next_ok) SUCCEED() << "witness + 1 rejected";
    }

    // grind leaves the transcript as check_witness(w) does.
    DuplexChallenger g = c, ref = c;
    EXPECT_EQ(g.grind(8, Backend::Cpu), expect);
    ASSERT_TRUE(ref.check_witness(8, BabyBear::from_canonical(expect)));
    EXPECT_EQ(canon(g.state()), canon(ref.state()));
    EXPECT_EQ(canon(g.output_buffer()), canon(ref.output_buffer()));
    EXPECT_TRUE(g.input_buffer().empty());
    EXPECT_EQ(canon(g.sample_ext()),
              e["then_sample_algebra_element_EF4_coeffs_after_witness"].get<std::vector<uint32_t>>());
  }
}

TEST(DuplexChallenger, GrindMatchesBruteForceForEveryPendingCount) {
  Rng rng(21);
  for (const auto& rc : RULES) {
    for (int pending = 0; pending < 8; ++pending) {
      for (int trial = 0; trial < 2; ++trial) {
        SCOPED_TRACE(testing::Message() << rc.key << " pending " << pending << " trial " << trial);
        DuplexChallenger c(whir_params(), rc.rule);
        c.observe_slice(rng.fes(8 * (trial + 1)));  // a non-trivial state
        c.observe_slice(rng.fes(pending));
        if (trial == 1) (void)c.sample();  // output buffer non-empty, input empty
        if (trial == 1) c.observe_slice(rng.fes(pending));
        ASSERT_EQ(c.input_buffer().size(), static_cast<size_t>(pending));
        const unsigned bits = 5 + pending % 3;
        const uint32_t expect = smallest_witness_by_copies(c, bits);
        DuplexChallenger g = c, ref = c;
        EXPECT_EQ(g.grind(bits, Backend::Cpu), expect);
        ASSERT_TRUE(ref.check_witness(bits, BabyBear::from_canonical(expect)));
        EXPECT_EQ(canon(g.state()), canon(ref.state()));
        EXPECT_EQ(g.sample(), ref.sample());
      }
    }
  }
}

TEST(DuplexChallenger, NonDeterministicGrindReturnsAValidWitness) {
  Rng rng(22);
  for (const auto& rc : RULES) {
    DuplexChallenger c(whir_params(), rc.rule);
    c.observe_slice(rng.fes(11));
    DuplexChallenger g = c;
    const uint32_t w = g.grind(12, Backend::Cpu, false);
    DuplexChallenger check = c;
    EXPECT_TRUE(check.check_witness(12, BabyBear::from_canonical(w)));
    EXPECT_EQ(canon(g.state()), canon(check.state()));
  }
}

TEST(DuplexChallenger, DeterministicGrindAtHigherBitsIsSmallest) {
  // 13 bits runs the threaded search over many chunks; the answer is still the smallest witness,
  // on every SIMD path of the batched permutation.
  Rng rng(23);
  DuplexChallenger c(whir_params());
  c.observe_slice(rng.fes(5));
  const PowInput in = c.pow_input(13);
  const uint32_t w = cpu::pow_grind(in, whir_params(), true);
  EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(w), whir_params()));
  for (uint32_t x = 0; x < w; ++x) ASSERT_FALSE(pow_witness_ok(in, BabyBear::from_canonical(x), whir_params())) << x;
  for (SimdLevel cap : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
    set_simd_level_cap(cap);
    EXPECT_EQ(pow_grind(in, whir_params(), Backend::Cpu, true), w) << to_string(cap);
  }
  set_simd_level_cap(std::nullopt);
}

TEST(DuplexChallenger, ZeroBitsObservesNothing) {
  DuplexChallenger c(whir_params());
  c.observe(BabyBear::from_canonical(5));
  DuplexChallenger g = c;
  EXPECT_EQ(g.grind(0), 0u);
  EXPECT_TRUE(g.check_witness(0, BabyBear::from_canonical(12345)));
  EXPECT_EQ(canon(g.state()), canon(c.state()));
  EXPECT_EQ(canon(g.input_buffer()), canon(c.input_buffer()));
  EXPECT_EQ(g.sample(), c.sample());
}

TEST(DuplexChallenger, BitsAbove30AreRejectedBeforeAnyChange) {
  DuplexChallenger c(whir_params());
  c.observe(BabyBear::from_canonical(9));
  DuplexChallenger g = c;
  EXPECT_THROW((void)g.sample_bits(31), Error);
  EXPECT_THROW((void)g.check_witness(31, BabyBear::zero()), Error);
  EXPECT_THROW((void)g.grind(31), Error);
  EXPECT_THROW((void)g.pow_input(0), Error);
  EXPECT_EQ(canon(g.input_buffer()), canon(c.input_buffer()));
  EXPECT_EQ(g.sample(), c.sample());
  EXPECT_NO_THROW((void)g.sample_bits(30));
  EXPECT_EQ(g.sample_bits(0), 0u);
}

TEST(DuplexChallenger, SampleBitsIsLowBitsOfCanonicalSample) {
  Rng rng(24);
  DuplexChallenger a(whir_params()), b(whir_params());
  auto in = rng.fes(13);
  a.observe_slice(in);
  b.observe_slice(in);
  for (unsigned bits = 0; bits <= 30; ++bits)
    EXPECT_EQ(a.sample_bits(bits), b.sample().canonical() & ((1u << bits) - 1));
}

TEST(DuplexChallenger, ObserveExtAndDigestAreElementwise) {
  Rng rng(25);
  BabyBear4 e = rng.fe4();
  Digest d;
  for (auto& x : d.e) x = rng.fe();
  DuplexChallenger a(whir_params()), b(whir_params());
  a.observe(e);
  a.observe(d);
  b.observe_slice(std::span<const BabyBear>(e.c, 4));
  b.observe_slice(std::span<const BabyBear>(d.e, 8));
  EXPECT_EQ(canon(a.state()), canon(b.state()));
  EXPECT_EQ(canon(a.input_buffer()), canon(b.input_buffer()));
  // A fresh squeeze pops from the end: sample_ext = (state[7], state[6], state[5], state[4]).
  BabyBear4 s = a.sample_ext();
  auto st = a.state();
  EXPECT_EQ(s.c[0], st[7]);
  EXPECT_EQ(s.c[1], st[6]);
  EXPECT_EQ(s.c[2], st[5]);
  EXPECT_EQ(s.c[3], st[4]);
}

TEST(PowGrind, RejectsInvalidInputs) {
  PowInput in{};
  in.bits = 0;
  EXPECT_THROW((void)cpu::pow_grind(in, whir_params(), true), Error);
  in.bits = 31;
  EXPECT_THROW((void)pow_grind(in, whir_params(), Backend::Cpu), Error);
  in.bits = 4;
  in.n_pending = 8;
  EXPECT_THROW((void)cpu::pow_grind(in, whir_params(), true), Error);
  in.n_pending = 0;
  in.state[3].v = BabyBear::P;
  EXPECT_THROW((void)cpu::pow_grind(in, whir_params(), true), Error);
}

TEST(PowGpu, MatchesCpuDeterministic) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(26);
  // Small mode: no, one and seven pending inputs, 1, 12 and 16 bits.
  for (const auto& rc : RULES) {
    for (int pending : test::sized({0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 7})) {
      for (unsigned bits : test::sized({1u, 8u, 12u, 16u}, {1u, 12u, 16u})) {
        DuplexChallenger c(whir_params(), rc.rule);
        c.observe_slice(rng.fes(8 + pending));
        const PowInput in = c.pow_input(bits);
        const uint32_t cpu_w = cpu::pow_grind(in, whir_params(), true);
        EXPECT_EQ(pow_grind(in, whir_params(), Backend::Cuda, true), cpu_w) << rc.key << " " << pending << " " << bits;
        const uint32_t any = pow_grind(in, whir_params(), Backend::Cuda, false);
        EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(any), whir_params()));
        DuplexChallenger g = c, h = c;
        EXPECT_EQ(g.grind(bits, Backend::Cuda), h.grind(bits, Backend::Cpu));
        EXPECT_EQ(g.sample(), h.sample());
      }
    }
  }
}

}  // namespace
}  // namespace zkgpu
