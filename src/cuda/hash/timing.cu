// Device-resident timings for the benchmarks: inputs generated on the GPU, warm-up runs first,
// then CUDA events around each run (milliseconds per run). Constants: the WHIR set.
#include <random>
#include <string>
#include <vector>

#include "core/poseidon2/params.hpp"
#include "cuda/api.hpp"
#include "cuda/hash/hash.cuh"
#include "cuda/hash/kernels.cuh"
#include "cuda/runtime.cuh"

namespace zkgpu::cuda {
namespace {

void check_runs(int warmup, int runs, const char* what) {
  if (warmup < 0 || runs < 1)
    throw_invalid(std::string(what) + ": need warmup >= 0 and runs >= 1, got " + std::to_string(warmup) + ", " +
                  std::to_string(runs));
}

// Times f(stream) `runs` times after `warmup` untimed calls.
template <class F>
std::vector<double> time_runs(int warmup, int runs, Stream& stream, F&& f) {
  for (int i = 0; i < warmup; ++i) f(stream);
  stream.sync();
  std::vector<double> ms;
  Event a, b;
  for (int i = 0; i < runs; ++i) {
    a.record(stream);
    f(stream);
    b.record(stream);
    b.sync();
    ms.push_back(b.since(a));
  }
  return ms;
}

template <int W>
std::vector<double> time_permute(size_t n, int warmup, int runs) {
  const auto p = poseidon2_params<W>(Poseidon2Constants::Whir);
  require_device_memory(n * W * sizeof(BabyBear), "Poseidon2 timing states");
  Stream stream;
  DeviceBuffer<BabyBear> d(n * W);
  hash_detail::fill_random_device(d.data(), n * W, 0x5eed0001, stream);
  // In place: each run permutes the previous run's output, so inputs never repeat.
  return time_runs(warmup, runs, stream, [&](cudaStream_t s) { poseidon2_permute_device(d.data(), n, p, s); });
}

}  // namespace

std::vector<double> time_poseidon2_device(int width, size_t n_states, int warmup, int runs) {
  check_runs(warmup, runs, "time_poseidon2_device");
  if (n_states == 0) throw_invalid("time_poseidon2_device: n_states must be > 0");
  if (width == 16) return time_permute<16>(n_states, warmup, runs);
  if (width == 24) return time_permute<24>(n_states, warmup, runs);
  throw_invalid("time_poseidon2_device: width must be 16 or 24, got " + std::to_string(width));
}

std::vector<double> time_merkle_device(size_t rows, size_t cols, int warmup, int runs) {
  check_runs(warmup, runs, "time_merkle_device");
  if (rows == 0 || (rows & (rows - 1)) != 0)
    throw_invalid("time_merkle_device: rows must be a power of two, got " + std::to_string(rows));
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  require_device_memory(rows * cols * sizeof(BabyBear) + (2 * rows - 1) * sizeof(Digest), "Merkle timing");
  Stream stream;
  DeviceBuffer<BabyBear> d_matrix(rows * cols);
  DeviceBuffer<Digest> d_nodes(2 * rows - 1);
  hash_detail::fill_random_device(d_matrix.data(), rows * cols, 0x5eed0002, stream);
  return time_runs(warmup, runs, stream, [&](cudaStream_t s) {
    merkle_build_device(d_matrix.data(), rows, cols, p, d_nodes.data(), s);
  });
}

std::vector<double> time_pow_device(unsigned bits, int warmup, int runs) {
  check_runs(warmup, runs, "time_pow_device");
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

}  // namespace zkgpu::cuda
