// GF(2^255 - 19) in ten limbs of alternately 26 and 25 bits held in 32-bit words (the ref10
// radix 2^25.5), for the GPU: sm_90 multiplies 32 x 32 -> 64 bits natively (IMAD.WIDE) but
// emulates 64 x 64 -> 128, so this form needs about half the instructions of the 51-bit one.
// Values convert exactly to and from the 51-bit form, which does the canonical encoding, so the
// byte layout of everything at the API edge is the same. The host tests run the whole verifier
// with this representation against the known answers.
//
// Limb bounds: "reduced" limbs (every fe_mul, fe_sub and conversion output) are < 2^26; a sum of
// two reduced values (fe_add, no carry) is < 2^27, which fe_mul and fe_sub accept.
// Laid out by hand (limb chains, assembly) or generated: not reformatted.
// clang-format off
#pragma once
#include <cstdint>

#include "zkgpu/core/common.hpp"
#include "zkgpu/core/ed25519/fe25519.hpp"
#include "zkgpu/core/ed25519/fe_generic.hpp"

namespace zkgpu::ed25519 {

struct Fe10 {
  uint32_t v[10];
};

ZKGPU_HD constexpr int fe10_bits(int i) { return (i & 1) ? 25 : 26; }

template <class Word>
ZKGPU_FE_INLINE void fe10_carry_words(Word h[10]) {
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) {
    const Word c = h[i] >> fe10_bits(i);
    h[i] &= (Word{1} << fe10_bits(i)) - 1;
    if (i < 9) h[i + 1] += c;
    else h[0] += 19 * c;
  }
  const Word c = h[0] >> 26;  // h[0] got at most 19 times the top carry
  h[0] &= (Word{1} << 26) - 1;
  h[1] += c;
}

ZKGPU_FE_INLINE Fe10 fe_add(const Fe10& a, const Fe10& b) {
  Fe10 r;
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) r.v[i] = a.v[i] + b.v[i];
  return r;
}

// a + 4p - b: 4p's limbs (4 (2^26 - 19), 4 (2^25 - 1), 4 (2^26 - 1), ...) exceed any sum's.
ZKGPU_FE_INLINE Fe10 fe_sub(const Fe10& a, const Fe10& b) {
  uint32_t h[10];
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) {
    const uint32_t four_p = i == 0 ? 4u * ((1u << 26) - 19) : 4u * ((1u << fe10_bits(i)) - 1);
    h[i] = a.v[i] + four_p - b.v[i];
  }
  fe10_carry_words(h);
  Fe10 r;
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) r.v[i] = h[i];
  return r;
}

ZKGPU_FE_INLINE Fe10 fe_neg(const Fe10& a) {
  const Fe10 zero{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  return fe_sub(zero, a);
}

// Schoolbook with the ref10 weights: f_i g_j lands at limb i + j, doubled when i and j are both
// odd (2^25.5 rounding), times 19 when i + j >= 10 (2^255 = 19). With limbs < 2^27 every term
// is < 2^28 * 2^31.3 and ten of them stay below 2^63.
ZKGPU_FE_INLINE Fe10 fe_mul(const Fe10& f, const Fe10& g) {
  uint32_t g19[10], f2[10];
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) {
    g19[i] = 19 * g.v[i];
    f2[i] = (i & 1) ? 2 * f.v[i] : f.v[i];
  }
  uint64_t h[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) {
    ZKGPU_UNROLL
    for (int j = 0; j < 10; ++j) {
      const uint32_t fi = (j & 1) ? f2[i] : f.v[i];
      const uint32_t gj = i + j >= 10 ? g19[j] : g.v[j];
      h[(i + j) % 10] += static_cast<uint64_t>(fi) * gj;
    }
  }
  fe10_carry_words(h);
  Fe10 r;
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) r.v[i] = static_cast<uint32_t>(h[i]);
  return r;
}

// Squaring: the 55 products f_i f_j with i <= j, each with its weight (2 for i < j, 2 more when
// both are odd, 19 past limb 9) split over the two 32-bit operands (4 f_i < 2^29 and
// 19 f_j < 2^32), so every product is one 32 x 32 -> 64 multiply-add; sums stay below 2^62.
ZKGPU_FE_INLINE Fe10 fe_sq(const Fe10& f) {
  uint32_t f2[10], f4[10], f19[10];
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) {
    f2[i] = 2 * f.v[i];
    f4[i] = 4 * f.v[i];
    f19[i] = 19 * f.v[i];
  }
  uint64_t h[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) {
    ZKGPU_UNROLL
    for (int j = i; j < 10; ++j) {
      const int twice = (i < j ? 1 : 0) + ((i & 1) && (j & 1) ? 1 : 0);  // log2 of the power of two
      const uint32_t a = twice == 0 ? f.v[i] : twice == 1 ? f2[i] : f4[i];
      const uint32_t b = i + j >= 10 ? f19[j] : f.v[j];
      h[(i + j) % 10] += static_cast<uint64_t>(a) * b;
    }
  }
  fe10_carry_words(h);
  Fe10 r;
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) r.v[i] = static_cast<uint32_t>(h[i]);
  return r;
}

template <>
ZKGPU_HD Fe10 fe_from51<Fe10>(const Fe& a) {
  const Fe c = fe_carry(fe_carry(a));  // limbs < 2^51 but limb 0 slightly above: split exactly
  Fe10 r;
  ZKGPU_UNROLL
  for (int k = 0; k < 5; ++k) {
    r.v[2 * k] = static_cast<uint32_t>(c.v[k] & ((1u << 26) - 1));
    r.v[2 * k + 1] = static_cast<uint32_t>(c.v[k] >> 26);
  }
  return r;
}

ZKGPU_HD Fe fe_to51(const Fe10& a) {
  uint32_t h[10];
  ZKGPU_UNROLL
  for (int i = 0; i < 10; ++i) h[i] = a.v[i];
  fe10_carry_words(h);
  Fe r;
  ZKGPU_UNROLL
  for (int k = 0; k < 5; ++k) r.v[k] = h[2 * k] + (static_cast<uint64_t>(h[2 * k + 1]) << 26);
  return r;
}

ZKGPU_HD void fe_tobytes(uint8_t out[32], const Fe10& a) { fe_tobytes(out, fe_to51(a)); }

}  // namespace zkgpu::ed25519
