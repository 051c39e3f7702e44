// BabyBear, p = 2^31 - 2^27 + 1, in Montgomery form (R = 2^32), bit-compatible with Plonky3's
// MontyField31 (docs/specs/babybear.md §1). The stored word is x*R mod p and always < p, so
// equal words are equal elements and a buffer of BabyBear is a buffer of Plonky3 words.
#pragma once
#include "zkgpu/core/common.hpp"

namespace zkgpu {

struct BabyBear {
  static constexpr uint32_t P = 0x78000001u;
  static constexpr uint32_t MU = 0x88000001u;  // p^-1 mod 2^32 (Plonky3 MONTY_MU)
  static constexpr uint32_t R_MOD_P = 0x0ffffffeu;
  static constexpr uint32_t R2_MOD_P = 0x45dddde3u;
  static constexpr unsigned TWO_ADICITY = 27;
  static constexpr uint32_t GENERATOR = 31;  // canonical multiplicative generator

  uint32_t v;  // Montgomery word, < P

  // x < p * 2^32  ->  x * 2^-32 mod p, Plonky3's monty_reduce (utils.rs).
  ZKGPU_HD static constexpr uint32_t monty_reduce(uint64_t x) {
    uint32_t t = static_cast<uint32_t>(x) * MU;
    uint64_t tp = static_cast<uint64_t>(t) * P;
    uint32_t hi = static_cast<uint32_t>(x >> 32), uh = static_cast<uint32_t>(tp >> 32);
    uint32_t r = hi - uh;  // low words cancel exactly
    return hi < uh ? r + P : r;
  }

  ZKGPU_HD static constexpr uint32_t monty_mul(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    // 32-bit-only form (spec §1.1): the GPU has no fast 64-bit multiply.
    uint32_t lo = a * b, hi = __umulhi(a, b);
    uint32_t t = lo * MU, uh = __umulhi(t, P);
    uint32_t r = hi - uh;
    return hi < uh ? r + P : r;
#else
    return monty_reduce(static_cast<uint64_t>(a) * b);
#endif
  }

  // a*b + c*d for Montgomery words (< p) with one reduction: the 64-bit sum stays below
  // 2p^2 < p * 2^32, monty_reduce's bound. Extension products use it to halve their reductions.
  ZKGPU_HD static constexpr BabyBear mul_add2(BabyBear a, BabyBear b, BabyBear c, BabyBear d) {
    return BabyBear{monty_reduce(static_cast<uint64_t>(a.v) * b.v + static_cast<uint64_t>(c.v) * d.v)};
  }

  ZKGPU_HD static constexpr BabyBear from_monty(uint32_t w) { return BabyBear{w}; }
  // Precondition: c < p (use decode_canonical for untrusted values).
  ZKGPU_HD static constexpr BabyBear from_canonical(uint32_t c) { return BabyBear{monty_mul(c, R2_MOD_P)}; }
  // Any u64, reduced mod p first.
  ZKGPU_HD static constexpr BabyBear from_u64(uint64_t x) { return from_canonical(static_cast<uint32_t>(x % P)); }
  ZKGPU_HD constexpr uint32_t canonical() const { return monty_reduce(v); }

  ZKGPU_HD static constexpr BabyBear zero() { return BabyBear{0}; }
  ZKGPU_HD static constexpr BabyBear one() { return BabyBear{R_MOD_P}; }

  ZKGPU_HD constexpr BabyBear operator+(BabyBear o) const {
    uint32_t r = v + o.v;  // < 2^32 since p < 2^31
    return BabyBear{r >= P ? r - P : r};
  }
  ZKGPU_HD constexpr BabyBear operator-(BabyBear o) const {
    uint32_t r = v - o.v;
    return BabyBear{v < o.v ? r + P : r};
  }
  ZKGPU_HD constexpr BabyBear operator-() const { return BabyBear{v == 0 ? 0 : P - v}; }
  ZKGPU_HD constexpr BabyBear operator*(BabyBear o) const { return BabyBear{monty_mul(v, o.v)}; }
  ZKGPU_HD constexpr BabyBear& operator+=(BabyBear o) { return *this = *this + o; }
  ZKGPU_HD constexpr BabyBear& operator-=(BabyBear o) { return *this = *this - o; }
  ZKGPU_HD constexpr BabyBear& operator*=(BabyBear o) { return *this = *this * o; }
  ZKGPU_HD constexpr bool operator==(BabyBear o) const { return v == o.v; }
  ZKGPU_HD constexpr bool operator!=(BabyBear o) const { return v != o.v; }

  ZKGPU_HD constexpr BabyBear dbl() const { return *this + *this; }
  ZKGPU_HD constexpr BabyBear square() const { return *this * *this; }
  ZKGPU_HD constexpr BabyBear halve() const {  // x/2: (x + p)/2 when x is odd
    return BabyBear{(v & 1u) ? (v >> 1) + ((P + 1) >> 1) : v >> 1};
  }
  ZKGPU_HD constexpr BabyBear pow(uint64_t e) const {
    BabyBear base = *this, acc = one();
    while (e) {
      if (e & 1) acc *= base;
      base = base.square();
      e >>= 1;
    }
    return acc;
  }
  // x^7, the Poseidon2 S-box: 4 multiplications.
  ZKGPU_HD constexpr BabyBear pow7() const {
    BabyBear x2 = square(), x3 = x2 * *this, x6 = x3.square();
    return x6 * *this;
  }
  // Fermat inverse; the inverse of zero is zero (callers that care check is_zero first).
  ZKGPU_HD constexpr BabyBear inverse() const { return pow(P - 2); }
  ZKGPU_HD constexpr bool is_zero() const { return v == 0; }

  // Generator of the subgroup of order 2^k, k <= 27 (docs/specs/babybear.md §1; g_k = 31^((p-1)/2^k)).
  ZKGPU_HD static constexpr BabyBear two_adic_generator(unsigned k) {
    constexpr uint32_t g27 = 440564289u;
    BabyBear g = from_canonical(g27);
    for (unsigned i = k; i < TWO_ADICITY; ++i) g = g.square();
    return g;
  }
};
static_assert(sizeof(BabyBear) == 4, "BabyBear must be one u32 word");

// Canonical decode of untrusted input: rejects c >= p instead of reducing it.
ZKGPU_HD constexpr bool decode_canonical(uint32_t c, BabyBear& out) {
  if (c >= BabyBear::P) return false;
  out = BabyBear::from_canonical(c);
  return true;
}
// Serialized form (Plonky3/bincode): the Montgomery word, little-endian; reject words >= p.
ZKGPU_HD constexpr bool decode_monty(uint32_t w, BabyBear& out) {
  if (w >= BabyBear::P) return false;
  out = BabyBear::from_monty(w);
  return true;
}

}  // namespace zkgpu
