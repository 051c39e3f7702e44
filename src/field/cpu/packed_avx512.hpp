// Sixteen BabyBear lanes in a __m512i, Plonky3's monty-31 AVX-512 packing. Include only from
// files named *_avx512.cpp (compiled with -mavx512f/bw/dq/vl) and call them only after
// simd_level() == Avx512. Every lane stays a canonical Montgomery word < p, bit-identical to the
// scalar BabyBear ops.
#pragma once
// GCC 12 reports its own _mm512_undefined_epi32 (`__m512i __Y = __Y;`) as (maybe-)uninitialized
// when the masked intrinsics are inlined at -O3; the diagnostic is positioned inside the
// intrinsics header, so it must be silenced before that header is read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "zkgpu/core/field/babybear.hpp"

#if !defined(__AVX512F__)
#error "packed_avx512.hpp needs -mavx512f (include it only from *_avx512.cpp files)"
#endif

namespace zkgpu::cpu {

struct PackedAvx512 {
  static constexpr unsigned LANES = 16;
  __m512i v;

  static PackedAvx512 load(const BabyBear* p) { return {_mm512_loadu_si512(p)}; }
  void store(BabyBear* p) const { _mm512_storeu_si512(p, v); }
  static PackedAvx512 broadcast(BabyBear a) { return {_mm512_set1_epi32(static_cast<int>(a.v))}; }
  static PackedAvx512 zero() { return {_mm512_setzero_si512()}; }

  static __m512i p_vec() { return _mm512_set1_epi32(static_cast<int>(BabyBear::P)); }

  // a + b < 2p < 2^32; min_epu32 picks a + b - p exactly when it did not wrap.
  static __m512i add(__m512i a, __m512i b) {
    __m512i t = _mm512_add_epi32(a, b);
    return _mm512_min_epu32(t, _mm512_sub_epi32(t, p_vec()));
  }
  // a - b wraps to >= 2^32 - p when a < b; then t + p is the smaller, correct value.
  static __m512i sub(__m512i a, __m512i b) {
    __m512i t = _mm512_sub_epi32(a, b);
    return _mm512_min_epu32(t, _mm512_add_epi32(t, p_vec()));
  }
  // Montgomery product (spec §1.1): even and odd lanes through 32x32->64 multiplies; the low
  // words of a*b and q*p cancel, so the result is hi(a*b) - hi(q*p), plus p on underflow.
  static __m512i mul(__m512i a, __m512i b) {
    const __m512i mu = _mm512_set1_epi32(static_cast<int>(BabyBear::MU));
    const __m512i p = p_vec();
    __m512i a_odd = _mm512_srli_epi64(a, 32), b_odd = _mm512_srli_epi64(b, 32);
    __m512i prod_evn = _mm512_mul_epu32(a, b), prod_odd = _mm512_mul_epu32(a_odd, b_odd);
    __m512i q_evn = _mm512_mul_epu32(prod_evn, mu), q_odd = _mm512_mul_epu32(prod_odd, mu);
    __m512i qp_evn = _mm512_mul_epu32(q_evn, p), qp_odd = _mm512_mul_epu32(q_odd, p);
    // High 32-bit halves into their lanes: even lanes shifted down, odd lanes already in place.
    constexpr __mmask16 ODD = 0xAAAA;
    __m512i prod_hi = _mm512_mask_blend_epi32(ODD, _mm512_srli_epi64(prod_evn, 32), prod_odd);
    __m512i qp_hi = _mm512_mask_blend_epi32(ODD, _mm512_srli_epi64(qp_evn, 32), qp_odd);
    __m512i t = _mm512_sub_epi32(prod_hi, qp_hi);
    return _mm512_min_epu32(t, _mm512_add_epi32(t, p));
  }

  PackedAvx512 operator+(PackedAvx512 o) const { return {add(v, o.v)}; }
  PackedAvx512 operator-(PackedAvx512 o) const { return {sub(v, o.v)}; }
  PackedAvx512 operator*(PackedAvx512 o) const { return {mul(v, o.v)}; }
  PackedAvx512 operator-() const { return {sub(_mm512_setzero_si512(), v)}; }
  PackedAvx512& operator+=(PackedAvx512 o) { return *this = *this + o; }
  PackedAvx512& operator-=(PackedAvx512 o) { return *this = *this - o; }
  PackedAvx512& operator*=(PackedAvx512 o) { return *this = *this * o; }
  PackedAvx512 dbl() const { return {add(v, v)}; }
};

}  // namespace zkgpu::cpu
