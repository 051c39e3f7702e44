// Merkle commitment and proof-of-work grinding: the two hash-bound steps of a WHIR round.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "zkgpu/core/poseidon2/params.hpp"
#include "zkgpu/challenger.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/pow.hpp"

namespace zkgpu {
namespace {

const Poseidon2Params<16>& bench_params() {
  static const Poseidon2Params<16> p = poseidon2_params<16>(Poseidon2Constants::Whir);
  return p;
}

std::vector<BabyBear> random_matrix(size_t n) {
  std::mt19937_64 g(42);
  std::vector<BabyBear> m(n);
  for (auto& x : m) x = BabyBear::from_canonical(static_cast<uint32_t>(g() % BabyBear::P));
  return m;
}

// Arg: log2(rows); 16 columns (two sponge absorptions per leaf). Includes the matrix copy the
// tree keeps for openings, as a caller of MerkleTree::build pays it.
void merkle_build(benchmark::State& st, Backend backend) {
  if (backend == Backend::Cuda && !cuda_usable()) {
    st.SkipWithError("no usable GPU");
    return;
  }
  const size_t rows = size_t(1) << st.range(0), cols = 16;
  const auto m = random_matrix(rows * cols);
  for (auto _ : st) {
    auto tree = MerkleTree::build(m, rows, cols, bench_params(), backend);
    benchmark::DoNotOptimize(tree.root());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(rows));  // rows (leaves) per second
  st.counters["permutations/s"] =
      benchmark::Counter(static_cast<double>(st.iterations()) * (3 * rows - 1), benchmark::Counter::kIsRate);
}

void BM_MerkleBuildCpu(benchmark::State& st) { merkle_build(st, Backend::Cpu); }
BENCHMARK(BM_MerkleBuildCpu)->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MerkleBuildCuda(benchmark::State& st) { merkle_build(st, Backend::Cuda); }
BENCHMARK(BM_MerkleBuildCuda)->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();

// Arg: PoW bits; deterministic (smallest witness) search. Each iteration grinds a different
// transcript, so the mean approaches the expected 2^bits permutations.
void pow_grind_bench(benchmark::State& st, Backend backend) {
  if (backend == Backend::Cuda && !cuda_usable()) {
    st.SkipWithError("no usable GPU");
    return;
  }
  const unsigned bits = static_cast<unsigned>(st.range(0));
  uint32_t salt = 0;
  for (auto _ : st) {
    DuplexChallenger c(bench_params());
    c.observe(BabyBear::from_canonical(++salt));
    benchmark::DoNotOptimize(c.grind(bits, backend, true));
  }
}

void BM_PowGrindCpu(benchmark::State& st) { pow_grind_bench(st, Backend::Cpu); }
BENCHMARK(BM_PowGrindCpu)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PowGrindCuda(benchmark::State& st) { pow_grind_bench(st, Backend::Cuda); }
BENCHMARK(BM_PowGrindCuda)->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace zkgpu
