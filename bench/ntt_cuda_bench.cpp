// CUDA NTT, device-resident (no host transfers), timed with CUDA events per run. GB/s counts one
// read and one write of the matrix per global pass, so it compares directly with the copy
// bandwidth of the card.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "bench_support/gpu_timing.hpp"
#include "ntt/cuda/ntt.cuh"
#endif

namespace zkgpu {
namespace {

void BM_CudaNtt(benchmark::State& st) {
  const unsigned log_n = static_cast<unsigned>(st.range(0));
  const size_t cols = static_cast<size_t>(st.range(1));
  const bool inverse = st.range(2) != 0;
  const int variant = static_cast<int>(st.range(3));
#if ZKGPU_HAVE_CUDA
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  std::vector<double> ms;
  const int before = cuda::ntt_variant();
  try {
    cuda::set_ntt_variant(variant);
    ms = bench::time_ntt_device(log_n, cols, inverse, /*warmup=*/3, /*runs=*/50);
    cuda::set_ntt_variant(before);
  } catch (const Error& e) {
    cuda::set_ntt_variant(before);
    st.SkipWithError(e.what());
    return;
  }
  size_t i = 0;
  for (auto _ : st) st.SetIterationTime(ms[i++ % ms.size()] * 1e-3);
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const double median_s = sorted[sorted.size() / 2] * 1e-3;
  const double bytes = 2.0 * sizeof(uint32_t) * double(cols) * double(uint64_t(1) << log_n);
  const unsigned passes = cuda::ntt_pass_count(log_n);
  st.counters["passes"] = passes;
  st.counters["median_us"] = median_s * 1e6;
  st.counters["GB/s"] = bytes * passes / median_s * 1e-9;  // one read + one write per pass
  st.counters["elems/s"] = double(cols) * double(uint64_t(1) << log_n) / median_s;
#else
  (void)log_n, (void)cols, (void)inverse, (void)variant;
  st.SkipWithError("this build has no CUDA backend");
#endif
}

// Every kernel variant (cuda/ntt/ntt.cuh) at each size: one device run compares them all.
void variant_sweep(benchmark::internal::Benchmark* b) {
  const int variants = 3;  // cuda::kNttVariantCount; literal so the CPU-only build needs no CUDA header
  for (int v = 0; v < variants; ++v) {
    for (int log_n : {20, 22, 24, 26}) b->Args({log_n, 1, 0, v});
    b->Args({24, 1, 1, v});
    b->Args({20, 16, 0, v});
  }
}

BENCHMARK(BM_CudaNtt)
    ->ArgNames({"log_n", "cols", "inverse", "variant"})
    ->Apply(variant_sweep)
    ->UseManualTime()
    ->Iterations(50)
    ->Unit(benchmark::kMicrosecond);

#if ZKGPU_HAVE_CUDA
static_assert(cuda::kNttVariantCount == 3, "update variant_sweep");
#endif

}  // namespace
}  // namespace zkgpu
