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

// The largest Ed25519 chunk of the CUDA backend (the range of the bench's --coop-max).
size_t ed25519_max_chunk_items();

#if ZKGPU_HAVE_CUDA
// The same nodes from host memory through the GPU (upload, build, download).
void merkle_nodes_gpu_from_host(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                                Digest* nodes);

// The CUDA batch with batches of up to coop_max signatures on the 4-lanes-per-signature kernel.
void ed25519_verify_gpu(std::span<const Ed25519Item> items, std::span<uint8_t> out, Ed25519Mode mode, size_t coop_max);
// Milliseconds per run of the verification kernel alone on a batch already on the device.
std::vector<double> time_ed25519_kernel(std::span<const Ed25519Item> items, Ed25519Mode mode, int warmup, int runs,
                                        std::optional<size_t> coop_max);
#endif

}  // namespace zkgpu::bench
