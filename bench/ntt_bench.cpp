// CPU NTT throughput (items = field elements transformed per second). log_n is the first Arg so
// a filter like `/16` picks the small sizes; the column count is in the name and the thread
// count is a named argument, so neither collides with that filter.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <vector>

#include "zkgpu/ntt.hpp"

namespace zkgpu {
namespace {

std::vector<BabyBear> bench_matrix(unsigned log_n, size_t cols) {
  std::vector<BabyBear> m(cols << log_n);
  for (size_t i = 0; i < m.size(); ++i) m[i] = BabyBear::from_canonical(uint32_t((i * 2654435761u) % BabyBear::P));
  return m;
}

void run_forward(benchmark::State& st, unsigned log_n, size_t cols) {
  auto m = bench_matrix(log_n, cols);
  for (auto _ : st) {
    ntt(m, log_n, cols, NttDirection::Forward, BabyBear::one(), Backend::Cpu);
    benchmark::DoNotOptimize(m.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(cols << log_n));
  st.counters["threads"] = omp_get_max_threads();
}

void BM_NttCpuForward_cols1(benchmark::State& st) { run_forward(st, unsigned(st.range(0)), 1); }
void BM_NttCpuForward_cols16(benchmark::State& st) { run_forward(st, unsigned(st.range(0)), 16); }
BENCHMARK(BM_NttCpuForward_cols1)->Arg(16)->Arg(20)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_NttCpuForward_cols16)->Arg(16)->Arg(20)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime();

// Thread scaling of one 2^24 column: 1, 2, 4, ... threads up to all of them.
void BM_NttCpuForward_2e24_cols1(benchmark::State& st) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(int(st.range(0)));
  run_forward(st, 24, 1);
  omp_set_num_threads(saved);
}
void thread_counts(benchmark::internal::Benchmark* b) {
  const int max = omp_get_max_threads();
  for (int t = 1; t < max; t *= 2) b->Arg(t);
  b->Arg(max);
}
BENCHMARK(BM_NttCpuForward_2e24_cols1)
    ->ArgName("threads")
    ->Apply(thread_counts)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace zkgpu
