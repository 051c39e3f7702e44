// CPU (multi-threaded) Merkle build, the reference the CUDA build is compared with.
#pragma once
#include <cstddef>

#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu::cpu {

// matrix: row-major rows x cols, rows a power of two >= 1, cols >= 1 (the caller checks).
// nodes: 2*rows - 1 digests, leaves first, then each level up; the root is nodes[2*rows - 2]
// (the layout of zkgpu::cuda::merkle_build_host).
void merkle_build(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes);

}  // namespace zkgpu::cpu
