// Eight BabyBear lanes in a __m256i, Plonky3's monty-31 AVX2 packing. Include only from files
// named *_avx2.cpp (compiled with -mavx2) and call them only after simd_level() >= Avx2.
// Every lane stays a canonical Montgomery word < p, bit-identical to the scalar BabyBear ops.
#pragma once
#include <immintrin.h>

#include "zkgpu/core/field/babybear.hpp"

#if !defined(__AVX2__)
#error "packed_avx2.hpp needs -mavx2 (include it only from *_avx2.cpp files)"
#endif

namespace zkgpu::cpu {

struct PackedAvx2 {
  static constexpr unsigned LANES = 8;
  __m256i v;

  static PackedAvx2 load(const BabyBear* p) { return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))}; }
  void store(BabyBear* p) const { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static PackedAvx2 broadcast(BabyBear a) { return {_mm256_set1_epi32(static_cast<int>(a.v))}; }
  static PackedAvx2 zero() { return {_mm256_setzero_si256()}; }

  static __m256i p_vec() { return _mm256_set1_epi32(static_cast<int>(BabyBear::P)); }

  // a + b < 2p < 2^32; min_epu32 picks a + b - p exactly when it did not wrap.
  static __m256i add(__m256i a, __m256i b) {
    __m256i t = _mm256_add_epi32(a, b);
    return _mm256_min_epu32(t, _mm256_sub_epi32(t, p_vec()));
  }
  // a - b wraps to >= 2^32 - p when a < b; then t + p is the smaller, correct value.
  static __m256i sub(__m256i a, __m256i b) {
    __m256i t = _mm256_sub_epi32(a, b);
    return _mm256_min_epu32(t, _mm256_add_epi32(t, p_vec()));
  }
  // Montgomery product (spec §1.1): even and odd lanes through 32x32->64 multiplies; the low
  // words of a*b and q*p cancel, so the result is hi(a*b) - hi(q*p), plus p on underflow.
  static __m256i mul(__m256i a, __m256i b) {
    const __m256i mu = _mm256_set1_epi32(static_cast<int>(BabyBear::MU));
    const __m256i p = p_vec();
    __m256i a_odd = _mm256_srli_epi64(a, 32), b_odd = _mm256_srli_epi64(b, 32);
    __m256i prod_evn = _mm256_mul_epu32(a, b), prod_odd = _mm256_mul_epu32(a_odd, b_odd);
    __m256i q_evn = _mm256_mul_epu32(prod_evn, mu), q_odd = _mm256_mul_epu32(prod_odd, mu);
    __m256i qp_evn = _mm256_mul_epu32(q_evn, p), qp_odd = _mm256_mul_epu32(q_odd, p);
    // High 32-bit halves into their lanes: even lanes shifted down, odd lanes already in place.
    __m256i prod_hi = _mm256_blend_epi32(_mm256_srli_epi64(prod_evn, 32), prod_odd, 0xAA);
    __m256i qp_hi = _mm256_blend_epi32(_mm256_srli_epi64(qp_evn, 32), qp_odd, 0xAA);
    __m256i t = _mm256_sub_epi32(prod_hi, qp_hi);
    return _mm256_min_epu32(t, _mm256_add_epi32(t, p));
  }

  PackedAvx2 operator+(PackedAvx2 o) const { return {add(v, o.v)}; }
  PackedAvx2 operator-(PackedAvx2 o) const { return {sub(v, o.v)}; }
  PackedAvx2 operator*(PackedAvx2 o) const { return {mul(v, o.v)}; }
  PackedAvx2 operator-() const { return {sub(_mm256_setzero_si256(), v)}; }
  PackedAvx2& operator+=(PackedAvx2 o) { return *this = *this + o; }
  PackedAvx2& operator-=(PackedAvx2 o) { return *this = *this - o; }
  PackedAvx2& operator*=(PackedAvx2 o) { return *this = *this * o; }
  PackedAvx2 dbl() const { return {add(v, v)}; }
};

}  // namespace zkgpu::cpu
