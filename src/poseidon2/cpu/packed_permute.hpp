// Poseidon2 written once over a packed BabyBear type P (PackedScalar, PackedAvx2, PackedAvx512):
// one state per SIMD lane, state element i of LANES states in the register s[i]. It mirrors
// core/poseidon2/poseidon2.hpp step for step (same M4 chain, same constant placement); every step
// returns canonical words, so the lanes equal the scalar permutation bit for bit. The ISA-specific
// fast paths (S-box, diagonal, transposes) specialise the hooks below in poseidon2_ops_*.hpp,
// which only the matching poseidon2_{avx2,avx512}.cpp includes.
#pragma once
#include "zkgpu/core/poseidon2/babybear_constants.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

// The round functions must inline into the permutation: a call would pass the state through
// memory (W loads and stores per call), which GCC does for the width-24 internal layer otherwise.
#if defined(__GNUC__)
#define ZKGPU_P2_INLINE inline __attribute__((always_inline))
#else
#define ZKGPU_P2_INLINE inline
#endif

namespace zkgpu::cpu::p2 {

// Multiplication by the diagonal entries of V that are not small integers: x * 2^-n, n in 1..27.
// This primary template multiplies by the constant; poseidon2_ops_{avx2,avx512}.hpp specialise it
// with the shift form (see mul_2exp_neg_word below).
template <class P>
struct DiagOps {
  template <unsigned N>
  static P mul_2exp_neg(P x) {
    return x * P::broadcast(inv_2exp(N));
  }
  static P halve(P x) { return mul_2exp_neg<1>(x); }
  static constexpr BabyBear inv_2exp(unsigned n) {
    BabyBear r = BabyBear::one();
    for (unsigned i = 0; i < n; ++i) r = r.halve();
    return r;
  }
};

// The shift form, on one word w < p (the vector specialisations are lane-wise copies of it).
// Multiplying a Montgomery word by a constant is the field product (the R factor just rides
// along), so w * 2^-n needs no Montgomery reduction. With p = 15 * 2^27 + 1, 2^-27 = -15 and
// 2^-n = -15 * 2^(27-n); writing w = hi * 2^n + lo:
//   w * 2^-n = hi - lo * 15 * 2^(27-n)  (mod p),  hi < 2^(31-n),  lo * 15 * 2^(27-n) < p,
// so one subtraction and one conditional add of p give the canonical result.
template <unsigned N>
constexpr uint32_t mul_2exp_neg_word(uint32_t w) {
  static_assert(N >= 1 && N <= 27, "BabyBear two-adicity bounds n");
  uint32_t hi = w >> N, lo = w & ((1u << N) - 1);
  uint32_t t = (lo << (31 - N)) - (lo << (27 - N));  // lo * 15 * 2^(27-n), no overflow
  uint32_t r = hi - t;
  return hi < t ? r + BabyBear::P : r;
}

// (x + rc)^7, the S-box with its round constant. This primary template uses the packed ops;
// poseidon2_ops_{avx2,avx512}.hpp specialise it with signed Montgomery products that skip the
// intermediate reductions, and store each constant as the word add_rc_sbox expects (rc_word).
template <class P>
struct SboxOps {
  static constexpr uint32_t rc_word(BabyBear rc) { return rc.v; }
  static P add_rc_sbox(P x, uint32_t rc) {
    P y = x + P::broadcast(BabyBear::from_monty(rc));
    // y^7 = y^3 * y^4: multiplication depth 3 instead of 4 (same value as BabyBear::pow7).
    P y2 = y * y;
    P y3 = y2 * y;
    P y4 = y2 * y2;
    return y3 * y4;
  }
};

// Round constants as SboxOps<P>::rc_word words, prepared once per batch call.
template <class P, int W>
struct PackedRoundConstants {
  static constexpr int RP = Poseidon2Params<W>::ROUNDS_P;
  uint32_t ext_init[4][W], internal[RP], ext_term[4][W];
  explicit PackedRoundConstants(const Poseidon2Params<W>& p) {
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < W; ++i) {
        ext_init[r][i] = SboxOps<P>::rc_word(p.ext_init[r][i]);
        ext_term[r][i] = SboxOps<P>::rc_word(p.ext_term[r][i]);
      }
    for (int j = 0; j < RP; ++j) internal[j] = SboxOps<P>::rc_word(p.internal[j]);
  }
};

// Sum of s[1..W) as a balanced tree, so the adds overlap the S-box of lane 0.
template <class P, int W>
ZKGPU_P2_INLINE P tail_sum(const P (&s)[W]) {
  P acc[4] = {s[1] + s[2], s[3] + s[4], s[5] + s[6], s[7] + s[8]};
  ZKGPU_UNROLL
  for (int i = 9; i < W; ++i) acc[(i - 9) & 3] += s[i];
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

// Internal layer with V hard-coded (spec §4.1, V as fractions). S = s0 + tail; lane 0 gets
// S - 2*s0 = tail - s0; lane i gets S + V[i]*s[i] with V[i]*s[i] from adds, doublings and
// multiplications by 2^-n. Both widths share V[0..11] = (-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8,
// 1/4, 1/8): those lanes are done here, which returns S for the width's remaining lanes.
template <class P, int W>
ZKGPU_P2_INLINE P internal_linear_shared_lanes(P (&s)[W]) {
  using D = DiagOps<P>;
  P tail = tail_sum<P, W>(s);
  P sum = tail + s[0];
  s[0] = tail - s[0];
  s[1] = sum + s[1];
  s[2] = sum + s[2].dbl();
  s[3] = sum + D::halve(s[3]);
  s[4] = sum + (s[4].dbl() + s[4]);
  s[5] = sum + s[5].dbl().dbl();
  s[6] = sum - D::halve(s[6]);
  s[7] = sum - (s[7].dbl() + s[7]);
  s[8] = sum - s[8].dbl().dbl();
  s[9] = sum + D::template mul_2exp_neg<8>(s[9]);
  s[10] = sum + D::template mul_2exp_neg<2>(s[10]);
  s[11] = sum + D::template mul_2exp_neg<3>(s[11]);
  return sum;
}

template <class P>
ZKGPU_P2_INLINE void internal_linear_fixed(P (&s)[16]) {
  using D = DiagOps<P>;
  const P sum = internal_linear_shared_lanes<P, 16>(s);
  s[12] = sum + D::template mul_2exp_neg<27>(s[12]);
  s[13] = sum - D::template mul_2exp_neg<8>(s[13]);
  s[14] = sum - D::template mul_2exp_neg<4>(s[14]);
  s[15] = sum - D::template mul_2exp_neg<27>(s[15]);
}

template <class P>
ZKGPU_P2_INLINE void internal_linear_fixed(P (&s)[24]) {
  using D = DiagOps<P>;
  const P sum = internal_linear_shared_lanes<P, 24>(s);
  s[12] = sum + D::template mul_2exp_neg<4>(s[12]);
  s[13] = sum + D::template mul_2exp_neg<7>(s[13]);
  s[14] = sum + D::template mul_2exp_neg<9>(s[14]);
  s[15] = sum + D::template mul_2exp_neg<27>(s[15]);
  s[16] = sum - D::template mul_2exp_neg<8>(s[16]);
  s[17] = sum - D::template mul_2exp_neg<2>(s[17]);
  s[18] = sum - D::template mul_2exp_neg<3>(s[18]);
  s[19] = sum - D::template mul_2exp_neg<4>(s[19]);
  s[20] = sum - D::template mul_2exp_neg<5>(s[20]);
  s[21] = sum - D::template mul_2exp_neg<6>(s[21]);
  s[22] = sum - D::template mul_2exp_neg<7>(s[22]);
  s[23] = sum - D::template mul_2exp_neg<27>(s[23]);
}

// Any diagonal (Params built by hand): the core formula, one multiplication per lane.
template <class P, int W>
ZKGPU_P2_INLINE void internal_linear_generic(P (&s)[W], const BabyBear (&diag)[W]) {
  P sum = s[0] + tail_sum<P, W>(s);
  ZKGPU_UNROLL
  for (int i = 0; i < W; ++i) s[i] = sum + P::broadcast(diag[i]) * s[i];
}

// True when diag is Plonky3's V, the one internal_linear_fixed hard-codes.
template <int W>
inline bool has_standard_diag(const Poseidon2Params<W>& p) {
  const uint32_t* v = W == 16 ? poseidon2_tables::internal_diag_16 : poseidon2_tables::internal_diag_24;
  for (int i = 0; i < W; ++i)
    if (p.diag[i].v != v[i]) return false;
  return true;
}

// Moving LANES states between memory (state l at src + l * stride) and the lane-sliced registers.
// This primary template transposes through a small buffer; poseidon2_ops_avx512.hpp specialises
// it with an in-register transpose.
template <class P>
struct LaneIO {
  // Lane l of s[first..first+count) <- src[l * stride + first + i]; lanes >= lanes_used read zero.
  // The transpose goes through a small buffer: LANES contiguous words per register load.
  template <int W>
  static void gather(P (&s)[W], int first, int count, const BabyBear* src, size_t stride, size_t lanes_used) {
    constexpr unsigned L = P::LANES;
    alignas(64) BabyBear buf[W][L];
    for (size_t l = 0; l < lanes_used; ++l) {
      const BabyBear* row = src + l * stride + first;
      for (int i = 0; i < count; ++i) buf[i][l] = row[i];
    }
    for (size_t l = lanes_used; l < L; ++l)
      for (int i = 0; i < count; ++i) buf[i][l] = BabyBear::zero();
    for (int i = 0; i < count; ++i) s[first + i] = P::load(buf[i]);
  }

  // dst[l * stride + i] <- lane l of s[i], i < count, for lanes l < lanes_used.
  template <int W>
  static void scatter(const P (&s)[W], int count, BabyBear* dst, size_t stride, size_t lanes_used) {
    constexpr unsigned L = P::LANES;
    alignas(64) BabyBear buf[W][L];
    for (int i = 0; i < count; ++i) s[i].store(buf[i]);
    for (size_t l = 0; l < lanes_used; ++l) {
      BabyBear* row = dst + l * stride;
      for (int i = 0; i < count; ++i) row[i] = buf[i][l];
    }
  }
};

template <bool FIXED_DIAG, class P, int W>
inline void permute(P (&s)[W], const PackedRoundConstants<P, W>& rc, const Poseidon2Params<W>& p) {
  using S = SboxOps<P>;
  poseidon2_external_linear(s);
  for (int r = 0; r < 4; ++r) {
    ZKGPU_UNROLL
    for (int i = 0; i < W; ++i) s[i] = S::add_rc_sbox(s[i], rc.ext_init[r][i]);
    poseidon2_external_linear(s);
  }
  for (int j = 0; j < Poseidon2Params<W>::ROUNDS_P; ++j) {
    s[0] = S::add_rc_sbox(s[0], rc.internal[j]);
    if constexpr (FIXED_DIAG)
      internal_linear_fixed(s);
    else
      internal_linear_generic(s, p.diag);
  }
  for (int r = 0; r < 4; ++r) {
    ZKGPU_UNROLL
    for (int i = 0; i < W; ++i) s[i] = S::add_rc_sbox(s[i], rc.ext_term[r][i]);
    poseidon2_external_linear(s);
  }
}

}  // namespace zkgpu::cpu::p2
