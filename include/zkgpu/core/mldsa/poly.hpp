// ML-DSA ring arithmetic (FIPS 204 section 7.5 and appendix A): q = 8380417, 32-bit Montgomery
// (R = 2^32), the complete 8-layer NTT with zeta = 1753, and the rounding functions Power2Round,
// Decompose, MakeHint, UseHint. Branch-free in the coefficients except UseHint (verification:
// public data only).
#pragma once
#include "zkgpu/core/common.hpp"

namespace zkgpu::mldsa {

inline constexpr int N = 256;
inline constexpr int32_t Q = 8380417;
inline constexpr int32_t QINV = 58728449;  // q^-1 mod 2^32
inline constexpr int D = 13;               // bits dropped from t

struct Poly {
  int32_t c[N];
};

// a * 2^-32 mod q for |a| < q * 2^31; result in (-q, q).
ZKGPU_HD int32_t montgomery_reduce(int64_t a) {
  const int32_t t = int32_t(uint32_t(int32_t(a)) * uint32_t(QINV));
  return int32_t((a - int64_t(t) * Q) >> 32);
}
// Representative in [-6283008, 6283008] of a, for a <= 2^31 - 2^22 - 1.
ZKGPU_HD int32_t reduce32(int32_t a) {
  const int32_t t = (a + (1 << 22)) >> 23;
  return a - t * Q;
}
ZKGPU_HD int32_t caddq(int32_t a) { return a + ((a >> 31) & Q); }
ZKGPU_HD int32_t freeze(int32_t a) { return caddq(reduce32(a)); }

// zetas[i] = 2^32 * 1753^BitRev8(i) mod q, centred (zetas[0] unused), FIPS 204 appendix B.
struct Zetas {
  int32_t z[N];
  constexpr Zetas() : z{} {
    for (int i = 0; i < N; ++i) {
      int br = 0;
      for (int b = 0; b < 8; ++b) br |= ((i >> b) & 1) << (7 - b);
      int64_t p = 1;
      for (int e = 0; e < br; ++e) p = p * 1753 % Q;
      int64_t v = (p << 32) % Q;
      if (v > Q / 2) v -= Q;
      z[i] = int32_t(v);
    }
    z[0] = 0;
  }
};
inline constexpr Zetas ZETAS{};
#if defined(__CUDACC__)
__device__ constexpr Zetas ZETAS_DEVICE{};  // the same table for device code
#endif
ZKGPU_HD int32_t zeta(int i) {
#if defined(__CUDA_ARCH__)
  return ZETAS_DEVICE.z[i];
#else
  return ZETAS.z[i];
#endif
}

// The butterflies of the two transforms, one coefficient pair each (the CUDA kernels run a layer
// with one pair per thread): NTT (a, b) -> (a + zeta*b, a - zeta*b); inverse (a, b) ->
// (a + b, zt*(a - b)) with zt = -zeta. zeta in the Montgomery domain.
ZKGPU_HD void ntt_butterfly(int32_t& a, int32_t& b, int32_t zt) {
  const int32_t t = montgomery_reduce(int64_t(zt) * b);
  b = a - t;
  a = a + t;
}
ZKGPU_HD void invntt_butterfly(int32_t& a, int32_t& b, int32_t zt) {
  const int32_t t = a;
  a = t + b;
  b = montgomery_reduce(int64_t(zt) * (t - b));
}
// The inverse NTT's last step: 41978 = 2^64 / 256 mod q removes the pointwise products' 2^-32
// together with the 1/256.
ZKGPU_HD int32_t invntt_scale(int32_t a) { return montgomery_reduce(int64_t(41978) * a); }
// Twiddle of butterfly group g in the layer of half-length len (len = 128, 64, ..., 1).
ZKGPU_HD int32_t ntt_zeta(int len, int g) { return zeta(N / (2 * len) + g); }
ZKGPU_HD int32_t invntt_zeta(int len, int g) { return -zeta(N / len - 1 - g); }

// Algorithm 41; inputs |a| < q keep all intermediate values far inside int32.
ZKGPU_HD_NOINLINE void ntt(Poly& p) {
  int32_t* a = p.c;
  for (int len = 128; len > 0; len >>= 1)
    for (int start = 0; start < N; start += 2 * len) {
      const int32_t zt = ntt_zeta(len, start / (2 * len));
      for (int j = start; j < start + len; ++j) ntt_butterfly(a[j], a[j + len], zt);
    }
}

// Algorithm 42 times 2^32 (pointwise Montgomery products leave 2^-32).
ZKGPU_HD_NOINLINE void invntt_tomont(Poly& p) {
  int32_t* a = p.c;
  for (int len = 1; len < N; len <<= 1)
    for (int start = 0; start < N; start += 2 * len) {
      const int32_t zt = invntt_zeta(len, start / (2 * len));
      for (int j = start; j < start + len; ++j) invntt_butterfly(a[j], a[j + len], zt);
    }
  for (int j = 0; j < N; ++j) a[j] = invntt_scale(a[j]);
}

ZKGPU_HD void poly_pointwise(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < N; ++i) r.c[i] = montgomery_reduce(int64_t(a.c[i]) * b.c[i]);
}
ZKGPU_HD void poly_pointwise_acc(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < N; ++i) r.c[i] += montgomery_reduce(int64_t(a.c[i]) * b.c[i]);
}
ZKGPU_HD void poly_zero(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] = 0;
}
ZKGPU_HD void poly_add(Poly& r, const Poly& a) {
  for (int i = 0; i < N; ++i) r.c[i] += a.c[i];
}
ZKGPU_HD void poly_sub(Poly& r, const Poly& a) {
  for (int i = 0; i < N; ++i) r.c[i] -= a.c[i];
}
ZKGPU_HD void poly_reduce(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] = reduce32(r.c[i]);
}
ZKGPU_HD void poly_caddq(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] = caddq(r.c[i]);
}
ZKGPU_HD void poly_shiftl(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] *= (1 << D);
}

// 1 if some |coefficient| >= bound (coefficients reduced by reduce32), read without early exit so
// only the verdict can leak; callers declassify that verdict (the standard allows it).
ZKGPU_HD uint32_t coeff_exceeds(int32_t a, int32_t bound) {
  const int32_t s = a >> 31;
  const int32_t abs = a - (s & (2 * a));
  return uint32_t(bound - 1 - abs) >> 31;
}
ZKGPU_HD uint32_t poly_norm_exceeds(const Poly& a, int32_t bound) {
  uint32_t bad = 0;
  for (int i = 0; i < N; ++i) bad |= coeff_exceeds(a.c[i], bound);
  return bad;
}

// Power2Round (Algorithm 35) for a in [0, q): a = a1 * 2^13 + a0 with a0 in (-2^12, 2^12].
ZKGPU_HD int32_t power2round(int32_t& a0, int32_t a) {
  const int32_t a1 = (a + (1 << (D - 1)) - 1) >> D;
  a0 = a - (a1 << D);
  return a1;
}

// Decompose (Algorithm 36) for a in [0, q) without division: a1 by multiply-shift, a0 centred,
// and the corner case r+ - r0 = q - 1 mapped to a1 = 0, a0 = r0 - 1 through masks.
template <int32_t GAMMA2>
ZKGPU_HD int32_t decompose(int32_t& a0, int32_t a) {
  int32_t a1 = (a + 127) >> 7;
  if constexpr (GAMMA2 == (Q - 1) / 32) {
    a1 = (a1 * 1025 + (1 << 21)) >> 22;
    a1 &= 15;
  } else {
    static_assert(GAMMA2 == (Q - 1) / 88, "ML-DSA has gamma2 = (q-1)/32 or (q-1)/88");
    a1 = (a1 * 11275 + (1 << 23)) >> 24;
    a1 ^= ((43 - a1) >> 31) & a1;
  }
  a0 = a - a1 * 2 * GAMMA2;
  a0 -= (((Q - 1) / 2 - a0) >> 31) & Q;
  return a1;
}

// MakeHint in the reference-code form: a0 = low bits of w - c*s2 + c*t0, a1 = high bits of w.
// Comparisons become 0/1 values, not branches.
template <int32_t GAMMA2>
ZKGPU_HD uint32_t make_hint(int32_t a0, int32_t a1) {
  const uint32_t above = uint32_t(GAMMA2 - a0) >> 31;  // a0 > gamma2
  const uint32_t below = uint32_t(a0 + GAMMA2) >> 31;  // a0 < -gamma2
  const uint32_t x = uint32_t(a0 + GAMMA2);
  const uint32_t at_neg = 1u ^ ((x | (0u - x)) >> 31);                     // a0 == -gamma2
  const uint32_t a1_nonzero = (uint32_t(a1) | (0u - uint32_t(a1))) >> 31;  // a1 != 0
  return above | below | (at_neg & a1_nonzero);
}

// UseHint (Algorithm 40) on public data.
template <int32_t GAMMA2>
ZKGPU_HD int32_t use_hint(int32_t a, uint32_t hint) {
  int32_t a0;
  const int32_t a1 = decompose<GAMMA2>(a0, a);
  if (hint == 0) return a1;
  if constexpr (GAMMA2 == (Q - 1) / 32) {
    return a0 > 0 ? (a1 + 1) & 15 : (a1 - 1) & 15;
  } else {
    if (a0 > 0) return a1 == 43 ? 0 : a1 + 1;
    return a1 == 0 ? 43 : a1 - 1;
  }
}

}  // namespace zkgpu::mldsa
