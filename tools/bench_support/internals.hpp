// What the CLI's benchmarks time below the public API, so that cli/ includes only the public
// headers, src/io and tools/bench_support: the hashing of a Merkle tree without the public
// MerkleTree's matrix copy, and Ed25519 batches with another kernel choice and the kernel alone.
// The CUDA functions are declared only when ZKGPU_HAVE_CUDA.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "zkgpu/ed25519.hpp"
#include "zkgpu/merkle.hpp"

namespace zkgpu::bench {

// The 2*rows - 1 digests of MerkleTree::nodes() into `nodes`, on the CPU backend.
void merkle_nodes_cpu(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes);

// The largest Ed25519 chunk of the CUDA backend (the range of the bench's --coop-max and
// --min-chunk).
size_t ed25519_max_chunk_items();

// Tuning values of the Ed25519 CUDA backend the bench sweeps; unset: the library's default.
struct Ed25519GpuTuning {
  std::optional<size_t> coop_max;         // chunks up to this size run the 4-lanes-per-signature kernel
  std::optional<size_t> min_chunk_items;  // chunks hold at least this many items
  bool any() const { return coop_max || min_chunk_items; }
};

#if ZKGPU_HAVE_CUDA
// The same nodes from host memory through the GPU (upload, build, download).
void merkle_nodes_gpu_from_host(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                                Digest* nodes);

// The CUDA batch (host items in, verdicts out) with this tuning.
void ed25519_verify_gpu(std::span<const Ed25519Item> items, std::span<uint8_t> out, Ed25519Mode mode,
                        const Ed25519GpuTuning& tuning);
// Milliseconds per run of verifying the batch already on the device (ed25519_timing.cu): the
// items packed and uploaded once, then ed25519_verify_batch_device timed with CUDA events on a
// stream of its own after `warmup` untimed runs. With coop_max, the backend's entry behind that
// call, with that kernel choice. Error(InvalidArgument) for warmup < 0 or runs < 1.
std::vector<double> time_ed25519_kernel(std::span<const Ed25519Item> items, Ed25519Mode mode, int warmup, int runs,
                                        std::optional<size_t> coop_max);
#endif

}  // namespace zkgpu::bench
