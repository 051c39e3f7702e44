// ML-KEM ring arithmetic (FIPS 203 section 4.3): Z_q[X]/(X^256 + 1), q = 3329, 16-bit Montgomery
// (R = 2^16) and Barrett reduction, the incomplete 7-layer NTT and its degree-1 base products.
// Every routine is branch-free in the coefficient values (they are secret in KeyGen/Encaps/Decaps).
#pragma once
#include "core/common.hpp"

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

// Forward NTT (Algorithm 9). Input |coefficients| < 4096 (decoded keys may hold up to 4095);
// output reduced to the centred range.
ZKGPU_HD_NOINLINE void ntt(Poly& p) {
  int16_t* r = p.c;
  int k = 1;
  for (int len = 128; len >= 2; len >>= 1) {
    for (int start = 0; start < N; start += 2 * len) {
      const int16_t zt = zeta(k++);
      for (int j = start; j < start + len; ++j) {
        const int16_t t = fqmul(zt, r[j + len]);
        r[j + len] = int16_t(r[j] - t);
        r[j] = int16_t(r[j] + t);
      }
    }
  }
  for (int j = 0; j < N; ++j) r[j] = barrett_reduce(r[j]);
}

// Inverse NTT (Algorithm 10) times the Montgomery factor: the base products left a 2^-16, and
// the final scale 1441 = 2^32/128 mod q removes it together with the 1/128.
ZKGPU_HD_NOINLINE void invntt_tomont(Poly& p) {
  int16_t* r = p.c;
  constexpr int16_t F = 1441;
  int k = 127;
  for (int len = 2; len <= 128; len <<= 1) {
    for (int start = 0; start < N; start += 2 * len) {
      const int16_t zt = zeta(k--);
      for (int j = start; j < start + len; ++j) {
        const int16_t t = r[j];
        r[j] = barrett_reduce(int16_t(t + r[j + len]));
        r[j + len] = fqmul(zt, int16_t(r[j + len] - t));
      }
    }
  }
  for (int j = 0; j < N; ++j) r[j] = fqmul(r[j], F);
}

// r += a * b in the NTT domain (Algorithms 11/12), with a 2^-16 factor from Montgomery products.
ZKGPU_HD_NOINLINE void basemul_acc(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < N / 4; ++i) {
    const int16_t zt = zeta(64 + i);
    for (int s = 0; s < 2; ++s) {
      const int16_t z = s ? int16_t(-zt) : zt;
      const int o = 4 * i + 2 * s;
      const int16_t a0 = a.c[o], a1 = a.c[o + 1], b0 = b.c[o], b1 = b.c[o + 1];
      int16_t r0 = fqmul(fqmul(a1, b1), z);
      r0 = int16_t(r0 + fqmul(a0, b0));
      const int16_t r1 = int16_t(fqmul(a0, b1) + fqmul(a1, b0));
      r.c[o] = barrett_reduce(int16_t(r.c[o] + r0));
      r.c[o + 1] = barrett_reduce(int16_t(r.c[o + 1] + r1));
    }
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
ZKGPU_HD void poly_tomont(Poly& r) {
  for (int i = 0; i < N; ++i) r.c[i] = fqmul(r.c[i], 1353);
}

}  // namespace zkgpu::mlkem
