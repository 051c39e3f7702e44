// Field operations written once for any representation of GF(2^255 - 19) that provides
// fe_add, fe_sub, fe_neg, fe_mul, fe_sq, fe_tobytes and fe_from51 (fe25519.hpp: five 51-bit
// limbs, the host's; fe25519_10.hpp: ten 25.5-bit limbs in 32-bit words, the GPU's).
// Laid out by hand (limb chains, assembly) or generated: not reformatted.
// clang-format off
#pragma once
#include <cstdint>

#include "zkgpu/core/common.hpp"
#include "zkgpu/core/ed25519/fe25519.hpp"

namespace zkgpu::ed25519 {

// Conversion from the 51-bit form (constants, decoded bytes): specialised per representation.
template <class F>
ZKGPU_HD F fe_from51(const Fe& a);
template <>
ZKGPU_HD Fe fe_from51<Fe>(const Fe& a) { return a; }

template <class F> ZKGPU_HD F f_zero() { return fe_from51<F>(fe_zero()); }
template <class F> ZKGPU_HD F f_one() { return fe_from51<F>(fe_one()); }
template <class F> ZKGPU_HD F f_d() { return fe_from51<F>(fe_d()); }
template <class F> ZKGPU_HD F f_d2() { return fe_from51<F>(fe_d2()); }
template <class F> ZKGPU_HD F f_sqrtm1() { return fe_from51<F>(fe_sqrtm1()); }
template <class F> ZKGPU_HD F f_frombytes(const uint8_t s[32]) { return fe_from51<F>(fe_frombytes(s)); }

template <class F>
ZKGPU_HD F fe_sq_n(F a, int n) {
  ZKGPU_NO_UNROLL
  for (int i = 0; i < n; ++i) a = fe_sq(a);
  return a;
}

template <class F>
ZKGPU_HD bool fe_is_zero(const F& a) {
  uint8_t s[32];
  fe_tobytes(s, a);
  uint8_t acc = 0;
  for (int i = 0; i < 32; ++i) acc |= s[i];
  return acc == 0;
}

template <class F>
ZKGPU_HD bool fe_equal(const F& a, const F& b) { return fe_is_zero(fe_sub(a, b)); }

// The "sign" of x in point encodings: the low bit of its canonical value.
template <class F>
ZKGPU_HD int fe_is_negative(const F& a) {
  uint8_t s[32];
  fe_tobytes(s, a);
  return s[0] & 1;
}

// z^(2^250 - 1) and z^11, the common prefix of the inversion and square-root chains (ref10).
template <class F>
ZKGPU_HD void fe_pow_2_250_1(const F& z, F& z_250_1, F& z11) {
  F t0 = fe_sq(z);                // 2
  F t1 = fe_sq_n(t0, 2);          // 8
  t1 = fe_mul(z, t1);              // 9
  z11 = fe_mul(t0, t1);            // 11
  t0 = fe_sq(z11);                 // 22
  t0 = fe_mul(t1, t0);             // 2^5 - 1
  t1 = fe_sq_n(t0, 5);
  t0 = fe_mul(t1, t0);             // 2^10 - 1
  t1 = fe_sq_n(t0, 10);
  t1 = fe_mul(t1, t0);             // 2^20 - 1
  F t2 = fe_sq_n(t1, 20);
  t1 = fe_mul(t2, t1);             // 2^40 - 1
  t1 = fe_sq_n(t1, 10);
  t0 = fe_mul(t1, t0);             // 2^50 - 1
  t1 = fe_sq_n(t0, 50);
  t1 = fe_mul(t1, t0);             // 2^100 - 1
  t2 = fe_sq_n(t1, 100);
  t1 = fe_mul(t2, t1);             // 2^200 - 1
  t1 = fe_sq_n(t1, 50);
  z_250_1 = fe_mul(t1, t0);        // 2^250 - 1
}

// z^(p - 2) = z^(2^255 - 21): the inverse (0 maps to 0).
template <class F>
ZKGPU_HD F fe_invert(const F& z) {
  F a, z11;
  fe_pow_2_250_1(z, a, z11);
  return fe_mul(fe_sq_n(a, 5), z11);
}

// z^((p - 5) / 8) = z^(2^252 - 3), used by point decompression (RFC 8032 section 5.1.3).
template <class F>
ZKGPU_HD F fe_pow22523(const F& z) {
  F a, z11;
  fe_pow_2_250_1(z, a, z11);
  return fe_mul(fe_sq_n(a, 2), z);
}

}  // namespace zkgpu::ed25519
