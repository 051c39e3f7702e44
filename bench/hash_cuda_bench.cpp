// CUDA hashing throughput, device-resident (inputs generated on the GPU, CUDA events): Poseidon2
// widths 16 and 24 at 2^24 states, Merkle trees of 2^20 and 2^24 rows x 16, PoW at 20 and 24 bits.
// Kind 1 is the default kernel form; kinds 0 (core generic) and 2 (rolled rounds) are compared so
// one device run shows which form the card prefers. Skips without a GPU.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "zkgpu/backend.hpp"
#if ZKGPU_HAVE_CUDA
#include "cuda/api.hpp"
#include "cuda/hash/hash_tuning.hpp"
#endif

namespace zkgpu {
namespace {

#if ZKGPU_HAVE_CUDA

// One timed run per benchmark iteration, reported as manual time.
template <class F>
void run_timed(benchmark::State& st, double perms_per_run, F&& time_one) {
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  const int saved = cuda::poseidon2_kernel_kind();
  cuda::set_poseidon2_kernel_kind(static_cast<int>(st.range(0)));
  bool first = true;
  for (auto _ : st) {
    std::vector<double> ms = time_one(first ? 2 : 0);
    first = false;
    st.SetIterationTime(ms[0] * 1e-3);
  }
  cuda::set_poseidon2_kernel_kind(saved);
  st.counters["perms/s"] = benchmark::Counter(perms_per_run * st.iterations(), benchmark::Counter::kIsRate);
}

void BM_CudaPoseidon2(benchmark::State& st) {
  const int width = static_cast<int>(st.range(1));
  const size_t n = size_t(1) << 24;
  run_timed(st, double(n), [&](int warmup) { return cuda::time_poseidon2_device(width, n, warmup, 1); });
}
BENCHMARK(BM_CudaPoseidon2)
    ->ArgNames({"kind", "width"})
    ->ArgsProduct({{1, 2, 0}, {16, 24}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(10);

void BM_CudaMerkle(benchmark::State& st) {
  const size_t rows = size_t(1) << st.range(1), cols = 16;
  // Leaves: ceil(cols / 8) permutations each; compressions: rows - 1.
  const double perms = double(rows) * double((cols + 7) / 8) + double(rows - 1);
  run_timed(st, perms, [&](int warmup) { return cuda::time_merkle_device(rows, cols, warmup, 1); });
}
BENCHMARK(BM_CudaMerkle)
    ->ArgNames({"kind", "log_rows"})
    ->ArgsProduct({{1, 2}, {20, 24}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(10);

void BM_CudaPow(benchmark::State& st) {
  const unsigned bits = static_cast<unsigned>(st.range(1));
  // Expected candidates until the first hit: 2^bits (time is geometric; runs use fresh states).
  run_timed(st, double(uint64_t(1) << bits), [&](int warmup) { return cuda::time_pow_device(bits, warmup, 1); });
}
BENCHMARK(BM_CudaPow)
    ->ArgNames({"kind", "bits"})
    ->ArgsProduct({{1}, {20, 24}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
