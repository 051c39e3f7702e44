// Host-facing entry points of the CUDA Merkle backend, as plain C++ (no CUDA headers), so the
// front end (src/merkle/merkle.cpp) can call them. Declared only when ZKGPU_HAVE_CUDA; every function throws
// zkgpu::Error on failure (OutOfMemory when the work does not fit on the device), never aborts.
#pragma once
#include <cstddef>

#include "zkgpu/core/hash/sponge.hpp"

namespace zkgpu::cuda {

// Merkle tree of a row-major rows x cols matrix (rows a power of two). nodes: 2*rows - 1 digests,
// leaves first (level 0), then each level up; the root is nodes[2*rows - 2].
void merkle_build_host(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes);
// The public device-pointer call (zkgpu::merkle_build_device): enqueued on `stream`.
void merkle_build_on_stream(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                            Digest* d_nodes, void* stream);

}  // namespace zkgpu::cuda
