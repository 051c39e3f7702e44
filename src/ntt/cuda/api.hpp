// Host-facing entry points of the CUDA NTT backend, as plain C++ (no CUDA headers), so the
// front end (src/ntt/ntt.cpp) can call them. Declared only when ZKGPU_HAVE_CUDA; every function throws
// zkgpu::Error on failure (OutOfMemory when the work does not fit on the device), never aborts.
#pragma once
#include <cstddef>

#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cuda {

// The kernel form of a transform's passes; every form computes the same bytes (the tests check each
// against the CPU backend):
//   Reference   64-bit index arithmetic, fully reduced arithmetic, XOR-swizzled shared layout;
//   Lean        32-bit offsets (needs rows * cols < 2^32), the zero-padding test hoisted out of the
//               loads, lazy differences before twiddle products and a lazy twiddle chain;
//   LeanPadded  Lean plus a row-padded shared layout whose addresses are a per-thread base plus
//               immediates; the staged first pass of a narrow matrix (cols < 16) keeps Lean's layout;
//   Auto        LeanPadded when rows * cols < 2^32 (the fastest on the H200), else Reference.
// Lean and LeanPadded throw Error(InvalidArgument) for rows * cols >= 2^32.
enum class NttKernelForm { Auto, Reference, Lean, LeanPadded };

// matrix: host memory, row-major (2^log_n) x cols, in place.
void ntt_host(BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift,
              NttKernelForm form = NttKernelForm::Auto);
// coeffs: (2^log_n) x cols; out: (2^(log_n+log_blowup)) x cols, evaluations over shift * H'.
void lde_from_coeffs_host(const BabyBear* coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                          BabyBear* out, NttKernelForm form = NttKernelForm::Auto);

// The public device-pointer calls (zkgpu::ntt_device, ...), arguments already checked by the
// front end: enqueued on `stream` (a cudaStream_t), scratch allocated stream-ordered.
void ntt_on_stream(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, void* stream);
void lde_from_coeffs_on_stream(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup,
                               BabyBear shift, BabyBear* d_out, void* stream);
// Interpolates d_evals (left unchanged) into a stream-ordered copy, then lde_from_coeffs_on_stream.
void coset_lde_on_stream(const BabyBear* d_evals, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                         BabyBear* d_out, void* stream);

}  // namespace zkgpu::cuda
