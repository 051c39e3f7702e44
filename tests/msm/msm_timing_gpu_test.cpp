// tools/bench_support's GPU MSM timings (msm_timing.hpp) time the public msm() calls they name:
// one positive entry per run, the last run's sum equal to the CPU backend's (the sum's host copy
// poisoned first) for resident bases and bases from host memory, at sizes that are powers of two
// and not and with a window given; runs < 1 and a scalar the public call rejects are errors, and
// without a usable GPU the timings are Error(Unavailable).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "bench_support/msm_timing.hpp"
#include "bls12_377/bls_test_support.hpp"
#include "support/expect_error.hpp"
#include "zkgpu/msm.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {
namespace {
using namespace zkgpu::bls12_377;

G1Affine poisoned_sum() {
  G1Affine p;
  std::memset(static_cast<void*>(&p), 0xff, sizeof p);
  return p;
}

TEST(BenchTimingGpu, MsmTimingsReturnTheCpuSum) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(52);
  for (const size_t n : {size_t{1000}, size_t{4096}, size_t{5000}})
    for (const unsigned c : {0u, 9u}) {
      std::vector<Scalar> a(n), s(n);
      for (auto& x : a) x = random_scalar(rng);
      for (auto& x : s) x = random_scalar(rng);
      const std::vector<G1Affine> points = points_with_dlogs(a);
      const MsmBases bases(points, false);
      const G1Affine want = msm(bases, s, {.backend = Backend::Cpu});
      const std::string what = "n = " + std::to_string(n) + ", c = " + std::to_string(c);
      G1Affine got = poisoned_sum();
      const std::vector<double> resident = bench::time_msm_resident(bases, s, c, 3, &got);
      EXPECT_EQ(got, want) << "resident, " << what;
      got = poisoned_sum();
      const std::vector<double> from_host = bench::time_msm_from_host(points, s, c, 2, &got);
      EXPECT_EQ(got, want) << "from host, " << what;
      ASSERT_EQ(resident.size(), 3u) << what;
      ASSERT_EQ(from_host.size(), 2u) << what;
      for (double ms : resident) EXPECT_GT(ms, 0) << what;
      for (double ms : from_host) EXPECT_GT(ms, 0) << what;
    }
}

TEST(BenchTimingGpu, MsmTimingsRejectWhatTheCallRejects) {
  ZKGPU_REQUIRE_GPU();
  std::vector<G1Affine> points = {G1Affine::generator(), mul_g(scalar_u64(5))};
  const MsmBases bases(points, false);
  std::vector<Scalar> s = {scalar_u64(1), scalar_u64(2)};
  expect_error(ErrorCode::InvalidArgument, [&] { bench::time_msm_resident(bases, s, 0, 0); });
  expect_error(ErrorCode::InvalidArgument, [&] { bench::time_msm_from_host(points, s, 0, 0); });
  s[1] = r_minus(0);  // r itself: not below r
  expect_error(ErrorCode::InvalidArgument, [&] { bench::time_msm_resident(bases, s, 0, 1); });
  expect_error(ErrorCode::InvalidArgument, [&] { bench::time_msm_from_host(points, s, 0, 1); });
  s[1] = scalar_u64(2);
  expect_error(ErrorCode::InvalidArgument, [&] { bench::time_msm_from_host(points, s, 21, 1); });
}

TEST(BenchTiming, MsmTimingsWithoutGpuAreUnavailable) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is present";
  std::vector<G1Affine> points = {G1Affine::generator()};
  const MsmBases bases(points, false);
  std::vector<Scalar> s = {scalar_u64(1)};
  expect_error(ErrorCode::Unavailable, [&] { bench::time_msm_resident(bases, s, 0, 1); });
  expect_error(ErrorCode::Unavailable, [&] { bench::time_msm_from_host(points, s, 0, 1); });
}

}  // namespace
}  // namespace zkgpu::test
