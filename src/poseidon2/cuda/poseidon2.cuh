// Device-pointer API of the CUDA Poseidon2 permutation, for callers that keep their data on the GPU (the fused
// WHIR prover). Enqueues on `s` and returns without synchronising. Buffers are device memory laid out exactly as on the
// host (Montgomery words, row-major).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "zkgpu/core/field/koalabear.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu::cuda {

// In place: d_states holds n states of W consecutive words each.
void poseidon2_permute_device(BabyBear* d_states, size_t n, const Poseidon2Params<16>& p, cudaStream_t s);
void poseidon2_permute_device(BabyBear* d_states, size_t n, const Poseidon2Params<24>& p, cudaStream_t s);
void poseidon2_permute_device(KoalaBear* d_states, size_t n, const Poseidon2Params<16, KoalaBear>& p, cudaStream_t s);
void poseidon2_permute_device(KoalaBear* d_states, size_t n, const Poseidon2Params<24, KoalaBear>& p, cudaStream_t s);

}  // namespace zkgpu::cuda
