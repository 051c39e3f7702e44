// CPU scalar field throughput: the per-element cost every other kernel builds on.
#include <benchmark/benchmark.h>

#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"

namespace zkgpu {

static void BM_BabyBearMulChain(benchmark::State& st) {
  // 8 independent chains: throughput, not latency.
  BabyBear acc[8], m = BabyBear::from_canonical(1234567);
  for (int i = 0; i < 8; ++i) acc[i] = BabyBear::from_canonical(i + 1);
  for (auto _ : st) {
    for (int r = 0; r < 128; ++r)
      for (int i = 0; i < 8; ++i) acc[i] *= m;
    benchmark::DoNotOptimize(acc);
  }
  st.SetItemsProcessed(st.iterations() * 128 * 8);
}
BENCHMARK(BM_BabyBearMulChain);

static void BM_BabyBear4Mul(benchmark::State& st) {
  BabyBear4 a = {{BabyBear::from_canonical(3), BabyBear::from_canonical(5), BabyBear::from_canonical(7),
                  BabyBear::from_canonical(9)}};
  BabyBear4 b = a.inverse();
  for (auto _ : st) {
    for (int r = 0; r < 128; ++r) a *= b;
    benchmark::DoNotOptimize(a);
  }
  st.SetItemsProcessed(st.iterations() * 128);
}
BENCHMARK(BM_BabyBear4Mul);

}  // namespace zkgpu

BENCHMARK_MAIN();
