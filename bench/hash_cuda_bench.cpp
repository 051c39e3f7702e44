// CUDA hashing throughput, device-resident (inputs generated on the GPU, CUDA events): Poseidon2
// widths 16 and 24 at 2^24 states, Merkle trees of 2^16, 2^20 and 2^24 rows x 16 for every Merkle
// variant, PoW at 20 and 24 bits. Permutation kind 1 is the default kernel form; kinds 0 (core
// generic) and 2 (rolled rounds) are compared so one device run shows which form the card
// prefers; likewise every Merkle variant (hash_tuning.hpp). Skips without a GPU.
//   zkgpu_bench --benchmark_filter=CudaMerkle   runs the Merkle sweep alone (about 10 s).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

#include "zkgpu/backend.hpp"
#if ZKGPU_HAVE_CUDA
#include "bench_support/gpu_timing.hpp"
#include "merkle/cuda/tuning.hpp"
#endif

namespace zkgpu {
namespace {

#if ZKGPU_HAVE_CUDA

// Each benchmark iteration reports as manual time the median of the runs time_one(warmup) returns
// (fresh buffers per iteration, so one warm-up run before them; two in the first iteration, which
// also loads the kernels), with the permutation kind and Merkle variant given; both are restored
// afterwards.
template <class F>
void run_timed(benchmark::State& st, int kind, int variant, double perms_per_run, F&& time_one) {
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  const int saved_kind = cuda::poseidon2_kernel_kind(), saved_variant = cuda::merkle_variant();
  cuda::set_poseidon2_kernel_kind(kind);
  cuda::set_merkle_variant(variant);
  bool first = true;
  for (auto _ : st) {
    std::vector<double> ms = time_one(first ? 2 : 1);
    first = false;
    std::sort(ms.begin(), ms.end());
    st.SetIterationTime(ms[ms.size() / 2] * 1e-3);
  }
  cuda::set_poseidon2_kernel_kind(saved_kind);
  cuda::set_merkle_variant(saved_variant);
  st.counters["perms/s"] = benchmark::Counter(perms_per_run * st.iterations(), benchmark::Counter::kIsRate);
}

void BM_CudaPoseidon2(benchmark::State& st) {
  const int width = static_cast<int>(st.range(1));
  const size_t n = size_t(1) << 24;
  run_timed(st, static_cast<int>(st.range(0)), cuda::merkle_variant(), double(n),
            [&](int warmup) { return bench::time_poseidon2_device(width, n, warmup, 3); });
}
BENCHMARK(BM_CudaPoseidon2)
    ->ArgNames({"kind", "width"})
    ->ArgsProduct({{1, 2, 0}, {16, 24}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

void BM_CudaMerkle(benchmark::State& st) {
  const int variant = static_cast<int>(st.range(0));
  const size_t rows = size_t(1) << st.range(2), cols = 16;
  st.SetLabel(cuda::merkle_variant_name(variant));
  // Leaves: ceil(cols / 8) permutations each; compressions: rows - 1.
  const double perms = double(rows) * double((cols + 7) / 8) + double(rows - 1);
  run_timed(st, static_cast<int>(st.range(1)), variant, perms,
            [&](int warmup) { return bench::time_merkle_device(rows, cols, warmup, 3); });
}
// Every variant with the default permutation kind (1); the fused variant also with kind 2, since
// its permutation form follows the kind (the others fix theirs).
void merkle_args(benchmark::internal::Benchmark* b) {
  for (int log_rows : {16, 20, 24}) {
    for (int v = 0; v < cuda::merkle_variant_count(); ++v) b->Args({v, 1, log_rows});
    b->Args({0, 2, log_rows});
  }
}
BENCHMARK(BM_CudaMerkle)
    ->ArgNames({"variant", "kind", "log_rows"})
    ->Apply(merkle_args)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

void BM_CudaPow(benchmark::State& st) {
  const unsigned bits = static_cast<unsigned>(st.range(1));
  // Expected candidates until the first hit: 2^bits (time is geometric; runs use fresh states, and
  // one run per iteration, so the reported mean estimates the expected time).
  run_timed(st, static_cast<int>(st.range(0)), cuda::merkle_variant(), double(uint64_t(1) << bits),
            [&](int warmup) { return bench::time_pow_device(bits, warmup, 1); });
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
