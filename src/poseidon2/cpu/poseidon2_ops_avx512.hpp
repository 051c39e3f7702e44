// Poseidon2 fast paths for PackedAvx512 (include only from *_avx512.cpp):
// - SboxOps: (x + rc)^7 on signed lanes, 43 ops instead of 59;
// - DiagOps: x * 2^-n by the shift form of mul_2exp_neg_word (packed_permute.hpp), 7-8 single-cycle
//   ops instead of a 15-op Montgomery product;
// - LaneIO: 16 states <-> 16 registers by a 64-shuffle in-register 16x16 transpose, with masked
//   loads and stores for short rows and partial blocks.
#pragma once
#include <algorithm>

#include "poseidon2/cpu/packed_permute.hpp"
#include "field/cpu/packed_avx512.hpp"

namespace zkgpu::cpu::p2 {

namespace avx512 {
inline __m512i bcast(uint32_t w) { return _mm512_set1_epi32(static_cast<int>(w)); }
// Odd 32-bit lanes copied down into the even ones, where the 32x32->64 multiplies read them.
inline __m512i odd_to_even(__m512i x) { return _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(x))); }
// Even lanes <- high words of the 64-bit products in evn, odd lanes <- those of odd (already in place).
inline __m512i high_words(__m512i evn, __m512i odd) {
  return _mm512_castps_si512(_mm512_mask_movehdup_ps(_mm512_castsi512_ps(odd), 0x5555, _mm512_castsi512_ps(evn)));
}
// Signed Montgomery product: lanes of a, b in [-p, p] (two's complement) -> a*b*2^-32 in (-p, p).
// With t = lo(a*b) * p^-1 mod 2^32 read as signed, a*b - t*p is an exact multiple of 2^32 and
// |a*b - t*p| <= p^2 + 2^31 p < 2^32 p, so the difference of the high words needs no correction.
// a_odd, b_odd are odd_to_even(a), odd_to_even(b), passed in so each is computed once.
inline __m512i mul_signed(__m512i a, __m512i a_odd, __m512i b, __m512i b_odd) {
  const __m512i mu = bcast(BabyBear::MU), p = bcast(BabyBear::P);
  __m512i prod_evn = _mm512_mul_epi32(a, b), prod_odd = _mm512_mul_epi32(a_odd, b_odd);
  __m512i t_evn = _mm512_mul_epu32(prod_evn, mu), t_odd = _mm512_mul_epu32(prod_odd, mu);
  __m512i tp_evn = _mm512_mul_epi32(t_evn, p), tp_odd = _mm512_mul_epi32(t_odd, p);
  return _mm512_sub_epi32(high_words(prod_evn, prod_odd), high_words(tp_evn, tp_odd));
}

// r[a][b] -> r[b][a] for a 16x16 matrix of 32-bit words.
inline void transpose16(__m512i (&r)[16]) {
  __m512i t[16], u[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  // u[4i+j], 128-bit lane k: rows 4i..4i+3 of column 4k+j.
  for (int i = 0; i < 16; i += 4) {
    u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  // Column 4k+j = lane k of u[j], u[4+j], u[8+j], u[12+j].
  for (int j = 0; j < 4; ++j) {
    __m512i v0 = _mm512_shuffle_i32x4(u[j], u[4 + j], _MM_SHUFFLE(2, 0, 2, 0));
    __m512i v1 = _mm512_shuffle_i32x4(u[j], u[4 + j], _MM_SHUFFLE(3, 1, 3, 1));
    __m512i v2 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], _MM_SHUFFLE(2, 0, 2, 0));
    __m512i v3 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], _MM_SHUFFLE(3, 1, 3, 1));
    r[j] = _mm512_shuffle_i32x4(v0, v2, _MM_SHUFFLE(2, 0, 2, 0));
    r[4 + j] = _mm512_shuffle_i32x4(v1, v3, _MM_SHUFFLE(2, 0, 2, 0));
    r[8 + j] = _mm512_shuffle_i32x4(v0, v2, _MM_SHUFFLE(3, 1, 3, 1));
    r[12 + j] = _mm512_shuffle_i32x4(v1, v3, _MM_SHUFFLE(3, 1, 3, 1));
  }
}

inline __mmask16 low_mask(int m) { return static_cast<__mmask16>(m >= 16 ? 0xffffu : (1u << m) - 1); }
}  // namespace avx512

template <>
struct LaneIO<PackedAvx512> {
  template <int W>
  static void gather(PackedAvx512 (&s)[W], int first, int count, const BabyBear* src, size_t stride,
                     size_t lanes_used) {
    for (int k0 = 0; k0 < count; k0 += 16) {
      const int m = std::min(16, count - k0);
      const __mmask16 mask = avx512::low_mask(m);
      __m512i r[16];
      for (size_t l = 0; l < 16; ++l)
        r[l] = l < lanes_used ? _mm512_maskz_loadu_epi32(mask, src + l * stride + first + k0) : _mm512_setzero_si512();
      avx512::transpose16(r);
      for (int i = 0; i < m; ++i) s[first + k0 + i].v = r[i];
    }
  }
  template <int W>
  static void scatter(const PackedAvx512 (&s)[W], int count, BabyBear* dst, size_t stride, size_t lanes_used) {
    for (int k0 = 0; k0 < count; k0 += 16) {
      const int m = std::min(16, count - k0);
      const __mmask16 mask = avx512::low_mask(m);
      __m512i r[16];
      for (int i = 0; i < 16; ++i) r[i] = i < m ? s[k0 + i].v : _mm512_setzero_si512();
      avx512::transpose16(r);
      for (size_t l = 0; l < lanes_used; ++l) _mm512_mask_storeu_epi32(dst + l * stride + k0, mask, r[l]);
    }
  }
};

template <>
struct SboxOps<PackedAvx512> {
  // rc - p: x + (rc - p) lies in [-p, p) for x < p, so the add needs no reduction.
  static constexpr uint32_t rc_word(BabyBear rc) { return rc.v - BabyBear::P; }
  static PackedAvx512 add_rc_sbox(PackedAvx512 x, uint32_t rc) {
    using namespace avx512;
    __m512i y = _mm512_add_epi32(x.v, bcast(rc));
    __m512i y_o = odd_to_even(y);
    __m512i y2 = mul_signed(y, y_o, y, y_o);
    __m512i y2_o = odd_to_even(y2);
    __m512i y3 = mul_signed(y2, y2_o, y, y_o);
    __m512i y4 = mul_signed(y2, y2_o, y2, y2_o);
    __m512i y7 = mul_signed(y3, odd_to_even(y3), y4, odd_to_even(y4));
    // (-p, p) -> [0, p): add p to the negative lanes (then y7 + p < p as unsigned is the min).
    return {_mm512_min_epu32(y7, _mm512_add_epi32(y7, bcast(BabyBear::P)))};
  }
};

template <>
struct DiagOps<PackedAvx512> {
  template <unsigned N>
  static PackedAvx512 mul_2exp_neg(PackedAvx512 x) {
    static_assert(N >= 1 && N <= 27);
    __m512i hi = _mm512_srli_epi32(x.v, N);
    __m512i lo = _mm512_and_si512(x.v, _mm512_set1_epi32(static_cast<int>((1u << N) - 1)));
    __m512i t;  // lo * 15 * 2^(27-n)
    if constexpr (N == 27)
      t = _mm512_sub_epi32(_mm512_slli_epi32(lo, 4), lo);
    else
      t = _mm512_sub_epi32(_mm512_slli_epi32(lo, 31 - N), _mm512_slli_epi32(lo, 27 - N));
    __m512i r = _mm512_sub_epi32(hi, t);
    return {_mm512_min_epu32(r, _mm512_add_epi32(r, PackedAvx512::p_vec()))};
  }
  // x/2: x >> 1, plus (p + 1)/2 when x is odd (< p, since then x <= p - 2).
  static PackedAvx512 halve(PackedAvx512 x) {
    __mmask16 odd = _mm512_test_epi32_mask(x.v, _mm512_set1_epi32(1));
    __m512i h = _mm512_srli_epi32(x.v, 1);
    return {_mm512_mask_add_epi32(h, odd, h, _mm512_set1_epi32(static_cast<int>((BabyBear::P + 1) >> 1)))};
  }
};

}  // namespace zkgpu::cpu::p2
