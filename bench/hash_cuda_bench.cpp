// CUDA hashing throughput, device-resident (inputs generated on the GPU, CUDA events): Poseidon2
// widths 16 and 24 at 2^24 states, Merkle trees of 2^16, 2^20 and 2^24 rows x 16, PoW at 20 and 24
// bits, each with the library's kernels. Skips without a GPU.
//   zkgpu_bench --benchmark_filter=CudaMerkle   runs the Merkle builds alone.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "zkgpu/backend.hpp"
#if ZKGPU_HAVE_CUDA
#include "bench_support/gpu_timing.hpp"
#endif

namespace zkgpu {
namespace {

#if ZKGPU_HAVE_CUDA

// Each benchmark iteration reports as manual time the median of the runs time_one(warmup) returns
// (fresh buffers per iteration, so one warm-up run before them; two in the first iteration, which
// also loads the kernels).
template <class F>
void run_timed(benchmark::State& st, double perms_per_run, F&& time_one) {
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  bool first = true;
  for (auto _ : st) {
    std::vector<double> ms = time_one(first ? 2 : 1);
    first = false;
    std::sort(ms.begin(), ms.end());
    st.SetIterationTime(ms[ms.size() / 2] * 1e-3);
  }
  st.counters["perms/s"] = benchmark::Counter(perms_per_run * st.iterations(), benchmark::Counter::kIsRate);
}

void BM_CudaPoseidon2(benchmark::State& st) {
  const int width = static_cast<int>(st.range(0));
  const size_t n = size_t(1) << 24;
  run_timed(st, double(n), [&](int warmup) { return bench::time_poseidon2_device(width, n, warmup, 3); });
}
BENCHMARK(BM_CudaPoseidon2)
    ->ArgNames({"width"})
    ->Arg(16)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

void BM_CudaMerkle(benchmark::State& st) {
  const size_t rows = size_t(1) << st.range(0), cols = 16;
  // Leaves: ceil(cols / 8) permutations each; compressions: rows - 1.
  const double perms = double(rows) * double((cols + 7) / 8) + double(rows - 1);
  run_timed(st, perms, [&](int warmup) { return bench::time_merkle_device(rows, cols, warmup, 3); });
}
BENCHMARK(BM_CudaMerkle)
    ->ArgNames({"log_rows"})
    ->Arg(16)
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

void BM_CudaPow(benchmark::State& st) {
  const unsigned bits = static_cast<unsigned>(st.range(0));
  // Expected candidates until the first hit: 2^bits (time is geometric; runs use fresh states, and
  // one run per iteration, so the reported mean estimates the expected time).
  run_timed(st, double(uint64_t(1) << bits), [&](int warmup) { return bench::time_pow_device(bits, warmup, 1); });
}
BENCHMARK(BM_CudaPow)
    ->ArgNames({"bits"})
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
