// Batched Poseidon2 on the CPU: the permutation over many states, the sponge leaf hash of many
// rows and the 2-to-1 compression of many digest pairs. Vectorised one state per SIMD lane
// (AVX-512: 16, AVX2: 8, else 1; chosen at run time by simd_level()) and threaded with OpenMP.
// Results equal the scalar core (core/poseidon2, core/hash/sponge.hpp) bit for bit.
#pragma once
#include <cstddef>

#include "zkgpu/core/field/koalabear.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu::cpu {

// In place: states[i*W .. i*W+W) is state i, for i < n_states.
void poseidon2_permute_batch(BabyBear* states, size_t n_states, const Poseidon2Params<16>& p);
void poseidon2_permute_batch(BabyBear* states, size_t n_states, const Poseidon2Params<24>& p);
// KoalaBear: the scalar core permutation on every thread (the SIMD lanes are BabyBear's so far).
void poseidon2_permute_batch(KoalaBear* states, size_t n_states, const Poseidon2Params<16, KoalaBear>& p);
void poseidon2_permute_batch(KoalaBear* states, size_t n_states, const Poseidon2Params<24, KoalaBear>& p);

// out[i] = sponge_hash(matrix + i*cols, cols, p) for i < rows (row-major matrix; cols == 0 gives
// zero digests).
void hash_rows(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* out);

// out[j] = compress(in[2j], in[2j+1], p) for j < n_out. in and out must not overlap.
void compress_pairs(const Digest* in, size_t n_out, const Poseidon2Params<16>& p, Digest* out);

}  // namespace zkgpu::cpu
