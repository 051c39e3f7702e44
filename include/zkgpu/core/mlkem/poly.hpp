// ML-KEM ring arithmetic (FIPS 203 section 4.3): Z_q[X]/(X^256 + 1), q = 3329, 16-bit Montgomery
// (R = 2^16) and Barrett reduction, the incomplete 7-layer NTT and its degree-1 base products.
// Every routine is branch-free in the coefficient values (they are secret in KeyGen/Encaps/Decaps).
#pragma once
#include "zkgpu/core/common.hpp"

namespace zkgpu::mlkem {

inline constexpr int N = 256;
inline constexpr int16_t Q = 3329;
inline constexpr int16_t QINV = -3327;  // q^-1 mod 2^16, as int16
inline constexpr int16_t MONT = -1044;  // 2^16 mod q, centred

struct Poly {
  int16_t c[N];
};

// a * 2^-16 mod q for |a| < q * 2^15; result in (-q, q).
ZKGPU_HD int16_t montgomery_reduce(int32_t a) {
  const int16_t t = int16_t(int16_t(a) * QINV);
  return int16_t((a - int32_t(t) * Q) >> 16);
}
ZKGPU_HD int16_t fqmul(int16_t a, int16_t b) { return montgomery_reduce(int32_t(a) * b); }

// Centred representative of a mod q, in [-(q-1)/2, (q-1)/2]; v = round(2^26 / q).
ZKGPU_HD int16_t barrett_reduce(int16_t a) {
  constexpr int32_t V = ((1 << 26) + Q / 2) / Q;
  const int16_t t = int16_t((V * a + (1 << 25)) >> 26);
  return int16_t(a - t * Q);
}

// Maps (-q, q) to [0, q) with a sign mask instead of a branch.
ZKGPU_HD int16_t to_canonical(int16_t a) { return int16_t(a + ((a >> 15) & Q)); }

// zetas[i] = 2^16 * 17^BitRev7(i) mod q, centred: the twiddles of FIPS 203 Algorithm 9 in the
// Montgomery domain, in the order the layers consume them.
struct Zetas {
  int16_t z[128];
  constexpr Zetas() : z{} {
    for (int i = 0; i < 128; ++i) {
      int br = 0;
      for (int b = 0; b < 7; ++b) br |= ((i >> b) & 1) << (6 - b);
      int64_t p = 1;
      for (int e = 0; e < br; ++e) p = p * 17 % Q;
      int64_t v = p * 65536 % Q;
      if (v > Q / 2) v -= Q;
      z[i] = int16_t(v);
    }
  }
};
inline constexpr Zetas ZETAS{};
#if defined(__CUDACC__)
__device__ constexpr Zetas ZETAS_DEVICE{};  // the same table for device code
#endif
ZKGPU_HD int16_t zeta(int i) {
#if defined(__CUDA_ARCH__)
  return ZETAS_DEVICE.z[i];
#else
  return ZETAS.z[i];
#endif
}

// The butterflies of the two transforms, one coefficient pair each (the CUDA kernels run a layer
// with one pair per thread): NTT (a, b) -> (a + zeta*b, a - zeta*b); inverse (a, b) ->
// (barrett(a + b), zeta*(b - a)).
ZKGPU_HD void ntt_butterfly(int16_t& a, int16_t& b, int16_t zt) {
  const int16_t t = fqmul(zt, b);
  b = int16_t(a - t);
  a = int16_t(a + t);
}
ZKGPU_HD void invntt_butterfly(int16_t& a, int16_t& b, int16_t zt) {
  const int16_t t = a;
  a = barrett_reduce(int16_t(t + b));
  b = fqmul(zt, int16_t(b - t));
}
// The inverse NTT's last step: 1441 = 2^32/128 mod q removes the base products' 2^-16 and the 1/128.
ZKGPU_HD int16_t invntt_scale(int16_t a) { return fqmul(a, 1441); }
// Twiddle of butterfly group g in the layer of half-length len (len = 128, 64, ..., 2).
ZKGPU_HD int16_t ntt_zeta(int len, int g) { return zeta(N / (2 * len) + g); }
ZKGPU_HD int16_t invntt_zeta(int len, int g) { return zeta(N / len - 1 - g); }

// Forward NTT (Algorithm 9). Input |coefficients| < 4096 (decoded keys may hold up to 4095);
// output reduced to the centred range.
ZKGPU_HD_NOINLINE void ntt(Poly& p) {
  int16_t* r = p.c;
  for (int len = 128; len >= 2; len >>= 1)
    for (int start = 0; start < N; start += 2 * len) {
      const int16_t zt = ntt_zeta(len, start / (2 * len));
      for (int j = start; j < start + len; ++j) ntt_butterfly(r[j], r[j + len], zt);
    }
  for (int j = 0; j < N; ++j) r[j] = barrett_reduce(r[j]);
}

// Inverse NTT (Algorithm 10) times the Montgomery factor (see invntt_scale).
ZKGPU_HD_NOINLINE void invntt_tomont(Poly& p) {
  int16_t* r = p.c;
  for (int len = 2; len <= 128; len <<= 1)
    for (int start = 0; start < N; start += 2 * len) {
      const int16_t zt = invntt_zeta(len, start / (2 * len));
      for (int j = start; j < start + len; ++j) invntt_butterfly(r[j], r[j + len], zt);
    }
  for (int j = 0; j < N; ++j) r[j] = invntt_scale(r[j]);
}

// One degree-1 base product (a0 + a1 X)(b0 + b1 X) mod (X^2 - z), unreduced: |r0|, |r1| < 2q.
// barrett_reduce gives the exact centred representative, so any sum of these reduced once equals
// the CPU's running reduction in any order (the CUDA kernels sum over j first).
ZKGPU_HD void basemul_pair(int16_t& r0, int16_t& r1, int16_t a0, int16_t a1, int16_t b0, int16_t b1, int16_t z) {
  r0 = int16_t(fqmul(fqmul(a1, b1), z) + fqmul(a0, b0));
  r1 = int16_t(fqmul(a0, b1) + fqmul(a1, b0));
}
// Zeta of base product pair p (coefficients 2p, 2p+1): +-zeta(64 + p/2).
ZKGPU_HD int16_t basemul_zeta(int p) {
  const int16_t zt = zeta(64 + p / 2);
  return (p & 1) ? int16_t(-zt) : zt;
}

// r += a * b in the NTT domain (Algorithms 11/12), with a 2^-16 factor from Montgomery products.
ZKGPU_HD_NOINLINE void basemul_acc(Poly& r, const Poly& a, const Poly& b) {
  for (int p = 0; p < N / 2; ++p) {
    const int o = 2 * p;
    int16_t r0, r1;
    basemul_pair(r0, r1, a.c[o], a.c[o + 1], b.c[o], b.c[o + 1], basemul_zeta(p));
    r.c[o] = barrett_reduce(int16_t(r.c[o] + r0));
    r.c[o + 1] = barrett_reduce(int16_t(r.c[o + 1] + r1));
  }
}

ZKGPU_HD void poly_zero(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] = 0;
}
ZKGPU_HD void poly_add(Poly& r, const Poly& a) {
  for (int i = 0; i < N; ++i) r.c[i] = int16_t(r.c[i] + a.c[i]);
}
ZKGPU_HD void poly_sub_from(Poly& r, const Poly& a) {  // r = a - r
  for (int i = 0; i < N; ++i) r.c[i] = int16_t(a.c[i] - r.c[i]);
}
ZKGPU_HD void poly_reduce(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] = barrett_reduce(r.c[i]);
}
// Multiplies by 2^16 (fqmul by 2^32 mod q = 1353) to undo the base products' 2^-16.
ZKGPU_HD int16_t tomont(int16_t a) { return fqmul(a, 1353); }
ZKGPU_HD void poly_tomont(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] = tomont(r.c[i]);
}

}  // namespace zkgpu::mlkem
