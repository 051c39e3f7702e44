// A 31-bit prime field in Montgomery form (R = 2^32), bit-compatible with Plonky3's
// MontyField31<FP> (monty-31/src/{monty_31.rs,utils.rs}): one implementation for every such
// field, which a parameter struct names (babybear.hpp, koalabear.hpp). The stored word is x*R mod
// p and always < p, so equal words are equal elements and a buffer of elements is a buffer of
// Plonky3 words.
//
// Params: P (< 2^31), MU = p^-1 mod 2^32, R_MOD_P, R2_MOD_P, TWO_ADICITY, GENERATOR (canonical
// multiplicative generator), TWO_ADIC_GENERATOR (canonical, of order 2^TWO_ADICITY) and
// SBOX_DEGREE (the Poseidon2 S-box x^d: the smallest d > 1 prime to p - 1).
#pragma once
#include "zkgpu/core/common.hpp"

namespace zkgpu {

template <class Params>
struct MontyField31 {
  using Parameters = Params;
  static constexpr uint32_t P = Params::P;
  static constexpr uint32_t MU = Params::MU;
  static constexpr uint32_t R_MOD_P = Params::R_MOD_P;
  static constexpr uint32_t R2_MOD_P = Params::R2_MOD_P;
  static constexpr unsigned TWO_ADICITY = Params::TWO_ADICITY;
  static constexpr uint32_t GENERATOR = Params::GENERATOR;
  static constexpr unsigned SBOX_DEGREE = Params::SBOX_DEGREE;
  static_assert(P < (1u << 31), "a + b must fit a u32");
  static_assert(static_cast<uint32_t>(P * MU) == 1u, "MU is p^-1 mod 2^32");
  static_assert(SBOX_DEGREE == 3 || SBOX_DEGREE == 7, "the S-boxes of Plonky3's 31-bit fields");

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
    // 32-bit-only form (docs/specs/babybear.md §1.1): the GPU has no fast 64-bit multiply.
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
  ZKGPU_HD static constexpr MontyField31 mul_add2(MontyField31 a, MontyField31 b, MontyField31 c, MontyField31 d) {
    return MontyField31{monty_reduce(static_cast<uint64_t>(a.v) * b.v + static_cast<uint64_t>(c.v) * d.v)};
  }

  ZKGPU_HD static constexpr MontyField31 from_monty(uint32_t w) { return MontyField31{w}; }
  // Precondition: c < p (use decode_canonical for untrusted values).
  ZKGPU_HD static constexpr MontyField31 from_canonical(uint32_t c) { return MontyField31{monty_mul(c, R2_MOD_P)}; }
  // Any u64, reduced mod p first.
  ZKGPU_HD static constexpr MontyField31 from_u64(uint64_t x) { return from_canonical(static_cast<uint32_t>(x % P)); }
  ZKGPU_HD constexpr uint32_t canonical() const { return monty_reduce(v); }

  ZKGPU_HD static constexpr MontyField31 zero() { return MontyField31{0}; }
  ZKGPU_HD static constexpr MontyField31 one() { return MontyField31{R_MOD_P}; }

  ZKGPU_HD constexpr MontyField31 operator+(MontyField31 o) const {
    uint32_t r = v + o.v;  // < 2^32 since p < 2^31
    return MontyField31{r >= P ? r - P : r};
  }
  ZKGPU_HD constexpr MontyField31 operator-(MontyField31 o) const {
    uint32_t r = v - o.v;
    return MontyField31{v < o.v ? r + P : r};
  }
  ZKGPU_HD constexpr MontyField31 operator-() const { return MontyField31{v == 0 ? 0 : P - v}; }
  ZKGPU_HD constexpr MontyField31 operator*(MontyField31 o) const { return MontyField31{monty_mul(v, o.v)}; }
  ZKGPU_HD constexpr MontyField31& operator+=(MontyField31 o) { return *this = *this + o; }
  ZKGPU_HD constexpr MontyField31& operator-=(MontyField31 o) { return *this = *this - o; }
  ZKGPU_HD constexpr MontyField31& operator*=(MontyField31 o) { return *this = *this * o; }
  ZKGPU_HD constexpr bool operator==(MontyField31 o) const { return v == o.v; }
  ZKGPU_HD constexpr bool operator!=(MontyField31 o) const { return v != o.v; }

  ZKGPU_HD constexpr MontyField31 dbl() const { return *this + *this; }
  ZKGPU_HD constexpr MontyField31 square() const { return *this * *this; }
  ZKGPU_HD constexpr MontyField31 halve() const {  // x/2: (x + p)/2 when x is odd
    return MontyField31{(v & 1u) ? (v >> 1) + ((P + 1) >> 1) : v >> 1};
  }
  ZKGPU_HD constexpr MontyField31 pow(uint64_t e) const {
    MontyField31 base = *this, acc = one();
    while (e) {
      if (e & 1) acc *= base;
      base = base.square();
      e >>= 1;
    }
    return acc;
  }
  // x^7 (BabyBear's Poseidon2 S-box): 4 multiplications.
  ZKGPU_HD constexpr MontyField31 pow7() const {
    MontyField31 x2 = square(), x3 = x2 * *this, x6 = x3.square();
    return x6 * *this;
  }
  // x^3 (KoalaBear's): 2 multiplications.
  ZKGPU_HD constexpr MontyField31 pow3() const { return square() * *this; }
  // The field's Poseidon2 S-box, x^SBOX_DEGREE.
  ZKGPU_HD constexpr MontyField31 sbox() const {
    if constexpr (SBOX_DEGREE == 7)
      return pow7();
    else
      return pow3();
  }
  // Fermat inverse; the inverse of zero is zero (callers that care check is_zero first).
  ZKGPU_HD constexpr MontyField31 inverse() const { return pow(P - 2); }
  ZKGPU_HD constexpr bool is_zero() const { return v == 0; }

  // Generator of the subgroup of order 2^k, k <= TWO_ADICITY: Plonky3's two_adic_generator(k),
  // the generator of order 2^TWO_ADICITY squared TWO_ADICITY - k times.
  ZKGPU_HD static constexpr MontyField31 two_adic_generator(unsigned k) {
    MontyField31 g = from_canonical(Params::TWO_ADIC_GENERATOR);
    for (unsigned i = k; i < TWO_ADICITY; ++i) g = g.square();
    return g;
  }
};

// Canonical decode of untrusted input: rejects c >= p instead of reducing it.
template <class Params>
ZKGPU_HD constexpr bool decode_canonical(uint32_t c, MontyField31<Params>& out) {
  if (c >= MontyField31<Params>::P) return false;
  out = MontyField31<Params>::from_canonical(c);
  return true;
}
// Serialized form (Plonky3/bincode): the Montgomery word, little-endian; reject words >= p.
template <class Params>
ZKGPU_HD constexpr bool decode_monty(uint32_t w, MontyField31<Params>& out) {
  if (w >= MontyField31<Params>::P) return false;
  out = MontyField31<Params>::from_monty(w);
  return true;
}

}  // namespace zkgpu
