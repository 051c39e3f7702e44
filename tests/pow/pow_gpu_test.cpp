// The CUDA proof-of-work search against the scalar core functions, byte for byte, on fresh random inputs.
// Every test needs a GPU and skips without one.
#include <cstring>
#include <string>
#include <vector>

#include "zkgpu/core/hash/pow.hpp"
#include "zkgpu/core/poseidon2/params.hpp"
#include "zkgpu/challenger.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "pow/cuda/api.hpp"
#endif

namespace zkgpu {
namespace {

using test::Rng;

#if ZKGPU_HAVE_CUDA

uint32_t cpu_smallest_witness(const PowInput& in, const Poseidon2Params<16>& p) {
  for (uint32_t w = 0; w < BabyBear::P; ++w)
    if (pow_witness_ok(in, BabyBear::from_canonical(w), p)) return w;
  ADD_FAILURE() << "no witness";
  return 0;
}

TEST(PowGpu, DeterministicIsSmallestWitness) {
  ZKGPU_REQUIRE_GPU();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  Rng rng(500);
  for (uint32_t bits = 1; bits <= 12; ++bits) {
    PowInput in{};
    for (auto& x : in.state) x = rng.fe();
    in.n_pending = rng.u32() % 8;
    for (uint32_t i = 0; i < in.n_pending; ++i) in.pending[i] = rng.fe();
    in.bits = bits;
    const uint32_t gpu = cuda::pow_grind_host(in, p, true);
    EXPECT_EQ(gpu, cpu_smallest_witness(in, p)) << "bits " << bits << " n_pending " << in.n_pending;
    const uint32_t any = cuda::pow_grind_host(in, p, false);
    EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(any), p)) << "bits " << bits;
    EXPECT_LT(any, BabyBear::P);
  }
}

TEST(PowGpu, MatchesChallengerVector) {
  ZKGPU_REQUIRE_GPU();
  auto v = test::load_vectors("babybear/duplex_challenger_derived_vectors.json");
  const uint32_t expect = v["variant_090b"]["fresh_observe_[1,2,3]_smallest_pow_witness_8_bits"].get<uint32_t>();
  ASSERT_EQ(expect, 95u);
  PowInput in{};
  for (auto& x : in.state) x = BabyBear::zero();
  in.pending[0] = BabyBear::from_canonical(1);
  in.pending[1] = BabyBear::from_canonical(2);
  in.pending[2] = BabyBear::from_canonical(3);
  in.n_pending = 3;
  in.bits = 8;
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  EXPECT_EQ(cuda::pow_grind_host(in, p, true), expect);
  const uint32_t any = cuda::pow_grind_host(in, p, false);
  EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(any), p));
}

TEST(PowGpu, LargerBitsWitnessIsValid) {
  ZKGPU_REQUIRE_GPU();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  Rng rng(600);
  PowInput in{};
  for (auto& x : in.state) x = rng.fe();
  in.n_pending = 5;
  for (uint32_t i = 0; i < 5; ++i) in.pending[i] = rng.fe();
  in.bits = 20;
  const uint32_t w = cuda::pow_grind_host(in, p, true);
  EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(w), p));
  // Smallest: nothing below w passes (spot-check the last 4096 candidates below it on the CPU).
  for (uint32_t c = w > 4096 ? w - 4096 : 0; c < w; ++c)
    ASSERT_FALSE(pow_witness_ok(in, BabyBear::from_canonical(c), p)) << c;
}

TEST(PowGpu, RejectsInvalidInput) {
  ZKGPU_REQUIRE_GPU();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  PowInput in{};
  in.bits = 0;
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
  in.bits = 31;
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
  in.bits = 4;
  in.n_pending = 8;
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
  in.n_pending = 0;
  in.state[3].v = BabyBear::P;  // not a field element
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
