// The CUDA Poseidon2 permutation against the scalar core function, byte for byte, on fresh random
// inputs. The Poseidon2Fast tests check the tuned permutation the kernels run, on the CPU (it is a
// core function and needs no GPU); the Poseidon2Gpu tests need a GPU and skip without one.
#include <cstring>
#include <string>
#include <vector>

#include "zkgpu/core/poseidon2/params.hpp"
#include "zkgpu/core/poseidon2/poseidon2_fast.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/poseidon2.hpp"
#if ZKGPU_HAVE_CUDA
#include "poseidon2/cuda/api.hpp"
#include "runtime/cuda/runtime.cuh"
#endif

namespace zkgpu {
namespace {

using test::Rng;

template <int W>
void check_std_permutation(Poseidon2Constants set, uint64_t salt) {
  const auto p = poseidon2_params<W>(set);
  ASSERT_TRUE(poseidon2_has_standard_diag(p));
  Rng rng(salt);
  for (int it = 0; it < 3000; ++it) {
    BabyBear a[W], b[W], c[W];
    for (int i = 0; i < W; ++i) {
      uint32_t k = rng.u32() % 8;  // edge words often: 0, p-1, tiny values
      a[i] = k == 0   ? BabyBear::zero()
             : k == 1 ? BabyBear::from_monty(BabyBear::P - 1)
             : k == 2 ? BabyBear::from_monty(k)
                      : rng.fe();
      b[i] = c[i] = a[i];
    }
    poseidon2_permute<W>(a, p);
    poseidon2_permute_std<W, false>(b, p);
    poseidon2_permute_std<W, true>(c, p);
    ASSERT_EQ(std::memcmp(a, b, sizeof a), 0) << "unrolled, iteration " << it;
    ASSERT_EQ(std::memcmp(a, c, sizeof a), 0) << "rolled, iteration " << it;
  }
  auto q = p;
  q.diag[3] = q.diag[3] + BabyBear::one();
  EXPECT_FALSE(poseidon2_has_standard_diag(q));
}

TEST(Poseidon2Fast, EqualsCorePermutationOnCpu) {
  check_std_permutation<16>(Poseidon2Constants::Plonky3, 1);
  check_std_permutation<16>(Poseidon2Constants::Whir, 2);
  check_std_permutation<24>(Poseidon2Constants::Plonky3, 3);
  check_std_permutation<24>(Poseidon2Constants::Whir, 4);
}

TEST(Poseidon2Fast, FieldHelpersMatchBabyBear) {
  Rng rng(5);
  const BabyBear inv2 = BabyBear::from_canonical(2).inverse();
  for (int it = 0; it < 200000; ++it) {
    BabyBear a = it < 4 ? BabyBear::from_monty((it & 1) ? BabyBear::P - 1 : 0) : rng.fe();
    BabyBear b = it < 4 ? BabyBear::from_monty((it & 2) ? BabyBear::P - 1 : 0) : rng.fe();
    ASSERT_EQ(p2fast::mul(a, b), a * b);
    ASSERT_EQ(p2fast::add(a, b), a + b);
    ASSERT_EQ(p2fast::sub(a, b), a - b);
    ASSERT_EQ(p2fast::div_2exp<1>(a), a * inv2);
    ASSERT_EQ(p2fast::div_2exp<27>(a), a * inv2.pow(27));
  }
}

#if ZKGPU_HAVE_CUDA

template <int W>
void check_gpu_permutation(const Poseidon2Params<W>& p, size_t n, uint64_t salt) {
  Rng rng(salt);
  std::vector<BabyBear> states = rng.fes(n * W), expect = states;
  for (size_t i = 0; i < n; ++i) poseidon2_permute<W>(*reinterpret_cast<BabyBear(*)[W]>(&expect[i * W]), p);
  cuda::poseidon2_permute_host(states.data(), n, p);
  ASSERT_EQ(std::memcmp(states.data(), expect.data(), n * W * sizeof(BabyBear)), 0) << "width " << W << " n " << n;
}

template <int W>
void check_gpu_permutation(Poseidon2Constants set, size_t n, uint64_t salt) {
  SCOPED_TRACE("set " + std::to_string(int(set)));
  check_gpu_permutation<W>(poseidon2_params<W>(set), n, salt);
}

TEST(Poseidon2Gpu, MatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  uint64_t salt = 100;
  for (size_t n : test::sized<size_t>({1, 31, 32, 1000, 65537}, {1, 31, 32, 1000, 4097}))
    for (auto set : {Poseidon2Constants::Plonky3, Poseidon2Constants::Whir}) {
      check_gpu_permutation<16>(set, n, ++salt);
      check_gpu_permutation<24>(set, n, ++salt);
    }
}

// The kernel runs the rolled standard-diag permutation for the standard constants and the core
// function for any other diag; both against the core function, at both widths.
template <int W>
Poseidon2Params<W> with_nonstandard_diag(Poseidon2Constants set) {
  auto p = poseidon2_params<W>(set);
  p.diag[5] = BabyBear::from_canonical(12345);
  EXPECT_FALSE(poseidon2_has_standard_diag(p));
  return p;
}

// The public device-pointer batch on the caller's non-blocking stream equals the CPU batch, and a
// host pointer is Error(InvalidArgument) before anything runs.
TEST(Poseidon2Gpu, DevicePointerBatchMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(240);
  cuda::Stream s;
  for (int width : {16, 24})
    for (auto set : {Poseidon2Constants::Plonky3, Poseidon2Constants::Whir})
      for (size_t n : {size_t(1), size_t(1000), size_t(4099)}) {
        SCOPED_TRACE("width " + std::to_string(width) + " n " + std::to_string(n));
        const size_t words = n * static_cast<size_t>(width);
        std::vector<BabyBear> states = rng.fes(words), want = states, got(words);
        poseidon2_permute_batch(want, width, set, Backend::Cpu);
        cuda::DeviceBuffer<BabyBear> d(words);
        d.upload(states.data(), words, s);
        poseidon2_permute_batch_device(d.data(), n, width, set, GpuStream{s.get()});
        d.download(got.data(), words, s);
        s.sync();
        ASSERT_EQ(std::memcmp(got.data(), want.data(), words * sizeof(BabyBear)), 0);
        EXPECT_THROW(poseidon2_permute_batch_device(states.data(), n, width, set, {}), Error);
        EXPECT_THROW(poseidon2_permute_batch_device(d.data(), n + 1, width, set, {}), Error);  // past the end
      }
  cuda::DeviceBuffer<BabyBear> d(16);
  EXPECT_THROW(poseidon2_permute_batch_device(d.data(), 1, 12, Poseidon2Constants::Whir, {}), Error);
}

TEST(Poseidon2Gpu, EveryKernelFormMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  for (size_t n : {size_t(777), size_t(4099)}) {
    SCOPED_TRACE("n " + std::to_string(n));
    check_gpu_permutation<16>(Poseidon2Constants::Whir, n, 200 + n);
    check_gpu_permutation<24>(Poseidon2Constants::Plonky3, n, 210 + n);
    check_gpu_permutation<16>(with_nonstandard_diag<16>(Poseidon2Constants::Whir), n, 220 + n);
    check_gpu_permutation<24>(with_nonstandard_diag<24>(Poseidon2Constants::Plonky3), n, 230 + n);
  }
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
