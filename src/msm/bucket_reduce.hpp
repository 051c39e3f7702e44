// The window reduction of the GPU MSM (docs/msm.md, "Bucket reduction"): sum_j (j+1) B_j over the
// m = 2^(c-1) buckets of a window, as the GPU schedules it. Shared by the kernels, the host's last
// folds and the CPU test that runs the same schedule against the plain running sum.
//
// Stage 1, parts: P parts of len = m/P buckets, interleaved: part p holds buckets j = r*P + p,
// r < len. As running sums over r they give T_p = sum_r B_(rP+p) and V_p = sum_r r*B_(rP+p), and
// with j + 1 = r*P + (p+1) the window sum is P * sum_p V_p + sum_p (p+1) T_p, i.e.
// P * u + (sum_p p*x_p + sum_p y_p) for x_p = y_p = T_p, u = sum_p V_p.
// Stage 2, folds: sum_p p*x_p + sum_p y_p over pairs (2q, 2q+1) is
// sum_q q*(2(x_2q + x_2q+1)) + sum_q (y_2q + x_2q+1 + y_2q+1), the same form on half as many pairs,
// two dependent additions per halving, and u_q = u_2q + u_2q+1 beside it; with one pair left,
// the window sum is P*u + y (P*u by log2(P) doublings, once per window, on the host).
// (Parts of consecutive buckets need x_p = len*T_p, log2(len) doublings per part at the end of
// the chains, where the GPU has few threads per block left to run; interleaved parts also make
// the threads of a warp read consecutive buckets.)
//
// On the GPU every step below is one call of one adder (te_add) per thread: a warp whose threads
// take different formulas runs them one after the other, and the kernels' loops hold a single copy
// of the adder (about 85 KB of code; two or three copies no longer fit the instruction cache, and a
// lone warp then waits on instruction fetches: H200 profile of the one-thread folds, 30 us per
// addition).
#pragma once
#include "zkgpu/core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377 {

// Stage 1 on lanes: each part's chain is split over two threads (lanes), so a part costs about len
// dependent additions instead of 2*len: lane 0 is the running sum R += B_r (r from len - 1 down),
// lane 1 the weighted sum V += R for r >= 1, one step behind.
constexpr unsigned PART_LANES = 2;
// Steps t = 0 .. len - 1: lane l handles r = len - 1 - (t - l) at step t (lane 1 skips r = 0).
// After the last step lane 0 holds T = R_0, lane 1 holds V.
ZKGPU_HD constexpr uint32_t part_steps(uint32_t len) { return len; }

// Lane `lane`'s addition at step t in the part whose bucket r is b[r * stride] is
// state = state + q; this sets q. false: nothing for the lane at this step, it keeps its state.
// `in`: lane 0's state after step t - 1 (read only by lane 1 when it adds: it is R_r). States
// start at the identity. (The sum is always state + q, so a kernel keeps two points live.)
ZKGPU_HD constexpr bool part_lane_operand(unsigned lane, uint32_t t, uint32_t len, size_t stride, const TeExtended* b,
                                          const TeExtended* in, TeExtended& q) {
  const uint32_t j = t - lane;  // wraps for t < lane
  if (j >= len) return false;
  const size_t r = len - 1 - j;
  if (lane == 0) {
    q = b[r * stride];
    return true;
  }
  if (r == 0) return false;  // V = sum over r >= 1 of R_r
  q = *in;
  return true;
}
ZKGPU_HD constexpr void part_lane_step(unsigned lane, uint32_t t, uint32_t len, size_t stride, const TeExtended* b,
                                       const TeExtended* in, TeExtended& state) {
  TeExtended q;
  if (part_lane_operand(lane, t, len, stride, b, in, q)) state = te_add(state, q);
}

// The lanes of a fold step on parts 2q (a) and 2q+1 (b): FOLD_X gives x' = (xa + xb) + (xa + xb),
// FOLD_Y y' = (ya + xb) + yb, FOLD_U u' = ua + ub. Addition k (0, 1) of a lane is
// cur = cur + q: fold_operand sets q (and for k = 0 loads cur); false: the lane has no addition k.
// All lanes use one adder, so the lanes of one warp run the same instructions; the GPU gives each
// lane its own thread, so a level costs two dependent additions.
enum FoldLane : unsigned { FOLD_X = 0, FOLD_Y = 1, FOLD_U = 2 };
struct FoldPair {  // pair (x, y) and the plain sum u of a part or a run of folded parts
  TeExtended x, y, u;
};
ZKGPU_HD constexpr bool fold_operand(unsigned lane, int k, const TeExtended& xa, const TeExtended& ya,
                                     const TeExtended& ua, const TeExtended& xb, const TeExtended& yb,
                                     const TeExtended& ub, TeExtended& cur, TeExtended& q) {
  if (lane == FOLD_U) {
    if (k != 0) return false;
    cur = ua;
    q = ub;
  } else if (k == 0) {
    cur = lane == FOLD_Y ? ya : xa;
    q = xb;
  } else {
    q = lane == FOLD_Y ? yb : cur;
  }
  return true;
}
ZKGPU_HD constexpr TeExtended fold_lane(unsigned lane, const TeExtended& xa, const TeExtended& ya, const TeExtended& ua,
                                        const TeExtended& xb, const TeExtended& yb, const TeExtended& ub) {
  TeExtended cur, q;
  ZKGPU_NO_UNROLL
  for (int k = 0; k < 2; ++k)
    if (fold_operand(lane, k, xa, ya, ua, xb, yb, ub, cur, q)) cur = te_add(cur, q);
  return cur;
}

// All lanes of a fold step in one thread (the host's last folds): a becomes the pair of q; b is
// part 2q+1.
ZKGPU_HD constexpr void fold_pair(FoldPair& a, const FoldPair& b) {
  FoldPair r{};
  for (unsigned lane : {FOLD_X, FOLD_Y, FOLD_U})
    (lane == FOLD_X ? r.x : lane == FOLD_Y ? r.y : r.u) = fold_lane(lane, a.x, a.y, a.u, b.x, b.y, b.u);
  a = r;
}

// The window sum from its last pair: P*u + y for P parts per window (a power of two).
ZKGPU_HD constexpr TeExtended window_sum(const FoldPair& last, uint32_t parts_per_window) {
  TeExtended pu = last.u;
  for (uint32_t m = parts_per_window; m > 1; m /= 2) pu = te_double(pu);
  return te_add(pu, last.y);
}

}  // namespace zkgpu::bls12_377
