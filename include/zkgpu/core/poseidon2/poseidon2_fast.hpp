// A tuned Poseidon2 that computes exactly poseidon2_permute (same inputs, same output words) for
// every Poseidon2Params whose diag is the standard V of spec §4.1, which both constant sets use.
// Two changes, both pure arithmetic rewrites:
//  - the internal diagonal V (entries ±1, ±2, ±3, ±4, ±1/2^k) is applied with doublings and a
//    shift-only Montgomery reduction instead of a full multiplication per lane;
//  - add/sub/mul reduce with an unsigned min (r or r -/+ p, whichever did not wrap), which the GPU
//    issues as one IMNMX instead of a compare and a select.
// Host and device run the same formulas (no __CUDA_ARCH__ branch), so the CPU tests exercise the
// very code the kernels run.
#pragma once
#include "zkgpu/core/poseidon2/babybear_constants.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu {
namespace p2fast {

constexpr uint32_t P = BabyBear::P;

ZKGPU_HD constexpr uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }

// a, b < p. a + b < 2p < 2^32; if it is < p, (a + b - p) wraps above it and min keeps a + b.
ZKGPU_HD constexpr BabyBear add(BabyBear a, BabyBear b) {
  uint32_t r = a.v + b.v;
  return BabyBear{umin(r, r - P)};
}
// a, b < p. When a >= b, r < p and r + p < 2^32; when a < b, r wrapped and r + p is the answer.
ZKGPU_HD constexpr BabyBear sub(BabyBear a, BabyBear b) {
  uint32_t r = a.v - b.v;
  return BabyBear{umin(r, r + P)};
}
ZKGPU_HD constexpr BabyBear dbl(BabyBear a) { return add(a, a); }

// Montgomery REDC of x < p*2^32 into [0, p). This is the "add" form: t = x*(-p^-1) mod 2^32 makes
// x + t*p divisible by 2^32 and (x + t*p)/2^32 < 2p, so one min lands in [0, p). Plonky3 subtracts
// instead (spec §1.1); both return the unique representative of x*2^-32 in [0, p), so the words are
// identical. The add form is what the GPU wants: t*p + x is one IMAD.WIDE (or IMAD.HI) with a
// 64-bit addend, and nothing is negated.
ZKGPU_HD constexpr uint32_t redc(uint64_t x) {
  constexpr uint32_t NEG_P_INV = 0x77ffffffu;  // -p^-1 mod 2^32
  uint32_t t = static_cast<uint32_t>(x) * NEG_P_INV;
  uint32_t r = static_cast<uint32_t>((x + static_cast<uint64_t>(t) * P) >> 32);
  return umin(r, r - P);
}
ZKGPU_HD constexpr BabyBear mul(BabyBear a, BabyBear b) { return BabyBear{redc(static_cast<uint64_t>(a.v) * b.v)}; }

// a * 2^-K: the word a*R becomes a*R*2^-K = REDC(a * 2^(32-K)), a product that needs only a shift.
template <int K>
ZKGPU_HD constexpr BabyBear div_2exp(BabyBear a) {
  static_assert(K >= 1 && K <= 31, "shift out of range");
  return BabyBear{redc(static_cast<uint64_t>(a.v) << (32 - K))};
}

ZKGPU_HD constexpr BabyBear sbox(BabyBear x) {
  BabyBear x2 = mul(x, x), x3 = mul(x2, x), x6 = mul(x3, x3);
  return mul(x6, x);
}

ZKGPU_HD void m4(BabyBear* x) {
  BabyBear t01 = add(x[0], x[1]), t23 = add(x[2], x[3]);
  BabyBear t0123 = add(t01, t23);
  BabyBear t01123 = add(t0123, x[1]), t01233 = add(t0123, x[3]);
  x[3] = add(t01233, dbl(x[0]));
  x[1] = add(t01123, dbl(x[2]));
  x[0] = add(t01123, t01);
  x[2] = add(t01233, t23);
}

template <int W>
ZKGPU_HD void external_linear(BabyBear (&s)[W]) {
  ZKGPU_UNROLL
  for (int b = 0; b < W; b += 4) m4(&s[b]);
  BabyBear t[4] = {s[0], s[1], s[2], s[3]};
  ZKGPU_UNROLL
  for (int b = 4; b < W; b += 4) {
    ZKGPU_UNROLL
    for (int k = 0; k < 4; ++k) t[k] = add(t[k], s[b + k]);
  }
  ZKGPU_UNROLL
  for (int i = 0; i < W; ++i) s[i] = add(s[i], t[i & 3]);
}

// Lanes 0..8 of V are shared by both widths: [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4].
template <int W>
ZKGPU_HD void internal_lanes_0_8(BabyBear (&s)[W], BabyBear sum) {
  s[0] = sub(sum, dbl(s[0]));
  s[1] = add(sum, s[1]);
  s[2] = add(sum, dbl(s[2]));
  s[3] = add(sum, s[3].halve());
  s[4] = add(sum, add(dbl(s[4]), s[4]));
  s[5] = add(sum, dbl(dbl(s[5])));
  s[6] = sub(sum, s[6].halve());
  s[7] = sub(sum, add(dbl(s[7]), s[7]));
  s[8] = sub(sum, dbl(dbl(s[8])));
}

// a[0] + ... + a[N-1] as a balanced tree: depth log2(N) instead of a chain of N - 1 dependent
// adds. Field addition is exact, so every order gives the same word.
template <int N>
ZKGPU_HD BabyBear tree_sum(const BabyBear* a) {
  if constexpr (N == 1)
    return a[0];
  else
    return add(tree_sum<N / 2>(a), tree_sum<N - N / 2>(a + N / 2));
}

// s[i] = sum + V[i]*s[i] with V of width 16 (spec §4.1); sum = s[0] + ... + s[15].
ZKGPU_HD void internal_linear_std(BabyBear (&s)[16], BabyBear sum) {
  internal_lanes_0_8(s, sum);
  s[9] = add(sum, div_2exp<8>(s[9]));
  s[10] = add(sum, div_2exp<2>(s[10]));
  s[11] = add(sum, div_2exp<3>(s[11]));
  s[12] = add(sum, div_2exp<27>(s[12]));
  s[13] = sub(sum, div_2exp<8>(s[13]));
  s[14] = sub(sum, div_2exp<4>(s[14]));
  s[15] = sub(sum, div_2exp<27>(s[15]));
}

// Width 24: V[9..24) = [1/2^8, 1/4, 1/8, 1/16, 1/2^7, 1/2^9, 1/2^27,
//                       -1/2^8, -1/4, -1/8, -1/16, -1/32, -1/64, -1/2^7, -1/2^27].
ZKGPU_HD void internal_linear_std(BabyBear (&s)[24], BabyBear sum) {
  internal_lanes_0_8(s, sum);
  s[9] = add(sum, div_2exp<8>(s[9]));
  s[10] = add(sum, div_2exp<2>(s[10]));
  s[11] = add(sum, div_2exp<3>(s[11]));
  s[12] = add(sum, div_2exp<4>(s[12]));
  s[13] = add(sum, div_2exp<7>(s[13]));
  s[14] = add(sum, div_2exp<9>(s[14]));
  s[15] = add(sum, div_2exp<27>(s[15]));
  s[16] = sub(sum, div_2exp<8>(s[16]));
  s[17] = sub(sum, div_2exp<2>(s[17]));
  s[18] = sub(sum, div_2exp<3>(s[18]));
  s[19] = sub(sum, div_2exp<4>(s[19]));
  s[20] = sub(sum, div_2exp<5>(s[20]));
  s[21] = sub(sum, div_2exp<6>(s[21]));
  s[22] = sub(sum, div_2exp<7>(s[22]));
  s[23] = sub(sum, div_2exp<27>(s[23]));
}

}  // namespace p2fast

// True when p.diag is the standard V, the precondition of poseidon2_permute_std (host only: the
// reference table is a host array).
template <int W>
inline bool poseidon2_has_standard_diag(const Poseidon2Params<W>& p) {
  const uint32_t* v = W == 16 ? poseidon2_tables::internal_diag_16 : poseidon2_tables::internal_diag_24;
  bool ok = true;
  for (int i = 0; i < W; ++i) ok &= p.diag[i].v == v[i];
  return ok;
}

namespace p2fast {
template <int W>
ZKGPU_HD void full_round(BabyBear (&s)[W], const BabyBear (&rc)[W]) {
  ZKGPU_UNROLL
  for (int i = 0; i < W; ++i) s[i] = sbox(add(s[i], rc[i]));
  external_linear(s);
}
// The lane sum is split as s[0] + (s[1] + ... + s[W-1]): the second part does not depend on the
// S-box, so it is computed in the shadow of the S-box's four dependent multiplications rather than
// after them. That shortens a lone permutation's latency (what the narrow top levels of a Merkle
// tree wait on) without changing the instruction count or any output word.
template <int W>
ZKGPU_HD void partial_round(BabyBear (&s)[W], BabyBear rc) {
  const BabyBear rest = tree_sum<W - 1>(&s[1]);
  s[0] = sbox(add(s[0], rc));
  internal_linear_std(s, add(s[0], rest));
}
}  // namespace p2fast

// Equal to poseidon2_permute<W>(s, p) whenever poseidon2_has_standard_diag(p); p.diag is not read.
// ROLLED keeps the round loops as loops (one copy of each round body, round constants indexed at
// run time): about a fifth of the code of the unrolled form, for GPUs whose instruction cache the
// fully unrolled permutation (~8k instructions at width 16) would overflow.
template <int W, bool ROLLED = false>
ZKGPU_HD void poseidon2_permute_std(BabyBear (&s)[W], const Poseidon2Params<W>& p) {
  using namespace p2fast;
  external_linear(s);
  if constexpr (ROLLED) {
    ZKGPU_NO_UNROLL
    for (int r = 0; r < 4; ++r) full_round(s, p.ext_init[r]);
    ZKGPU_NO_UNROLL
    for (int j = 0; j < Poseidon2Params<W>::ROUNDS_P; ++j) partial_round(s, p.internal[j]);
    ZKGPU_NO_UNROLL
    for (int r = 0; r < 4; ++r) full_round(s, p.ext_term[r]);
  } else {
    ZKGPU_UNROLL
    for (int r = 0; r < 4; ++r) full_round(s, p.ext_init[r]);
    ZKGPU_UNROLL
    for (int j = 0; j < Poseidon2Params<W>::ROUNDS_P; ++j) partial_round(s, p.internal[j]);
    ZKGPU_UNROLL
    for (int r = 0; r < 4; ++r) full_round(s, p.ext_term[r]);
  }
}

}  // namespace zkgpu
