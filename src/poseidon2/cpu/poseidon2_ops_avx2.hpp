// Poseidon2 fast paths for PackedAvx2 (include only from *_avx2.cpp):
// - SboxOps: (x + rc)^7 on signed lanes (see poseidon2_ops_avx512.hpp for the bounds);
// - DiagOps: x * 2^-n by the shift form of mul_2exp_neg_word (packed_permute.hpp), 7-8 single-cycle
//   ops instead of a 15-op Montgomery product.
#pragma once
#include "poseidon2/cpu/packed_permute.hpp"
#include "field/cpu/packed_avx2.hpp"

namespace zkgpu::cpu::p2 {

namespace avx2 {
inline __m256i bcast(uint32_t w) { return _mm256_set1_epi32(static_cast<int>(w)); }
inline __m256i odd_to_even(__m256i x) { return _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x))); }
inline __m256i high_words(__m256i evn, __m256i odd) { return _mm256_blend_epi32(odd_to_even(evn), odd, 0xaa); }
// Signed Montgomery product, lanes in [-p, p] -> (-p, p); the avx512 twin explains the bound.
inline __m256i mul_signed(__m256i a, __m256i a_odd, __m256i b, __m256i b_odd) {
  const __m256i mu = bcast(BabyBear::MU), p = bcast(BabyBear::P);
  __m256i prod_evn = _mm256_mul_epi32(a, b), prod_odd = _mm256_mul_epi32(a_odd, b_odd);
  __m256i t_evn = _mm256_mul_epu32(prod_evn, mu), t_odd = _mm256_mul_epu32(prod_odd, mu);
  __m256i tp_evn = _mm256_mul_epi32(t_evn, p), tp_odd = _mm256_mul_epi32(t_odd, p);
  return _mm256_sub_epi32(high_words(prod_evn, prod_odd), high_words(tp_evn, tp_odd));
}
}  // namespace avx2

template <>
struct SboxOps<PackedAvx2> {
  // rc - p: x + (rc - p) lies in [-p, p) for x < p, so the add needs no reduction.
  static constexpr uint32_t rc_word(BabyBear rc) { return rc.v - BabyBear::P; }
  static PackedAvx2 add_rc_sbox(PackedAvx2 x, uint32_t rc) {
    using namespace avx2;
    __m256i y = _mm256_add_epi32(x.v, bcast(rc));
    __m256i y_o = odd_to_even(y);
    __m256i y2 = mul_signed(y, y_o, y, y_o);
    __m256i y2_o = odd_to_even(y2);
    __m256i y3 = mul_signed(y2, y2_o, y, y_o);
    __m256i y4 = mul_signed(y2, y2_o, y2, y2_o);
    __m256i y7 = mul_signed(y3, odd_to_even(y3), y4, odd_to_even(y4));
    return {_mm256_min_epu32(y7, _mm256_add_epi32(y7, bcast(BabyBear::P)))};
  }
};

template <>
struct DiagOps<PackedAvx2> {
  template <unsigned N>
  static PackedAvx2 mul_2exp_neg(PackedAvx2 x) {
    static_assert(N >= 1 && N <= 27);
    __m256i hi = _mm256_srli_epi32(x.v, N);
    __m256i lo = _mm256_and_si256(x.v, _mm256_set1_epi32(static_cast<int>((1u << N) - 1)));
    __m256i t;  // lo * 15 * 2^(27-n)
    if constexpr (N == 27)
      t = _mm256_sub_epi32(_mm256_slli_epi32(lo, 4), lo);
    else
      t = _mm256_sub_epi32(_mm256_slli_epi32(lo, 31 - N), _mm256_slli_epi32(lo, 27 - N));
    __m256i r = _mm256_sub_epi32(hi, t);
    return {_mm256_min_epu32(r, _mm256_add_epi32(r, PackedAvx2::p_vec()))};
  }
  // x/2: x >> 1, plus (p + 1)/2 when x is odd (< p, since then x <= p - 2).
  static PackedAvx2 halve(PackedAvx2 x) {
    __m256i odd = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_and_si256(x.v, _mm256_set1_epi32(1)));
    __m256i h = _mm256_srli_epi32(x.v, 1);
    return {_mm256_add_epi32(h, _mm256_and_si256(odd, _mm256_set1_epi32(static_cast<int>((BabyBear::P + 1) >> 1))))};
  }
};

}  // namespace zkgpu::cpu::p2
