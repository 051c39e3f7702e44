// Device-pointer API of the CUDA Merkle tree build, for callers that keep their data on the GPU (the fused
// WHIR prover). Enqueues on `s` and returns without synchronising. Buffers are device memory laid out exactly as on the
// host (Montgomery words, row-major).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "zkgpu/core/hash/sponge.hpp"

namespace zkgpu::cuda {

// Merkle tree of the row-major rows x cols matrix d_matrix (rows a power of two, cols >= 0; cols 0
// gives zero leaf digests and d_matrix may then be null). d_nodes: 2*rows - 1 digests, leaves first,
// then each level up, the root at index 2*rows - 2. Throws Error(InvalidArgument) on bad sizes.
void merkle_build_device(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                         Digest* d_nodes, cudaStream_t s);

}  // namespace zkgpu::cuda
