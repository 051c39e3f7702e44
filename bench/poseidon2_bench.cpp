// CPU batch Poseidon2: permutations/s at widths 16 and 24 on one thread and on all threads, and
// the sponge leaf hash of 2^16 rows x 16 columns. items/s = permutations (or rows) per second.
// The SIMD level is simd_level() (cap it with ZKGPU_SIMD=scalar|avx2|avx512).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "poseidon2/cpu/batch.hpp"
#include "zkgpu/poseidon2.hpp"

namespace zkgpu {
namespace {

std::vector<BabyBear> random_elems(size_t n) {
  std::mt19937_64 g(42);
  std::vector<BabyBear> v(n);
  for (auto& x : v) x = BabyBear::from_canonical(static_cast<uint32_t>(g() % BabyBear::P));
  return v;
}

// Restores the OpenMP thread count after a single-threaded run.
struct Threads {
  int saved = omp_get_max_threads();
  explicit Threads(bool single) {
    if (single) omp_set_num_threads(1);
  }
  ~Threads() { omp_set_num_threads(saved); }
};

template <int W>
void BM_Poseidon2Permute(benchmark::State& st) {
  const size_t n = static_cast<size_t>(st.range(0));
  Threads t(st.range(1) == 1);
  auto p = poseidon2_params<W>(Poseidon2Constants::Whir);
  auto states = random_elems(n * W);
  for (auto _ : st) {
    cpu::poseidon2_permute_batch(states.data(), n, p);
    benchmark::DoNotOptimize(states.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * n));
  st.SetLabel(std::string(to_string(simd_level())) + (st.range(1) == 1 ? " 1 thread" : " all threads"));
}
// Args: {states, single_thread}
BENCHMARK(BM_Poseidon2Permute<16>)
    ->Args({1 << 14, 1})
    ->Args({1 << 16, 0})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_Poseidon2Permute<24>)
    ->Args({1 << 14, 1})
    ->Args({1 << 16, 0})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void BM_Poseidon2HashRows(benchmark::State& st) {
  const size_t rows = static_cast<size_t>(st.range(0)), cols = 16;
  Threads t(st.range(1) == 1);
  auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  auto m = random_elems(rows * cols);
  std::vector<Digest> out(rows);
  for (auto _ : st) {
    cpu::hash_rows(m.data(), rows, cols, p, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * rows));
  st.SetLabel(std::string(to_string(simd_level())) + (st.range(1) == 1 ? " 1 thread" : " all threads"));
}
BENCHMARK(BM_Poseidon2HashRows)->Args({1 << 16, 1})->Args({1 << 16, 0})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Poseidon2CompressPairs(benchmark::State& st) {
  const size_t n = static_cast<size_t>(st.range(0));
  auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  auto in_words = random_elems(2 * n * Digest::ELEMS);
  std::vector<Digest> in(2 * n), out(n);
  std::memcpy(in.data(), in_words.data(), in_words.size() * sizeof(BabyBear));
  for (auto _ : st) {
    cpu::compress_pairs(in.data(), n, p, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * n));
}
BENCHMARK(BM_Poseidon2CompressPairs)->Arg(1 << 15)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace zkgpu
