// tools/bench_support's device timings reject bad arguments and time what they are asked to.
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "bench_support/gpu_timing.hpp"
#endif

namespace zkgpu {
namespace {

#if ZKGPU_HAVE_CUDA

TEST(BenchTimingGpu, RejectsInvalidArguments) {
  ZKGPU_REQUIRE_GPU();
  EXPECT_THROW(bench::time_poseidon2_device(20, 1024, 0, 1), Error);
  EXPECT_THROW(bench::time_merkle_device(1000, 16, 0, 1), Error);
  EXPECT_THROW(bench::time_pow_device(0, 0, 1), Error);
  EXPECT_EQ(bench::time_poseidon2_device(16, 4096, 1, 2).size(), 2u);
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
