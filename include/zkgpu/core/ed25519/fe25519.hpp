// The field GF(2^255 - 19) in radix 2^51 (five 64-bit limbs), shared by the CPU backend and the
// CUDA kernels. Limbs are kept "weakly reduced" (each < 2^52 after every operation) so products
// of five terms fit in 128 bits; only fe_tobytes produces the canonical value. Formulas follow
// the ref10 / donna-64 reference (Bernstein et al., "High-speed high-security signatures", 2011).
// Laid out by hand (limb chains, assembly) or generated: not reformatted.
// clang-format off
#pragma once
#include <cstdint>

#include "zkgpu/core/common.hpp"

namespace zkgpu::ed25519 {

using u128 = unsigned __int128;

// The small field operations are forced inline on the host: g++ otherwise leaves fe_mul as a call
// with its 40-byte operands in memory, which costs a third of a verification.
#if defined(__CUDACC__)
#define ZKGPU_FE_INLINE ZKGPU_HD
#else
#define ZKGPU_FE_INLINE inline __attribute__((always_inline))
#endif

struct Fe {
  uint64_t v[5];
};

inline constexpr uint64_t FE_MASK51 = (uint64_t{1} << 51) - 1;

ZKGPU_HD Fe fe_zero() { return Fe{{0, 0, 0, 0, 0}}; }
ZKGPU_HD Fe fe_one() { return Fe{{1, 0, 0, 0, 0}}; }
// d = -121665/121666, 2d and sqrt(-1) = 2^((p-1)/4) (spec section 1), as radix-2^51 limbs.
ZKGPU_HD Fe fe_d() { return Fe{{0x34dca135978a3ull, 0x1a8283b156ebdull, 0x5e7a26001c029ull, 0x739c663a03cbbull, 0x52036cee2b6ffull}}; }
ZKGPU_HD Fe fe_d2() { return Fe{{0x69b9426b2f159ull, 0x35050762add7aull, 0x3cf44c0038052ull, 0x6738cc7407977ull, 0x2406d9dc56dffull}}; }
ZKGPU_HD Fe fe_sqrtm1() { return Fe{{0x61b274a0ea0b0ull, 0xd5a5fc8f189dull, 0x7ef5e9cbd0c60ull, 0x78595a6804c9eull, 0x2b8324804fc1dull}}; }

// One carry pass: every limb < 2^51 except limb 0, which may exceed it by at most 19 * 2^13.
ZKGPU_FE_INLINE Fe fe_carry(Fe a) {
  uint64_t c;
  c = a.v[0] >> 51; a.v[0] &= FE_MASK51; a.v[1] += c;
  c = a.v[1] >> 51; a.v[1] &= FE_MASK51; a.v[2] += c;
  c = a.v[2] >> 51; a.v[2] &= FE_MASK51; a.v[3] += c;
  c = a.v[3] >> 51; a.v[3] &= FE_MASK51; a.v[4] += c;
  c = a.v[4] >> 51; a.v[4] &= FE_MASK51; a.v[0] += c * 19;
  return a;
}

// No carry: inputs with limbs < 2^52 (every mul/sq/sub output) give limbs < 2^53, which fe_mul,
// fe_sq and fe_sub (as its subtrahend, below 4p's limbs) accept. Callers never add a sum to a sum.
ZKGPU_FE_INLINE Fe fe_add(const Fe& a, const Fe& b) {
  Fe r;
  ZKGPU_UNROLL
  for (int i = 0; i < 5; ++i) r.v[i] = a.v[i] + b.v[i];
  return r;
}

// a - b computed as a + 4p - b, so no limb underflows for inputs with limbs < 2^53.
ZKGPU_FE_INLINE Fe fe_sub(const Fe& a, const Fe& b) {
  Fe r;
  r.v[0] = a.v[0] + 0x1FFFFFFFFFFFB4ull - b.v[0];
  ZKGPU_UNROLL
  for (int i = 1; i < 5; ++i) r.v[i] = a.v[i] + 0x1FFFFFFFFFFFFCull - b.v[i];
  return fe_carry(r);
}

ZKGPU_FE_INLINE Fe fe_neg(const Fe& a) { return fe_sub(fe_zero(), a); }

// The 128-bit column sums of a product back to 51-bit limbs (2^255 = 19 folds the top carry).
ZKGPU_FE_INLINE Fe fe_carry_wide(u128 r0, u128 r1, u128 r2, u128 r3, u128 r4) {
  Fe r;
  r1 += (uint64_t)(r0 >> 51); r.v[0] = (uint64_t)r0 & FE_MASK51;
  r2 += (uint64_t)(r1 >> 51); r.v[1] = (uint64_t)r1 & FE_MASK51;
  r3 += (uint64_t)(r2 >> 51); r.v[2] = (uint64_t)r2 & FE_MASK51;
  r4 += (uint64_t)(r3 >> 51); r.v[3] = (uint64_t)r3 & FE_MASK51;
  uint64_t c = (uint64_t)(r4 >> 51); r.v[4] = (uint64_t)r4 & FE_MASK51;
  r.v[0] += c * 19;
  c = r.v[0] >> 51; r.v[0] &= FE_MASK51; r.v[1] += c;
  return r;
}

ZKGPU_FE_INLINE Fe fe_mul(const Fe& a, const Fe& b) {
  const uint64_t b1 = b.v[1] * 19, b2 = b.v[2] * 19, b3 = b.v[3] * 19, b4 = b.v[4] * 19;
  u128 r0 = (u128)a.v[0] * b.v[0] + (u128)a.v[1] * b4 + (u128)a.v[2] * b3 + (u128)a.v[3] * b2 + (u128)a.v[4] * b1;
  u128 r1 = (u128)a.v[0] * b.v[1] + (u128)a.v[1] * b.v[0] + (u128)a.v[2] * b4 + (u128)a.v[3] * b3 + (u128)a.v[4] * b2;
  u128 r2 = (u128)a.v[0] * b.v[2] + (u128)a.v[1] * b.v[1] + (u128)a.v[2] * b.v[0] + (u128)a.v[3] * b4 + (u128)a.v[4] * b3;
  u128 r3 = (u128)a.v[0] * b.v[3] + (u128)a.v[1] * b.v[2] + (u128)a.v[2] * b.v[1] + (u128)a.v[3] * b.v[0] + (u128)a.v[4] * b4;
  u128 r4 = (u128)a.v[0] * b.v[4] + (u128)a.v[1] * b.v[3] + (u128)a.v[2] * b.v[2] + (u128)a.v[3] * b.v[1] + (u128)a.v[4] * b.v[0];
  return fe_carry_wide(r0, r1, r2, r3, r4);
}

// Squaring with the symmetric cross terms doubled once (15 products instead of 25).
ZKGPU_FE_INLINE Fe fe_sq(const Fe& a) {
  const uint64_t a0_2 = a.v[0] * 2, a1_2 = a.v[1] * 2;
  const uint64_t a1_38 = a.v[1] * 38, a2_38 = a.v[2] * 38, a3_38 = a.v[3] * 38, a3_19 = a.v[3] * 19, a4_19 = a.v[4] * 19;
  u128 r0 = (u128)a.v[0] * a.v[0] + (u128)a1_38 * a.v[4] + (u128)a2_38 * a.v[3];
  u128 r1 = (u128)a0_2 * a.v[1] + (u128)a2_38 * a.v[4] + (u128)a3_19 * a.v[3];
  u128 r2 = (u128)a0_2 * a.v[2] + (u128)a.v[1] * a.v[1] + (u128)a3_38 * a.v[4];
  u128 r3 = (u128)a0_2 * a.v[3] + (u128)a1_2 * a.v[2] + (u128)a4_19 * a.v[4];
  u128 r4 = (u128)a0_2 * a.v[4] + (u128)a1_2 * a.v[3] + (u128)a.v[2] * a.v[2];
  return fe_carry_wide(r0, r1, r2, r3, r4);
}

// Low 255 bits of 32 little-endian bytes; bit 255 (the x sign in point encodings) is ignored.
// A value y >= p is accepted here and behaves as y mod p (lenient decoders rely on that).
ZKGPU_HD Fe fe_frombytes(const uint8_t s[32]) {
  uint64_t w[4];
  ZKGPU_UNROLL
  for (int i = 0; i < 4; ++i) {
    uint64_t x = 0;
    ZKGPU_UNROLL
    for (int j = 7; j >= 0; --j) x = (x << 8) | s[8 * i + j];
    w[i] = x;
  }
  Fe r;
  r.v[0] = w[0] & FE_MASK51;
  r.v[1] = ((w[0] >> 51) | (w[1] << 13)) & FE_MASK51;
  r.v[2] = ((w[1] >> 38) | (w[2] << 26)) & FE_MASK51;
  r.v[3] = ((w[2] >> 25) | (w[3] << 39)) & FE_MASK51;
  r.v[4] = (w[3] >> 12) & FE_MASK51;
  return r;
}

// The canonical encoding (value in [0, p)), 32 little-endian bytes, bit 255 clear.
ZKGPU_HD void fe_tobytes(uint8_t out[32], Fe a) {
  a = fe_carry(fe_carry(a));  // now value < 2^255 + small, every limb < 2^51 but limb 0 nearly
  a = fe_carry(a);
  // q = 1 iff a >= p: a + 19 overflows 2^255 exactly then.
  uint64_t q = (a.v[0] + 19) >> 51;
  q = (a.v[1] + q) >> 51;
  q = (a.v[2] + q) >> 51;
  q = (a.v[3] + q) >> 51;
  q = (a.v[4] + q) >> 51;
  a.v[0] += 19 * q;
  uint64_t c;
  c = a.v[0] >> 51; a.v[0] &= FE_MASK51; a.v[1] += c;
  c = a.v[1] >> 51; a.v[1] &= FE_MASK51; a.v[2] += c;
  c = a.v[2] >> 51; a.v[2] &= FE_MASK51; a.v[3] += c;
  c = a.v[3] >> 51; a.v[3] &= FE_MASK51; a.v[4] += c;
  a.v[4] &= FE_MASK51;  // drops the 2^255 that the +19 carried out: subtracts p in all
  const uint64_t w[4] = {a.v[0] | (a.v[1] << 51), (a.v[1] >> 13) | (a.v[2] << 38), (a.v[2] >> 26) | (a.v[3] << 25),
                         (a.v[3] >> 39) | (a.v[4] << 12)};
  ZKGPU_UNROLL
  for (int i = 0; i < 4; ++i)
    ZKGPU_UNROLL
    for (int j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(w[i] >> (8 * j));
}

}  // namespace zkgpu::ed25519
