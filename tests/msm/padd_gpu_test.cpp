// tools/bench_support's GPU point-addition probes (padd_gpu.hpp) add what they claim: thread 0's
// accumulator and the dependent chain's end equal the CPU's te_add_precomputed sums coordinate for
// coordinate, over base counts, thread counts and lengths that are powers of two and not, with the
// host copy poisoned first; bad sizes are Error(InvalidArgument). Every test skips without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "bls12_377/bls_test_support.hpp"
#include "support/expect_error.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "bench_support/padd_gpu.hpp"
#endif

namespace zkgpu::test {
namespace {
using namespace zkgpu::bls12_377;

#if ZKGPU_HAVE_CUDA
std::vector<TePrecomputed> random_bases(size_t n, Rng& rng) {
  std::vector<Scalar> a(n);
  for (auto& x : a) x = random_scalar(rng);
  return precompute_te(points_with_dlogs(a));
}

TeExtended poisoned_point() {
  TeExtended p;
  std::memset(static_cast<void*>(&p), 0xff, sizeof p);
  return p;
}

void expect_same(const TeExtended& got, const TeExtended& want, const std::string& what) {
  EXPECT_EQ(got.x, want.x) << what;
  EXPECT_EQ(got.y, want.y) << what;
  EXPECT_EQ(got.z, want.z) << what;
  EXPECT_EQ(got.t, want.t) << what;
}

TEST(Bls12377PaddGpu, ThroughputKernelMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(45);
  struct Case {
    size_t bases, threads, adds;
  };
  // One base (every index wraps to it), fewer bases than threads and more, one partial block.
  for (const Case c :
       {Case{1, 1, 3}, Case{13, 129, 7}, Case{1000, 4096, 7}, Case{1024, 1000, 2}, Case{5000, 4096, 1}}) {
    const std::vector<TePrecomputed> bases = random_bases(c.bases, rng);
    TeExtended got = poisoned_point();
    EXPECT_GT(bench::padd_throughput(bases, c.threads, c.adds, &got), 0);
    TeExtended want = TeExtended::identity();
    for (size_t k = 0; k < c.adds; ++k) want = te_add_precomputed(want, bases[(k * c.threads) % c.bases]);
    expect_same(
        got, want,
        std::to_string(c.bases) + " bases, " + std::to_string(c.threads) + " threads, " + std::to_string(c.adds));
  }
}

TEST(Bls12377PaddGpu, LatencyChainMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(46);
  for (const size_t nb : {1u, 13u, 1000u, 1024u})
    for (const size_t chain : {1u, 64u, 2500u}) {
      const std::vector<TePrecomputed> bases = random_bases(nb, rng);
      TeExtended got = poisoned_point();
      EXPECT_GT(bench::padd_latency_us(bases, chain, &got), 0);
      TeExtended want = TeExtended::identity();
      for (size_t k = 0; k < chain; ++k) want = te_add_precomputed(want, bases[k % nb]);
      expect_same(got, want, std::to_string(nb) + " bases, chain " + std::to_string(chain));
    }
}

TEST(Bls12377PaddGpu, RejectsBadSizes) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(47);
  const std::vector<TePrecomputed> bases = random_bases(4, rng);
  auto invalid = [](auto&& call) { expect_error(ErrorCode::InvalidArgument, call); };
  invalid([&] { bench::padd_throughput({}, 128, 1, nullptr); });
  invalid([&] { bench::padd_throughput(bases, 0, 1, nullptr); });
  invalid([&] { bench::padd_throughput(bases, 128, 0, nullptr); });
  invalid([&] { bench::padd_throughput(bases, size_t{1} << 32, 1, nullptr); });
  invalid([&] { bench::padd_latency_us({}, 10, nullptr); });
  invalid([&] { bench::padd_latency_us(bases, 0, nullptr); });
  invalid([&] { bench::padd_latency_us(bases, size_t{1} << 32, nullptr); });
}
#endif

}  // namespace
}  // namespace zkgpu::test
