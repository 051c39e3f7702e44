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

void ed25519_verify_gpu(std::span<const Ed25519Item> items, std::span<uint8_t> out, Ed25519Mode mode, size_t coop_max) {
  ed25519::cuda::VerifyOptions options;
  options.coop_max = coop_max;
  ed25519::cuda::verify_items(items, out, static_cast<ed25519::VerifyMode>(mode), options);
}

std::vector<double> time_ed25519_kernel(std::span<const Ed25519Item> items, Ed25519Mode mode, int warmup, int runs,
                                        std::optional<size_t> coop_max) {
  ed25519::cuda::VerifyOptions options;
  if (coop_max) options.coop_max = *coop_max;
  return ed25519::cuda::time_verify_device(items, static_cast<ed25519::VerifyMode>(mode), warmup, runs, options);
}
#endif

}  // namespace zkgpu::bench
