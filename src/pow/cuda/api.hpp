// Host-facing entry points of the CUDA proof-of-work backend, as plain C++ (no CUDA headers), so the
// front end (src/pow/pow.cpp) can call them. Declared only when ZKGPU_HAVE_CUDA; every function throws
// zkgpu::Error on failure (OutOfMemory when the work does not fit on the device), never aborts.
#pragma once
#include <cstdint>

#include "zkgpu/core/hash/pow.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu::cuda {

// Smallest witness (canonical value) passing pow_witness_ok when deterministic, else any valid
// one found first. Throws Error(InvalidArgument) for bits outside 1..30.
uint32_t pow_grind_host(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic);

}  // namespace zkgpu::cuda
