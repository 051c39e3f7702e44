// Host-facing entry points of the CUDA Poseidon2 backend, as plain C++ (no CUDA headers), so the
// front end (src/poseidon2/poseidon2.cpp) can call them. Declared only when ZKGPU_HAVE_CUDA; every function throws
// zkgpu::Error on failure (OutOfMemory when the work does not fit on the device), never aborts.
#pragma once
#include <cstddef>

#include "zkgpu/core/field/koalabear.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu::cuda {

// states: host memory, n_states consecutive states of W words, permuted in place.
void poseidon2_permute_host(BabyBear* states, size_t n_states, const Poseidon2Params<16>& p);
void poseidon2_permute_host(BabyBear* states, size_t n_states, const Poseidon2Params<24>& p);
void poseidon2_permute_host(KoalaBear* states, size_t n_states, const Poseidon2Params<16, KoalaBear>& p);
void poseidon2_permute_host(KoalaBear* states, size_t n_states, const Poseidon2Params<24, KoalaBear>& p);
// The public device-pointer call (zkgpu::poseidon2_permute_batch_device): enqueued on `stream`.
void poseidon2_permute_on_stream(BabyBear* d_states, size_t n_states, const Poseidon2Params<16>& p, void* stream);
void poseidon2_permute_on_stream(BabyBear* d_states, size_t n_states, const Poseidon2Params<24>& p, void* stream);

}  // namespace zkgpu::cuda
