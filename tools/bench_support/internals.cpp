// The library internals the CLI's benchmarks time (internals.hpp), over src/.
#include "bench_support/internals.hpp"

#include "ed25519/cuda/backend.hpp"  // MAX_CHUNK_ITEMS in every build; its functions only with CUDA
#include "merkle/cpu/merkle_cpu.hpp"
#include "msm/cpu/msm_cpu.hpp"
#if ZKGPU_HAVE_CUDA
#include "merkle/cuda/api.hpp"
#include "msm/cuda/api.hpp"
#endif

namespace zkgpu::bench {

void merkle_nodes_cpu(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes) {
  cpu::merkle_build(matrix, rows, cols, p, nodes);
}

void msm_cpu_phases(const bls12_377::MsmBases& bases, std::span<const bls12_377::Scalar> scalars, unsigned c,
                    PhaseTimes* phases) {
  (void)bls12_377::cpu::msm_te(bases.te_points().data(), scalars.data(), scalars.size(),
                               c ? c : bls12_377::msm_cpu_window_bits(scalars.size()),
                               bls12_377::cpu::Accumulation::Auto, phases);
}

size_t ed25519_max_chunk_items() { return ed25519::cuda::MAX_CHUNK_ITEMS; }

#if ZKGPU_HAVE_CUDA
void merkle_nodes_gpu_from_host(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                                Digest* nodes) {
  cuda::merkle_build_host(matrix, rows, cols, p, nodes);
}

std::vector<double> time_msm_resident(const bls12_377::MsmBases& bases, std::span<const bls12_377::Scalar> scalars,
                                      unsigned c, int runs) {
  bases.upload();
  return bls12_377::cuda::time_msm_resident(*bases.device(), scalars.data(), scalars.size(), c, 1, runs);
}

std::vector<double> time_msm_from_host(std::span<const bls12_377::G1Affine> points,
                                       std::span<const bls12_377::Scalar> scalars, unsigned c, int runs) {
  return bls12_377::cuda::time_msm_from_host(points.data(), scalars.data(), scalars.size(), c, 1, runs);
}

void msm_from_host_phases(std::span<const bls12_377::G1Affine> points, std::span<const bls12_377::Scalar> scalars,
                          unsigned c, PhaseTimes* phases) {
  (void)bls12_377::cuda::msm_from_host(points.data(), scalars.data(), scalars.size(), c, {.phases = phases});
}

double padd_throughput(std::span<const bls12_377::TePrecomputed> bases, size_t threads, size_t adds_per_thread,
                       bls12_377::TeExtended* check) {
  return bls12_377::cuda::padd_throughput(bases.data(), bases.size(), threads, adds_per_thread, check);
}

double padd_latency_us(std::span<const bls12_377::TePrecomputed> bases, size_t chain, bls12_377::TeExtended* check) {
  return bls12_377::cuda::padd_latency_us(bases.data(), bases.size(), chain, check);
}

void ed25519_verify_gpu(std::span<const Ed25519Item> items, std::span<uint8_t> out, Ed25519Mode mode,
                        const Ed25519GpuTuning& tuning) {
  ed25519::cuda::VerifyOptions options;
  if (tuning.coop_max) options.coop_max = *tuning.coop_max;
  if (tuning.min_chunk_items) options.min_chunk_items = *tuning.min_chunk_items;
  ed25519::cuda::verify_items(items, out, static_cast<ed25519::VerifyMode>(mode), options);
}
#endif

}  // namespace zkgpu::bench
