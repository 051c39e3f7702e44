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

// Kernel forms by their cuda::NttKernelForm number, so the CPU-only build (no src/ntt/cuda headers)
// registers the same benchmarks.
const char* const FORM_NAMES[] = {"auto", "reference", "lean", "lean_padded"};

void BM_CudaNtt(benchmark::State& st) {
  const unsigned log_n = static_cast<unsigned>(st.range(0));
  const size_t cols = static_cast<size_t>(st.range(1));
  const bool inverse = st.range(2) != 0;
  const int form = static_cast<int>(st.range(3));
  st.SetLabel(FORM_NAMES[form]);
#if ZKGPU_HAVE_CUDA
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  std::vector<double> ms;
  try {
    ms =
        bench::time_ntt_device(log_n, cols, inverse, /*warmup=*/3, /*runs=*/50, static_cast<cuda::NttKernelForm>(form));
  } catch (const Error& e) {
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
  (void)log_n, (void)cols, (void)inverse;
  st.SkipWithError("this build has no CUDA backend");
#endif
}

// Every explicit kernel form (reference, lean, lean_padded; auto is lean_padded at these sizes) at
// each size: one device run compares them all.
void form_sweep(benchmark::internal::Benchmark* b) {
  for (int form : {1, 2, 3}) {
    for (int log_n : {20, 22, 24, 26}) b->Args({log_n, 1, 0, form});
    b->Args({24, 1, 1, form});
    b->Args({20, 16, 0, form});
  }
}

BENCHMARK(BM_CudaNtt)
    ->ArgNames({"log_n", "cols", "inverse", "form"})
    ->Apply(form_sweep)
    ->UseManualTime()
    ->Iterations(50)
    ->Unit(benchmark::kMicrosecond);

#if ZKGPU_HAVE_CUDA
static_assert(static_cast<int>(cuda::NttKernelForm::Auto) == 0 &&
                  static_cast<int>(cuda::NttKernelForm::Reference) == 1 &&
                  static_cast<int>(cuda::NttKernelForm::Lean) == 2 &&
                  static_cast<int>(cuda::NttKernelForm::LeanPadded) == 3,
              "update FORM_NAMES and form_sweep");
#endif

}  // namespace
}  // namespace zkgpu
