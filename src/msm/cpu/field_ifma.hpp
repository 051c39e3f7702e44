// Host-only AVX-512 IFMA arithmetic for BLS12-377 Fp: eight independent field elements at once
// ("vertical" SIMD: lane k of every register belongs to element k), for the CPU MSM's bucket
// additions. The scalar MULX/ADX multiply (field_x86.hpp) does one 6x64-bit product per ~36 MULX;
// vpmadd52luq/vpmadd52huq do eight 52x52-bit partial products per instruction, so one
// 8-lane Montgomery product (8 limbs of 52 bits: 64 + 64 product and 64 + 64 reduction IFMAs plus
// 8 for the quotient digits) costs ~33 IFMAs per field product instead of ~72 scalar multiplies.
//
// Representation (Fp8): limb i (bits [52i, 52i + 52)) of the eight elements in l[i]; R' = 2^416.
// Values are kept reduced only as far as the bounds below need, never canonical until the way out:
//  - a Montgomery product of x, y (normalised limbs, x*y < 2^790) is < x*y/R' + p < 2p;
//  - the TE mixed addition only adds/subtracts such products with at most 2p added, so every
//    multiplier input stays < 6p < 2^380;
//  - vpmadd52 reads only the low 52 bits of each limb, so every multiplier operand is normalised
//    (limbs < 2^52); a product that only feeds add/sub is left "lazy" (mul_lazy: carries not
//    propagated, limbs < 2^58), and add/sub normalise their result.
// Conversions from and to the 6x64-bit Montgomery form of field.hpp (R = 2^384) need no product
// on the way in: v = x*2^384 mod p, shifted left by 32 bits, is x*2^416 (mod p) and < 2^409,
// which the multiply accepts (2^409 * 6p / 2^416 < p). On the way out one product by 2^384 mod p
// (as a plain integer) gives x*2^384, then one conditional subtraction of p makes it canonical, so
// the results are the same bytes as the scalar path's.
//
// All functions carry a target attribute (no -m flags on the file, no ISA mismatch for the other
// inline functions a translation unit includes); callers must check ifma::AVAILABLE first.
#pragma once
#include <immintrin.h>

#include <array>
#include <cstdint>

#include "zkgpu/core/bls12_377/curve.hpp"

#define ZKGPU_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define ZKGPU_IFMA_INLINE ZKGPU_IFMA_TARGET __attribute__((always_inline)) inline

namespace zkgpu::bls12_377::ifma {

// Run-time choice: the CPU has AVX-512F + IFMA (with OS support: __builtin_cpu_supports checks
// XCR0).
inline bool detect() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}
inline const bool AVAILABLE = detect();

constexpr uint64_t MASK52 = (uint64_t{1} << 52) - 1;

// Bits [52i - shift, 52i - shift + 52) of a 6-word integer as limb i, for i = 0..7.
constexpr std::array<uint64_t, 8> to_limbs52(const BigInt<6>& v, int shift = 0) {
  std::array<uint64_t, 8> out{};
  for (int i = 0; i < 8; ++i) {
    uint64_t limb = 0;
    for (int b = 0; b < 52; ++b) {
      const int pos = 52 * i + b - shift;
      if (pos >= 0 && pos < 384 && ((v.l[pos / 64] >> (pos % 64)) & 1)) limb |= uint64_t{1} << b;
    }
    out[i] = limb;
  }
  return out;
}
constexpr BigInt<6> add6(const BigInt<6>& a, const BigInt<6>& b) {
  BigInt<6> r{};
  unsigned carry = 0;
  for (int i = 0; i < 6; ++i) {
    const uint64_t s = a.l[i] + b.l[i];
    const unsigned c1 = s < a.l[i];
    r.l[i] = s + carry;
    carry = c1 | (r.l[i] < s);
  }
  return r;
}

constexpr BigInt<6> neg6(const BigInt<6>& a) {  // 2^384 - a
  BigInt<6> r{};
  for (int i = 0; i < 6; ++i) r.l[i] = ~a.l[i];
  const BigInt<6> one{{1, 0, 0, 0, 0, 0}};
  return add6(r, one);
}

struct Consts {
  static constexpr BigInt<6> P64 = FpConfig::modulus();
  static constexpr std::array<uint64_t, 8> P = to_limbs52(P64);
  // 2p with borrowed limbs: every limb i < 7 is >= 2^58 (more than any limb of a lazy product,
  // < 2^58), the top one 2p_7 - 2^6, so x + TWO_P_PAD - y is non-negative in limbs 0..6; the top
  // limb may wrap below zero on the way, harmlessly (only limbs 0..6 are shifted), and ends right
  // when y < 2p makes the whole value non-negative.
  static constexpr std::array<uint64_t, 8> TWO_P_PAD = [] {
    std::array<uint64_t, 8> t = to_limbs52(add6(P64, P64));
    t[0] += uint64_t{1} << 58;
    for (int i = 1; i < 7; ++i) t[i] += (uint64_t{1} << 58) - (uint64_t{1} << 6);
    t[7] -= uint64_t{1} << 6;
    return t;
  }();
  static constexpr uint64_t PINV = FpConfig::INV64 & MASK52;  // -p^-1 mod 2^52
  // 2^384 mod p as a plain integer: mul(x*2^416, K_OUT) = x*2^384, the field.hpp form.
  static constexpr std::array<uint64_t, 8> K_OUT = to_limbs52(FpConfig::one_mont());
  // 2^416 mod p: mul(x, K_R416) is x reduced below 2p, same residue.
  static constexpr std::array<uint64_t, 8> K_R416 = [] {
    BigInt<6> v = FpConfig::one_mont();  // 2^384 mod p, doubled 32 times mod p
    for (int i = 0; i < 32; ++i) {
      v = add6(v, v);  // < 2p < 2^384: no carry out
      bool ge = true;  // v >= p?
      for (int k = 5; k >= 0; --k)
        if (v.l[k] != P64.l[k]) {
          ge = v.l[k] > P64.l[k];
          break;
        }
      if (ge) v = add6(v, neg6(P64));
    }
    return to_limbs52(v);
  }();
};

// Eight field elements, limb-major.
struct Fp8 {
  __m512i l[8];
};

ZKGPU_IFMA_INLINE __m512i bc(uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
// Shifts and gathers through their zero-masked forms: the plain intrinsics start from
// _mm512_undefined_epi32(), which GCC 12 reports as uninitialised in target-attribute functions.
ZKGPU_IFMA_INLINE __m512i srl(__m512i a, unsigned n) { return _mm512_maskz_srli_epi64(0xff, a, n); }
ZKGPU_IFMA_INLINE __m512i sll(__m512i a, unsigned n) { return _mm512_maskz_slli_epi64(0xff, a, n); }
ZKGPU_IFMA_INLINE __m512i sra(__m512i a, unsigned n) { return _mm512_maskz_srai_epi64(0xff, a, n); }
// Eight 64-bit words at byte offsets idx from base.
ZKGPU_IFMA_INLINE __m512i gather(__m512i idx, const void* base) {
  return _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff, idx, base, 1);
}

// Carry propagation: limbs may hold up to 64 bits, the result has limbs < 2^52 below the top one.
ZKGPU_IFMA_INLINE void normalize(Fp8& a) {
  const __m512i m = bc(MASK52);
#pragma GCC unroll 8
  for (int i = 0; i < 7; ++i) {
    a.l[i + 1] = _mm512_add_epi64(a.l[i + 1], srl(a.l[i], 52));
    a.l[i] = _mm512_and_si512(a.l[i], m);
  }
}

// a + b, normalised (no reduction: the bounds in the header comment allow it); limbs < 2^62.
ZKGPU_IFMA_INLINE Fp8 add(const Fp8& a, const Fp8& b) {
  Fp8 r;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) r.l[i] = _mm512_add_epi64(a.l[i], b.l[i]);
  normalize(r);
  return r;
}
// a - b + 2p, normalised, for a with limbs < 2^62, b < 2p with limbs < 2^58 (lazy products).
ZKGPU_IFMA_INLINE Fp8 sub(const Fp8& a, const Fp8& b) {
  Fp8 r;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) r.l[i] = _mm512_sub_epi64(_mm512_add_epi64(a.l[i], bc(Consts::TWO_P_PAD[i])), b.l[i]);
  normalize(r);
  return r;
}

// t[j] += lo(a_j * bi), t[j + 1] += hi(a_j * bi) for j < 8: one row of a * b.
ZKGPU_IFMA_INLINE void mac_row(__m512i* t, const Fp8& a, __m512i bi) {
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    t[j] = _mm512_madd52lo_epu64(t[j], a.l[j], bi);
    t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.l[j], bi);
  }
}
// One reduction row: m = t[0] * (-p^-1) mod 2^52, t += m * p (t[0] becomes 0 mod 2^52), and
// t[0]'s carry into t[1].
ZKGPU_IFMA_INLINE void reduce_row(__m512i* t) {
  const __m512i m = _mm512_madd52lo_epu64(_mm512_setzero_si512(), t[0], bc(Consts::PINV));
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    t[j] = _mm512_madd52lo_epu64(t[j], m, bc(Consts::P[j]));
    t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, bc(Consts::P[j]));
  }
  t[1] = _mm512_add_epi64(t[1], srl(t[0], 52));
}

// Montgomery product a*b/2^416 mod p (not canonical: < a*b/2^416 + p) for normalised a, b. CIOS
// with the eight accumulators in redundant form: each receives at most four 52-bit terms per row,
// 8 rows, so < 2^57 plus the carries. mul_lazy leaves them so ("lazy": limbs < 2^58, fine as
// an operand of add/sub, not of a product); mul propagates the carries.
ZKGPU_IFMA_TARGET inline Fp8 mul_lazy(const Fp8& a, const Fp8& b) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i t[9];
#pragma GCC unroll 9
  for (int j = 0; j < 9; ++j) t[j] = zero;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    mac_row(t, a, b.l[i]);
    reduce_row(t);
    // t[0] is now 0 mod 2^52 and its carry is in t[1]: drop the word.
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) t[j] = t[j + 1];
    t[8] = zero;
  }
  Fp8 r;
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) r.l[j] = t[j];
  return r;
}
// The same, normalised (limbs < 2^52): what a multiplier operand must be.
ZKGPU_IFMA_INLINE Fp8 mul(const Fp8& a, const Fp8& b) {
  Fp8 r = mul_lazy(a, b);
  normalize(r);
  return r;
}

// The 6x64-bit words of eight elements (w[k] = word k of each lane, field.hpp Montgomery form,
// canonical) to Fp8: the integer shifted left by 32 bits (see the header comment).
ZKGPU_IFMA_INLINE Fp8 from_words(const __m512i w[6]) {
  const __m512i m = bc(MASK52);
  Fp8 r;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const int s = 52 * i - 32;  // bit position in the 384-bit input
    __m512i v;
    if (s < 0) {
      v = sll(w[0], static_cast<unsigned>(-s));
    } else {
      const int k = s / 64, off = s % 64;
      v = srl(w[k], static_cast<unsigned>(off));
      if (off + 52 > 64 && k + 1 < 6) v = _mm512_or_si512(v, sll(w[k + 1], static_cast<unsigned>(64 - off)));
    }
    r.l[i] = _mm512_and_si512(v, m);
  }
  return r;
}

// Fp8 (any value < 2^390 congruent to x*2^416, lazy limbs allowed) to the canonical 6x64-bit
// words of x*2^384.
ZKGPU_IFMA_INLINE void to_words(const Fp8& a_in, __m512i w[6]) {
  Fp8 a = a_in;
  normalize(a);
  Fp8 k;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) k.l[i] = bc(Consts::K_OUT[i]);
  Fp8 x = mul(a, k);  // < a*2^377/2^416 + p < 2p
  // s = x - p with signed limbs, arithmetic carries; keep x where s is negative.
  Fp8 s;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) s.l[i] = _mm512_sub_epi64(x.l[i], bc(Consts::P[i]));
#pragma GCC unroll 8
  for (int i = 0; i < 7; ++i) {
    s.l[i + 1] = _mm512_add_epi64(s.l[i + 1], sra(s.l[i], 52));
    s.l[i] = _mm512_and_si512(s.l[i], bc(MASK52));
  }
  const __mmask8 keep_x = _mm512_cmplt_epi64_mask(s.l[7], _mm512_setzero_si512());
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) x.l[i] = _mm512_mask_blend_epi64(keep_x, s.l[i], x.l[i]);
#pragma GCC unroll 6
  for (int k2 = 0; k2 < 6; ++k2) w[k2] = _mm512_setzero_si512();
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const int pos = 52 * i, k2 = pos / 64, off = pos % 64;
    w[k2] = _mm512_or_si512(w[k2], sll(x.l[i], static_cast<unsigned>(off)));
    if (off + 52 > 64 && k2 + 1 < 6)
      w[k2 + 1] = _mm512_or_si512(w[k2 + 1], srl(x.l[i], static_cast<unsigned>(64 - off)));
  }
}

// Extended TE point (X : Y : Z : T) of eight buckets (X, Y, Z lazy, T normalised), and the mixed
// addition of field.hpp's
// te_add_precomputed (madd-2008-hwcd-3, 7 products) on eight lanes. The stored point is given as
// ymx, ypx, kt of each lane; `neg` marks lanes that add -Q: the caller swaps ymx and ypx for
// those lanes, and F, G swap here (c = T1*(-kt) turns d - c into d + c and back).
struct Te8 {
  Fp8 x, y, z, t;
};

ZKGPU_IFMA_INLINE void te_add_precomputed(Te8& p, const Fp8& ymx, const Fp8& ypx, const Fp8& kt, __mmask8 neg) {
  const Fp8 a = mul_lazy(sub(p.y, p.x), ymx);
  const Fp8 b = mul_lazy(add(p.y, p.x), ypx);
  const Fp8 c = mul_lazy(p.t, kt);
  Fp8 d;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) d.l[i] = _mm512_add_epi64(p.z.l[i], p.z.l[i]);
  const Fp8 e = sub(b, a), h = add(b, a);
  const Fp8 f0 = sub(d, c), g0 = add(d, c);
  Fp8 f, g;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    f.l[i] = _mm512_mask_blend_epi64(neg, f0.l[i], g0.l[i]);
    g.l[i] = _mm512_mask_blend_epi64(neg, g0.l[i], f0.l[i]);
  }
  p.x = mul_lazy(e, f);
  p.y = mul_lazy(g, h);
  p.z = mul_lazy(f, g);
  p.t = mul_lazy(e, h);
  normalize(p.t);  // the next addition's operand
}

// add-2008-hwcd-3 (a = -1, unified; field.hpp's te_add) on eight lanes: 9 products, k = 2d
// stored in the shifted input form.
ZKGPU_IFMA_INLINE void te_add(Te8& p, const Te8& q_in) {
  constexpr auto K = to_limbs52(BigInt<6>{{curve_consts::k().l[0], curve_consts::k().l[1], curve_consts::k().l[2],
                                           curve_consts::k().l[3], curve_consts::k().l[4], curve_consts::k().l[5]}},
                                32);
  Fp8 k;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) k.l[i] = bc(K[i]);
  Te8 q = q_in;
  normalize(p.z), normalize(p.t), normalize(q.z), normalize(q.t);  // lazy X, Y, Z; T normalised
  const Fp8 a = mul(sub(p.y, p.x), sub(q.y, q.x));
  const Fp8 b = mul(add(p.y, p.x), add(q.y, q.x));
  const Fp8 c = mul(mul(p.t, k), q.t);
  Fp8 d = mul(p.z, q.z);
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) d.l[i] = _mm512_add_epi64(d.l[i], d.l[i]);
  const Fp8 e = sub(b, a), h = add(b, a), f = sub(d, c), g = add(d, c);
  p.x = mul(e, f);
  p.y = mul(g, h);
  p.z = mul(f, g);
  p.t = mul(e, h);
}

// Plain-array entry points (for tests and callers without the target attribute): eight
// elements as field.hpp Fp values in, canonical Fp values out.
ZKGPU_IFMA_INLINE void load_lanes(const Fp* in, __m512i w[6]) {
  alignas(64) uint64_t buf[6][8];
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 6; ++j) buf[j][k] = in[k].l[j];
#pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) w[j] = _mm512_load_si512(buf[j]);
}
ZKGPU_IFMA_INLINE void store_lanes(const __m512i w[6], Fp* out) {
  alignas(64) uint64_t buf[6][8];
#pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) _mm512_store_si512(buf[j], w[j]);
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 6; ++j) out[k].l[j] = buf[j][k];
}
ZKGPU_IFMA_INLINE Fp8 load_fp8(const Fp* in) {
  __m512i w[6];
  load_lanes(in, w);
  return from_words(w);
}
ZKGPU_IFMA_INLINE void store_fp8(const Fp8& a, Fp* out) {
  __m512i w[6];
  to_words(a, w);
  store_lanes(w, out);
}

// out[k] = a[k] * b[k], k < 8 (the product of field.hpp, computed on the IFMA path).
ZKGPU_IFMA_TARGET inline void mul_lanes(const Fp* a, const Fp* b, Fp* out) {
  store_fp8(mul(load_fp8(a), load_fp8(b)), out);
}
// x (any normalised value < 2^409, e.g. from_words' output) to the same residue below 2p: the
// product by 2^416 mod p.
ZKGPU_IFMA_INLINE Fp8 reduce(const Fp8& a) {
  Fp8 k;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) k.l[i] = bc(Consts::K_R416[i]);
  return mul(a, k);
}
// out[k] = a[k] + b[k] and a[k] - b[k] through the IFMA representation (operands first brought
// below 2p, as the MSM's are).
ZKGPU_IFMA_TARGET inline void add_sub_lanes(const Fp* a, const Fp* b, Fp* sum, Fp* diff) {
  const Fp8 x = reduce(load_fp8(a)), y = reduce(load_fp8(b));
  store_fp8(add(x, y), sum);
  store_fp8(sub(x, y), diff);
}

// A chain that keeps the values in the IFMA form between steps (as the bucket sums are):
// x = a (brought below 2p), then `rounds` times x = (x - x*b) * b + x with b in the shifted input
// form of the stored points; out = x.
ZKGPU_IFMA_TARGET inline void chain_lanes(const Fp* a, const Fp* b, int rounds, Fp* out) {
  Fp8 x = reduce(load_fp8(a));
  const Fp8 y = load_fp8(b);
  for (int r = 0; r < rounds; ++r) x = add(mul(sub(x, mul(x, y)), y), x);
  store_fp8(x, out);
}

}  // namespace zkgpu::bls12_377::ifma
