// BabyBear NTT / LDE on device pointers (the building block of GPU provers). Same contract as
// include/zkgpu/ntt.hpp: a row-major (2^log_n) x cols matrix, each column a polynomial, natural
// order in and out; forward evaluates over shift * <w>, w = two_adic_generator(log_n); inverse is
// its exact inverse (1/n and shift^-i included). Every call is asynchronous on `s`, throws
// zkgpu::Error on failure and never synchronises the stream.
//
// Algorithm: a Stockham (autosort) NTT in at most ceil(log_n / 10) global passes; each pass is a
// radix-2^k step done by a thread block in shared memory (see ntt.cu and stockham_model.py, the
// executable model of its index maps).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cuda {

// Kernel variants, all computing the same bytes (tests check each against the CPU backend):
//   0  reference: 64-bit index arithmetic, fully reduced arithmetic, XOR-swizzled shared layout;
//   1  lean: 32-bit offsets (used when rows * cols < 2^32, else the call falls back to 0), the
//      zero-padding test hoisted out of the loads, lazy differences before twiddle products and a
//      lazy twiddle chain;
//   2  lean plus a row-padded shared layout whose addresses are a per-thread base plus immediates
//      (the staged first pass of a narrow matrix keeps variant 1's layout).
// Process-wide, for benchmarks and tests; not synchronised with transforms in flight on other
// host threads.
constexpr int kNttVariantCount = 3;
void set_ntt_variant(int variant);  // throws zkgpu::Error outside [0, kNttVariantCount)
int ntt_variant();

// Number of global-memory passes (kernel launches) for a transform of 2^log_n rows.
unsigned ntt_pass_count(unsigned log_n);

// Scratch elements (BabyBear words) the transforms below need; 0 means none.
size_t ntt_scratch_elems(unsigned log_n, size_t cols);
size_t lde_scratch_elems(unsigned log_n, size_t cols, unsigned log_blowup);

// In place. Allocates its scratch stream-ordered (cudaMallocAsync) when it needs one.
void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, cudaStream_t s);
// Same with caller-owned scratch of at least ntt_scratch_elems(log_n, cols) elements (may be null
// when that is 0). The scratch must not overlap d_matrix.
void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, BabyBear* d_scratch,
                cudaStream_t s);

// d_out (2^(log_n+log_blowup) x cols) = evaluations over shift * H' of the columns of d_coeffs
// (2^log_n x cols coefficients), zero-padded. The padding is never written or read: the first pass
// treats rows >= 2^log_n as zero, and the coset shift is applied as it loads. d_out must not
// overlap d_coeffs.
void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, cudaStream_t s);
void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, BabyBear* d_scratch, cudaStream_t s);

}  // namespace zkgpu::cuda
