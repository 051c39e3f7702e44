// The latency adder with one addition's products on the IFMA lanes (te_lanes_ifma.hpp) gives the
// scalar chain's coordinates byte for byte: from the identity and from a random point, chains of
// 1, 2, 7 and 300 additions over bases that wrap (13 of them), including P + P and P + (-P).
#include <gtest/gtest.h>

#include "bench_support/msm_inputs.hpp"
#include "bls12_377/bls_test_support.hpp"
#if defined(__x86_64__)
#include "bench_support/cpu/te_lanes_ifma.hpp"
#endif

namespace zkgpu::test {
namespace {
using namespace zkgpu::bls12_377;

void expect_same(const TeExtended& a, const TeExtended& b, size_t chain) {
  EXPECT_EQ(a.x, b.x) << chain;
  EXPECT_EQ(a.y, b.y) << chain;
  EXPECT_EQ(a.z, b.z) << chain;
  EXPECT_EQ(a.t, b.t) << chain;
}

TEST(Bls12377PaddLanes, ChainMatchesScalarChain) {
#if defined(__x86_64__)
  if (!ifma::AVAILABLE) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  Rng rng(77);
  std::vector<G1Affine> pts(13);
  for (auto& p : pts) p = mul_g(random_scalar(rng));
  pts[5] = pts[4];        // P + P on the way
  pts[9] = pts[8].neg();  // and P + (-P)
  const std::vector<TePrecomputed> bases = precompute_te(pts);
  const TeExtended starts[2] = {TeExtended::identity(), sw_to_te(mul_g(random_scalar(rng)))};
  for (const TeExtended& start : starts)
    for (size_t chain : {1u, 2u, 7u, 300u}) {
      TeExtended want = start;
      for (size_t k = 0; k < chain; ++k) want = te_add_precomputed(want, bases[k % bases.size()]);
      expect_same(ifma::lanes_chain(start, bases.data(), bases.size(), chain), want, chain);
    }
  TeExtended scalar_end{}, lanes_end{};
  padd_cpu_latency_us(bases, 40, &scalar_end);
  EXPECT_GT(padd_cpu_latency_ifma_us(bases, 40, &lanes_end), 0);
  expect_same(lanes_end, scalar_end, 40);
#else
  GTEST_SKIP() << "x86-64 only";
#endif
}

}  // namespace
}  // namespace zkgpu::test
