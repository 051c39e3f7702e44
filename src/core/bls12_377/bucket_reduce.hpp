// The window reduction of the GPU MSM (docs/msm.md, "Bucket reduction"): sum_j (j+1) B_j over the
// 2^(c-1) buckets of a window, as the GPU schedules it. Shared by the kernels and the CPU test that
// runs the same schedule against the plain running sum.
//
// Stage 1, one part per thread: buckets [p*len, (p+1)*len), len a power of two, as running sums
// give T_p = sum_r B_r and U_p = sum_r (r+1) B_r; with j = p*len + r the window sum is
// sum_p p*x_p + sum_p y_p for x_p = len*T_p, y_p = U_p.
// Stage 2, folds: sum_p p*x_p + sum_p y_p over pairs (2q, 2q+1) is
// sum_q q*(2(x_2q + x_2q+1)) + sum_q (y_2q + x_2q+1 + y_2q+1), the same form on half as many pairs,
// two dependent operations per halving; with one pair left, y is the window sum.
#pragma once
#include "core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377 {

// `more` (may be null): a second bucket set for the same buckets (a later slice's, see msm.cu),
// added on the way: B_r = b[r] + more[r], one unified addition more per bucket, which saves a
// separate merge pass over both sets.
ZKGPU_HD constexpr void reduce_part(const TeExtended* b, const TeExtended* more, uint32_t len, TeExtended& x,
                                    TeExtended& y) {
  TeExtended run = b[len - 1];
  if (more) run = te_add(run, more[len - 1]);
  TeExtended acc = run;
  for (uint32_t j = len - 1; j-- > 0;) {
    run = te_add(run, b[j]);
    if (more) run = te_add(run, more[j]);
    acc = te_add(acc, run);
  }
  for (uint32_t m = len; m > 1; m /= 2) run = te_double(run);
  x = run;
  y = acc;
}

// The two halves of a fold step on parts 2q (a) and 2q+1 (b): x' = 2(x_a + x_b) and
// y' = y_a + x_b + y_b. The GPU runs them on two threads, so a level costs two dependent operations
// of one thread instead of four.
ZKGPU_HD constexpr TeExtended fold_x(const TeExtended& xa, const TeExtended& xb) { return te_double(te_add(xa, xb)); }
ZKGPU_HD constexpr TeExtended fold_y(const TeExtended& ya, const TeExtended& xb, const TeExtended& yb) {
  return te_add(te_add(ya, xb), yb);
}

// (xa, ya) of part 2q becomes the pair of q; (xb, yb) is part 2q+1.
ZKGPU_HD constexpr void fold_pair(TeExtended& xa, TeExtended& ya, const TeExtended& xb, const TeExtended& yb) {
  const TeExtended y = fold_y(ya, xb, yb);
  xa = fold_x(xa, xb);
  ya = y;
}

}  // namespace zkgpu::bls12_377
