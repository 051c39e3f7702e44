// BabyBear NTT / LDE on device pointers (the building block of GPU provers). Same contract as
// include/zkgpu/ntt.hpp: a row-major (2^log_n) x cols matrix, each column a polynomial, natural
// order in and out; forward evaluates over shift * <w>, w = two_adic_generator(log_n); inverse is
// its exact inverse (1/n and shift^-i included). Every call is asynchronous on `s`, throws
// zkgpu::Error on failure and never synchronises the stream.
//
// Algorithm: a Stockham (autosort) NTT in at most ceil(log_n / 10) global passes; each pass is a
// radix-2^k step done by a thread block in shared memory (see ntt.cu and tools/models/stockham_model.py, the
// executable model of its index maps).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "ntt/cuda/api.hpp"  // NttKernelForm
#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cuda {

// Number of global-memory passes (kernel launches) for a transform of 2^log_n rows.
unsigned ntt_pass_count(unsigned log_n);

// Scratch elements (BabyBear words) the transforms below need; 0 means none.
size_t ntt_scratch_elems(unsigned log_n, size_t cols);
size_t lde_scratch_elems(unsigned log_n, size_t cols, unsigned log_blowup);

// In place. Allocates its scratch stream-ordered (cudaMallocAsync) when it needs one. `form`
// (ntt/cuda/api.hpp) picks the kernels; Auto is the library's choice.
void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, cudaStream_t s,
                NttKernelForm form = NttKernelForm::Auto);
// Same with caller-owned scratch of at least ntt_scratch_elems(log_n, cols) elements (may be null
// when that is 0). The scratch must not overlap d_matrix.
void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, BabyBear* d_scratch,
                cudaStream_t s, NttKernelForm form = NttKernelForm::Auto);

// d_out (2^(log_n+log_blowup) x cols) = evaluations over shift * H' of the columns of d_coeffs
// (2^log_n x cols coefficients), zero-padded. The padding is never written or read: the first pass
// treats rows >= 2^log_n as zero, and the coset shift is applied as it loads. d_out must not
// overlap d_coeffs.
void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, cudaStream_t s, NttKernelForm form = NttKernelForm::Auto);
void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, BabyBear* d_scratch, cudaStream_t s,
                            NttKernelForm form = NttKernelForm::Auto);

}  // namespace zkgpu::cuda
