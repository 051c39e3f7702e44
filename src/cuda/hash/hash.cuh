// Device-pointer API of the CUDA hashing backend (Poseidon2, Merkle tree, proof-of-work grinding),
// for callers that keep their data on the GPU (the fused WHIR prover). Every function enqueues on
// `s` and returns without synchronising, except pow_grind_device, whose answer is a host value.
// Buffers are device memory laid out exactly as on the host (Montgomery words, row-major).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/hash/pow.hpp"
#include "core/hash/sponge.hpp"
#include "core/poseidon2/poseidon2.hpp"

namespace zkgpu::cuda {

// In place: d_states holds n states of W consecutive words each.
void poseidon2_permute_device(BabyBear* d_states, size_t n, const Poseidon2Params<16>& p, cudaStream_t s);
void poseidon2_permute_device(BabyBear* d_states, size_t n, const Poseidon2Params<24>& p, cudaStream_t s);

// Merkle tree of the row-major rows x cols matrix d_matrix (rows a power of two, cols >= 0; cols 0
// gives zero leaf digests and d_matrix may then be null). d_nodes: 2*rows - 1 digests, leaves first,
// then each level up, the root at index 2*rows - 2. Throws Error(InvalidArgument) on bad sizes.
void merkle_build_device(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                         Digest* d_nodes, cudaStream_t s);

// Searches w = 0, 1, 2, ... (as BabyBear::from_canonical(w)) for pow_witness_ok(in, w, p) and
// returns the canonical witness: the smallest one when deterministic, else any one found. Throws
// Error(InvalidArgument) when `in` is malformed or no witness below p exists. Synchronises `s`.
uint32_t pow_grind_device(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic, cudaStream_t s);

}  // namespace zkgpu::cuda
