// The window reduction of the GPU MSM (docs/msm.md, "Bucket reduction"): sum_j (j+1) B_j over the
// 2^(c-1) buckets of a window, as the GPU schedules it. Shared by the kernels, the host's last
// folds and the CPU test that runs the same schedule against the plain running sum.
//
// Stage 1, parts: buckets [p*len, (p+1)*len), len a power of two, as running sums give
// T_p = sum_r B_r and U_p = sum_r (r+1) B_r; with j = p*len + r the window sum is
// sum_p p*x_p + sum_p y_p for x_p = len*T_p, y_p = U_p.
// Stage 2, folds: sum_p p*x_p + sum_p y_p over pairs (2q, 2q+1) is
// sum_q q*(2(x_2q + x_2q+1)) + sum_q (y_2q + x_2q+1 + y_2q+1), the same form on half as many pairs,
// two dependent operations per halving; with one pair left, y is the window sum.
//
// On the GPU every step below is one call of one adder (te_add) per thread: a warp whose threads
// take different formulas runs them one after the other, and the kernels' loops hold a single copy
// of the adder (about 85 KB of code; two or three copies no longer fit the instruction cache, and a
// lone warp then waits on instruction fetches: H200 profile of the one-thread folds, 30 us per
// addition).
#pragma once
#include "core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377 {

// Stage 1 on lanes: each part's chain is split over part_lanes threads (lanes), so a part costs
// about len dependent additions instead of 2*len or 3*len. With one bucket set: lane 0 is the
// running sum T += B_k, lane 1 the weighted sum U += T. With `more` (a second bucket set for the
// same buckets, a later slice's, see msm.cu; B_k + B'_k is what is reduced): lane 0 forms
// S_k = B_k + more_k, lane 1 the running sum T += S_k, lane 2 U += T.
ZKGPU_HD constexpr unsigned part_lanes(bool two_sets) { return two_sets ? 3u : 2u; }
// Steps t = 0 .. part_steps - 1; lane l handles local bucket k = len - 1 - (t - l) at step t.
ZKGPU_HD constexpr uint32_t part_steps(uint32_t len, bool two_sets) { return len + part_lanes(two_sets) - 1; }

// Lane `lane`'s addition at step t in the part whose buckets start at b (and more, may be null) is
// state = state + q; this sets q (and for lane 0 with two sets reloads state: S_k = B_k + more_k).
// false: no bucket for the lane at this step, it keeps its state. `in`: the state lane - 1 had
// after step t - 1 (read only by lanes > 0 that have a bucket: it was lane - 1's state for the
// same bucket). States start at the identity. (The sum is always state + q, so a kernel keeps two
// points live, not three.)
ZKGPU_HD constexpr bool part_lane_operand(unsigned lane, uint32_t t, uint32_t len, const TeExtended* b,
                                          const TeExtended* more, const TeExtended* in, TeExtended& state,
                                          TeExtended& q) {
  const uint32_t j = t - lane;  // wraps for t < lane
  if (j >= len) return false;
  const uint32_t k = len - 1 - j;
  if (lane > 0) {
    q = *in;
  } else if (more) {
    state = b[k];
    q = more[k];
  } else {
    q = b[k];
  }
  return true;
}
ZKGPU_HD constexpr void part_lane_step(unsigned lane, uint32_t t, uint32_t len, const TeExtended* b,
                                       const TeExtended* more, const TeExtended* in, TeExtended& state) {
  TeExtended q;
  if (part_lane_operand(lane, t, len, b, more, in, state, q)) state = te_add(state, q);
}

// After the last step: T is in lane part_lanes - 2, U in the last lane.
ZKGPU_HD constexpr bool lane_holds_t(unsigned lane, bool two_sets) { return lane + 2 == part_lanes(two_sets); }
ZKGPU_HD constexpr bool lane_holds_u(unsigned lane, bool two_sets) { return lane + 1 == part_lanes(two_sets); }

// m*p for m a power of two, each doubling as p + p (the unified adder doubles too), so a kernel
// needs no second formula.
ZKGPU_HD constexpr TeExtended times_pow2(TeExtended p, uint32_t m) {
  ZKGPU_NO_UNROLL
  for (; m > 1; m /= 2) p = te_add(p, p);
  return p;
}

// One lane of a fold step on parts 2q (a) and 2q+1 (b): x' = (xa + xb) + (xa + xb) or
// y' = (ya + xb) + yb. Both lanes are two additions with one adder, so x and y lanes of one warp
// run the same instructions; the GPU gives each its own thread, so a level costs two dependent
// additions. Addition k (0, 1) of a lane is cur = cur + q: fold_lane_operand sets q (and for k = 0
// loads cur).
ZKGPU_HD constexpr void fold_lane_operand(bool y_lane, int k, const TeExtended& xa, const TeExtended& ya,
                                          const TeExtended& xb, const TeExtended& yb, TeExtended& cur,
                                          TeExtended& q) {
  if (k == 0) {
    cur = y_lane ? ya : xa;
    q = xb;
  } else {
    q = y_lane ? yb : cur;
  }
}
ZKGPU_HD constexpr TeExtended fold_lane(bool y_lane, const TeExtended& xa, const TeExtended& ya, const TeExtended& xb,
                                        const TeExtended& yb) {
  TeExtended cur, q;
  ZKGPU_NO_UNROLL
  for (int k = 0; k < 2; ++k) {
    fold_lane_operand(y_lane, k, xa, ya, xb, yb, cur, q);
    cur = te_add(cur, q);
  }
  return cur;
}

// Both lanes of a fold step in one thread (the host's last folds): (xa, ya) of part 2q becomes
// the pair of q; (xb, yb) is part 2q+1.
ZKGPU_HD constexpr void fold_pair(TeExtended& xa, TeExtended& ya, const TeExtended& xb, const TeExtended& yb) {
  const TeExtended y = fold_lane(true, xa, ya, xb, yb);
  xa = fold_lane(false, xa, ya, xb, yb);
  ya = y;
}

}  // namespace zkgpu::bls12_377
