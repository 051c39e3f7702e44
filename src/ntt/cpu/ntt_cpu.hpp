// CPU backend of the BabyBear NTT (include/zkgpu/ntt.hpp has the contract): multi-threaded,
// cache-blocked four-step transform, vectorized through the packed field types with runtime
// dispatch on simd_level(). Arguments are validated by the public API; these functions assume a
// valid shape (log_n <= 27, shift != 0) and throw only on allocation failure.
#pragma once
#include <cstddef>

#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cpu {

// In place on a row-major (2^log_n) x cols matrix, natural order in and out.
// Forward: E[i][c] = sum_j M[j][c] (shift * w^i)^j, w = two_adic_generator(log_n).
// Inverse: the exact inverse of that map (1/n scaling and shift^-j included).
void ntt_batch(BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift);

// coeffs: (2^log_n) x cols coefficients; out: (2^(log_n+log_blowup)) x cols evaluations over
// shift * H', |H'| = 2^(log_n+log_blowup) (zero-padded coefficients). out must not alias coeffs.
void lde_from_coeffs(const BabyBear* coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                     BabyBear* out);

// evals: (2^log_n) x cols evaluations over H = <w>; out as in lde_from_coeffs (interpolate over
// H, zero-pad, evaluate over shift * H'). out must not alias evals.
void coset_lde(const BabyBear* evals, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift, BabyBear* out);

}  // namespace zkgpu::cpu
