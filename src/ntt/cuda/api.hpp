// Host-facing entry points of the CUDA NTT backend, as plain C++ (no CUDA headers), so the
// front end (src/ntt/ntt.cpp) can call them. Declared only when ZKGPU_HAVE_CUDA; every function throws
// zkgpu::Error on failure (OutOfMemory when the work does not fit on the device), never aborts.
#pragma once
#include <cstddef>

#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cuda {

// matrix: host memory, row-major (2^log_n) x cols, in place.
void ntt_host(BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift);
// coeffs: (2^log_n) x cols; out: (2^(log_n+log_blowup)) x cols, evaluations over shift * H'.
void lde_from_coeffs_host(const BabyBear* coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                          BabyBear* out);

}  // namespace zkgpu::cuda
