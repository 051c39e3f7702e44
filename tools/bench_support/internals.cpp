// The library internals the CLI's benchmarks time (internals.hpp), over src/.
#include "bench_support/internals.hpp"

#include "ed25519/cuda/backend.hpp"  // MAX_CHUNK_ITEMS in every build; its functions only with CUDA
#include "merkle/cpu/merkle_cpu.hpp"
#if ZKGPU_HAVE_CUDA
#include "merkle/cuda/api.hpp"
#endif

namespace zkgpu::bench {

void merkle_nodes_cpu(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes) {
  cpu::merkle_build(matrix, rows, cols, p, nodes);
}

size_t ed25519_max_chunk_items() { return ed25519::cuda::MAX_CHUNK_ITEMS; }

#if ZKGPU_HAVE_CUDA
void merkle_nodes_gpu_from_host(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                                Digest* nodes) {
  cuda::merkle_build_host(matrix, rows, cols, p, nodes);
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
