// Device-pointer API of the CUDA proof-of-work search, for callers that keep their data on the GPU (the fused
// WHIR prover). Synchronises `s`: its answer is a host value. Buffers are device memory laid out exactly as on the host
// (Montgomery words, row-major).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "zkgpu/core/hash/pow.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu::cuda {

// Searches w = 0, 1, 2, ... (as BabyBear::from_canonical(w)) for pow_witness_ok(in, w, p) and
// returns the canonical witness: the smallest one when deterministic, else any one found. Throws
// Error(InvalidArgument) when `in` is malformed or no witness below p exists.
uint32_t pow_grind_device(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic, cudaStream_t s);

}  // namespace zkgpu::cuda
