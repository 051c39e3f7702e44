// The CUDA backend's host-facing entry points, as plain C++ (no CUDA headers), so the dispatch
// code in src/babybear and the CLI can call them. Implemented in src/cuda/**.cu; declared only
// when ZKGPU_HAVE_CUDA. Every function throws zkgpu::Error on failure (OutOfMemory when the
// work does not fit on the device), never aborts.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/field/babybear.hpp"
#include "core/hash/pow.hpp"
#include "core/hash/sponge.hpp"
#include "core/poseidon2/poseidon2.hpp"

namespace zkgpu::cuda {

// ---- NTT (src/cuda/ntt) ---- matrix: host memory, row-major (2^log_n) x cols, in place.
void ntt_host(BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift);
// coeffs: (2^log_n) x cols; out: (2^(log_n+log_blowup)) x cols, evaluations over shift * H'.
void lde_from_coeffs_host(const BabyBear* coeffs, unsigned log_n, size_t cols, unsigned log_blowup,
                          BabyBear shift, BabyBear* out);
// Device-resident timing with CUDA events after warm-up: one entry per run, milliseconds.
std::vector<double> time_ntt_device(unsigned log_n, size_t cols, bool inverse, int warmup, int runs);

// ---- Poseidon2, Merkle, PoW (src/cuda/hash) ----
void poseidon2_permute_host(BabyBear* states, size_t n_states, const Poseidon2Params<16>& p);
void poseidon2_permute_host(BabyBear* states, size_t n_states, const Poseidon2Params<24>& p);
// Merkle tree of a row-major rows x cols matrix (rows a power of two). nodes: 2*rows - 1 digests,
// leaves first (level 0), then each level up; the root is nodes[2*rows - 2].
void merkle_build_host(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes);
// Smallest witness (canonical value) passing pow_witness_ok when deterministic, else any valid
// one found first. Throws Error(InvalidArgument) for bits outside 1..30.
uint32_t pow_grind_host(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic);

std::vector<double> time_poseidon2_device(int width, size_t n_states, int warmup, int runs);
std::vector<double> time_merkle_device(size_t rows, size_t cols, int warmup, int runs);
std::vector<double> time_pow_device(unsigned bits, int warmup, int runs);

}  // namespace zkgpu::cuda
