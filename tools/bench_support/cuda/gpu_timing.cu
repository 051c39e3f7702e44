// Device-resident timings of the NTT and the hash kernels (gpu_timing.hpp): inputs generated on the
// GPU, warm-up runs first, then CUDA events around each run.
#include <random>
#include <string>
#include <vector>

#include "zkgpu/core/poseidon2/koalabear_params.hpp"
#include "zkgpu/core/poseidon2/params.hpp"
#include "bench_support/gpu_timing.hpp"
#include "bench_support/cuda/event_timing.cuh"
#include "bench_support/wall_time.hpp"  // check_runs
#include "ntt/cuda/ntt.cuh"
#include "poseidon2/cuda/poseidon2.cuh"
#include "merkle/cuda/merkle.cuh"
#include "pow/cuda/pow.cuh"
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::bench {
using namespace zkgpu::cuda;
namespace {

// Pseudo-random words < p (any such word is a Montgomery word): a SplitMix64 of (seed, index).
template <class F>
__global__ void fill_random_kernel(F* d, size_t n, uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    d[i] = F::from_monty(static_cast<uint32_t>(z % F::P));
  }
}

template <class F>
void fill_random_device(F* d, size_t n, uint64_t seed, cudaStream_t s) {
  if (n == 0) return;
  fill_random_kernel<<<4096, 256, 0, s>>>(d, n, seed);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

template <int W, class F>
std::vector<double> time_permute(const Poseidon2Params<W, F>& p, size_t n, int warmup, int runs) {
  require_device_memory(n * W * sizeof(F), "Poseidon2 timing states");
  Stream stream;
  DeviceBuffer<F> d(n * W);
  fill_random_device(d.data(), n * W, 0x5eed0001, stream);
  // In place: each run permutes the previous run's output, so inputs never repeat.
  return time_runs(warmup, runs, stream, [&](cudaStream_t s) { poseidon2_permute_device(d.data(), n, p, s); });
}

}  // namespace

std::vector<double> time_ntt_device(unsigned log_n, size_t cols, bool inverse, int warmup, int runs,
                                    NttKernelForm form) {
  check_runs("time_ntt_device", warmup, runs);
  if (log_n > BabyBear::TWO_ADICITY || cols == 0 || cols > (size_t(1) << 30))
    throw_invalid("time_ntt_device: need log_n <= 27 and 1 <= cols <= 2^30, got " + std::to_string(log_n) + ", " +
                  std::to_string(cols));
  const size_t elems = (size_t(1) << log_n) * cols;
  const size_t scratch = ntt_scratch_elems(log_n, cols);
  require_device_memory((elems + scratch) * sizeof(BabyBear), "NTT timing (matrix + scratch)");
  Stream stream;
  DeviceBuffer<BabyBear> d(elems), tmp(scratch);
  fill_random_device(d.data(), elems, 0x6e7474ull + log_n * 131 + cols, stream);
  // Repeated transforms keep the data pseudo-random (never zero), so every run does real work.
  return time_runs(warmup, runs, stream, [&](cudaStream_t s) {
    ntt_device(d.data(), log_n, cols, inverse, BabyBear::one(), tmp.data(), s, form);
  });
}

std::vector<double> time_poseidon2_device(int width, size_t n_states, int warmup, int runs) {
  check_runs("time_poseidon2_device", warmup, runs);
  if (n_states == 0) throw_invalid("time_poseidon2_device: n_states must be > 0");
  if (width == 16) return time_permute(poseidon2_params<16>(Poseidon2Constants::Whir), n_states, warmup, runs);
  if (width == 24) return time_permute(poseidon2_params<24>(Poseidon2Constants::Whir), n_states, warmup, runs);
  throw_invalid("time_poseidon2_device: width must be 16 or 24, got " + std::to_string(width));
}

std::vector<double> time_koalabear_poseidon2_device(int width, size_t n_states, int warmup, int runs) {
  check_runs("time_koalabear_poseidon2_device", warmup, runs);
  if (n_states == 0) throw_invalid("time_koalabear_poseidon2_device: n_states must be > 0");
  if (width == 16) return time_permute(koalabear_poseidon2_plonky3_params<16>(), n_states, warmup, runs);
  if (width == 24) return time_permute(koalabear_poseidon2_plonky3_params<24>(), n_states, warmup, runs);
  throw_invalid("time_koalabear_poseidon2_device: width must be 16 or 24, got " + std::to_string(width));
}

std::vector<double> time_merkle_device(size_t rows, size_t cols, int warmup, int runs) {
  check_runs("time_merkle_device", warmup, runs);
  if (rows == 0 || (rows & (rows - 1)) != 0)
    throw_invalid("time_merkle_device: rows must be a power of two, got " + std::to_string(rows));
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  require_device_memory(rows * cols * sizeof(BabyBear) + (2 * rows - 1) * sizeof(Digest), "Merkle timing");
  Stream stream;
  DeviceBuffer<BabyBear> d_matrix(rows * cols);
  DeviceBuffer<Digest> d_nodes(2 * rows - 1);
  fill_random_device(d_matrix.data(), rows * cols, 0x5eed0002, stream);
  return time_runs(warmup, runs, stream,
                   [&](cudaStream_t s) { merkle_build_device(d_matrix.data(), rows, cols, p, d_nodes.data(), s); });
}

std::vector<double> time_pow_device(unsigned bits, int warmup, int runs) {
  check_runs("time_pow_device", warmup, runs);
  if (bits < 1 || bits > 30) throw_invalid("time_pow_device: bits must be in 1..30, got " + std::to_string(bits));
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  std::mt19937_64 rng(0x5eed0003);
  // A fresh random challenger state per run: grinding time is geometric, so one state says little.
  auto random_input = [&] {
    PowInput in{};
    for (auto& x : in.state) x = BabyBear::from_canonical(static_cast<uint32_t>(rng() % BabyBear::P));
    in.n_pending = static_cast<uint32_t>(rng() % 8);
    for (uint32_t i = 0; i < in.n_pending; ++i)
      in.pending[i] = BabyBear::from_canonical(static_cast<uint32_t>(rng() % BabyBear::P));
    in.bits = bits;
    return in;
  };
  Stream stream;
  volatile uint32_t sink = 0;
  return time_runs(warmup, runs, stream, [&](cudaStream_t s) { sink = pow_grind_device(random_input(), p, true, s); });
}

}  // namespace zkgpu::bench
