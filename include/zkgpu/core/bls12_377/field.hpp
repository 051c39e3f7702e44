// BLS12-377 base field Fp (377 bits) and scalar field Fr (253 bits) in Montgomery form, one source
// for g++ and nvcc (docs/specs/msm.md §1.1). An element is N little-endian u64 limbs holding
// x*R mod m (R = 2^(64N)), always < m, so host and device buffers have the same bytes.
//
// Multiplication is CIOS Montgomery. Both moduli have a top word < 2^63 - 1 (and a top u32 word
// < 2^31 - 1), so the "no-carry" CIOS variant (gnark; EdMSM, TCHES 2023) applies: the running
// value never needs an extra carry word. The CPU runs it on u64 limbs with 128-bit products; the
// GPU, which has no fast 64-bit multiply, runs it on the same bytes viewed as 2N u32 limbs with
// PTX mad.lo.cc / madc.hi.cc carry chains (mont_mul_u32_chain, whose carry flag is emulated on the
// CPU so the tests run the same sequence). mont_mul_u32 is a plain-C form of the 32-bit algorithm.
#pragma once
#include "zkgpu/core/common.hpp"
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
// Host-only MULX/ADX multiply and branch-free add/sub for the 6-limb Fp (the portable forms below
// stay the reference and the fallback).
#include <type_traits>

#include "zkgpu/core/bls12_377/x86/field_x86.hpp"
#define ZKGPU_BLS_X86 1
#else
#define ZKGPU_BLS_X86 0
#endif

namespace zkgpu::bls12_377 {

// Constants are returned by functions, not static arrays: nvcc cannot read a host static array
// from device code.

// Little-endian unsigned integer of N u64 limbs (canonical values, scalars, exponents).
template <int N>
struct BigInt {
  uint64_t l[N];
  ZKGPU_HD constexpr bool is_zero() const {
    uint64_t acc = 0;
    for (int i = 0; i < N; ++i) acc |= l[i];
    return acc == 0;
  }
  ZKGPU_HD constexpr bool bit(unsigned i) const { return (l[i / 64] >> (i % 64)) & 1; }
  ZKGPU_HD constexpr bool operator==(const BigInt& o) const {
    for (int i = 0; i < N; ++i)
      if (l[i] != o.l[i]) return false;
    return true;
  }
  // Bits [pos, pos + width) as an integer, width <= 32 (window extraction for Pippenger).
  ZKGPU_HD constexpr uint32_t bits(unsigned pos, unsigned width) const {
    unsigned w = pos / 64, b = pos % 64;
    if (w >= static_cast<unsigned>(N)) return 0;
    uint64_t v = l[w] >> b;
    if (b + width > 64 && w + 1 < static_cast<unsigned>(N)) v |= l[w + 1] << (64 - b);
    return static_cast<uint32_t>(v & ((uint64_t{1} << width) - 1));
  }
};

struct FpConfig {
  static constexpr int N = 6;
  ZKGPU_HD static constexpr BigInt<6> modulus() {
    return {{0x8508c00000000001ull, 0x170b5d4430000000ull, 0x1ef3622fba094800ull, 0x1a22d9f300f5138full,
             0xc63b05c06ca1493bull, 0x01ae3a4617c510eaull}};
  }
  ZKGPU_HD static constexpr BigInt<6> one_mont() {
    return {{0x02cdffffffffff68ull, 0x51409f837fffffb1ull, 0x9f7db3a98a7d3ff2ull, 0x7b4e97b76e7c6305ull,
             0x4cf495bf803c84e8ull, 0x008d6661e2fdf49aull}};
  }  // R mod p
  ZKGPU_HD static constexpr BigInt<6> r2() {
    return {{0xb786686c9400cd22ull, 0x0329fcaab00431b1ull, 0x22a5f11162d6b46dull, 0xbfdf7d03827dc3acull,
             0x837e92f041790bf9ull, 0x006dfccb1e914b88ull}};
  }
  static constexpr uint64_t INV64 = 0x8508bfffffffffffull;  // -p^-1 mod 2^64
  static constexpr uint32_t INV32 = 0xffffffffu;            // -p^-1 mod 2^32
  static constexpr unsigned BITS = 377;
};

struct FrConfig {
  static constexpr int N = 4;
  ZKGPU_HD static constexpr BigInt<4> modulus() {
    return {{0x0a11800000000001ull, 0x59aa76fed0000001ull, 0x60b44d1e5c37b001ull, 0x12ab655e9a2ca556ull}};
  }
  ZKGPU_HD static constexpr BigInt<4> one_mont() {
    return {{0x7d1c7ffffffffff3ull, 0x7257f50f6ffffff2ull, 0x16d81575512c0feeull, 0x0d4bda322bbb9a9dull}};
  }
  ZKGPU_HD static constexpr BigInt<4> r2() {
    return {{0x25d577bab861857bull, 0xcc2c27b58860591full, 0xa7cc008fe5dc8593ull, 0x011fdae7eff1c939ull}};
  }
  static constexpr uint64_t INV64 = 0x0a117fffffffffffull;
  static constexpr uint32_t INV32 = 0xffffffffu;
  static constexpr unsigned BITS = 253;
};

namespace limbs {
// a >= b
template <int N>
ZKGPU_HD constexpr bool geq(const uint64_t* a, const uint64_t* b) {
  for (int i = N - 1; i >= 0; --i) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}
// r = a - b, returns the borrow.
template <int N>
ZKGPU_HD constexpr uint64_t sub(uint64_t* r, const uint64_t* a, const uint64_t* b) {
  uint64_t borrow = 0;
  ZKGPU_UNROLL
  for (int i = 0; i < N; ++i) {
    uint64_t d = a[i] - b[i];
    uint64_t b1 = a[i] < b[i];
    uint64_t d2 = d - borrow;
    uint64_t b2 = d < borrow;
    r[i] = d2;
    borrow = b1 | b2;
  }
  return borrow;
}
// r = a + b, returns the carry.
template <int N>
ZKGPU_HD constexpr uint64_t add(uint64_t* r, const uint64_t* a, const uint64_t* b) {
  uint64_t carry = 0;
  ZKGPU_UNROLL
  for (int i = 0; i < N; ++i) {
    uint64_t s = a[i] + b[i];
    uint64_t c1 = s < a[i];
    uint64_t s2 = s + carry;
    uint64_t c2 = s2 < s;
    r[i] = s2;
    carry = c1 | c2;
  }
  return carry;
}
}  // namespace limbs

#if defined(__CUDACC__)
// 2^32 - 1 where ptxas cannot fold it (MontField::mont_quotient). One copy per translation unit.
static __constant__ uint32_t kDeviceAllOnes = 0xffffffffu;
#endif

// 32-bit multiply-add with a carry flag: PTX instructions on the GPU (asm volatile keeps the
// order, since the flag is invisible to the compiler), an emulated flag on the CPU. Names follow
// PTX: mad.lo.cc = c + lo(a*b) setting CF; madc.* also adds CF in; addc = a + b + CF.
struct CarryChain {
#if defined(__CUDA_ARCH__)
  __device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  __device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  __device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  __device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  __device__ __forceinline__ uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  __device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  __device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  __device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  __device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  __device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  __device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
#else
  uint32_t cf = 0;
  uint32_t set(uint64_t v) {
    cf = static_cast<uint32_t>(v >> 32);
    return static_cast<uint32_t>(v);
  }
  uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return set(uint64_t{a * b} + c); }
  uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return set(uint64_t{a * b} + c + cf); }
  uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return set(((static_cast<uint64_t>(a) * b) >> 32) + c); }
  uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    return set(((static_cast<uint64_t>(a) * b) >> 32) + c + cf);
  }
  uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {  // no carry out
    return static_cast<uint32_t>(((static_cast<uint64_t>(a) * b) >> 32) + c + cf);
  }
  uint32_t addc(uint32_t a, uint32_t b) { return static_cast<uint32_t>(uint64_t{a} + b + cf); }
  uint32_t addc_cc(uint32_t a, uint32_t b) { return set(uint64_t{a} + b + cf); }
  uint32_t add_cc(uint32_t a, uint32_t b) { return set(uint64_t{a} + b); }
  // Subtractions: CF is the borrow.
  uint32_t sub_cc(uint32_t a, uint32_t b) {
    cf = a < b;
    return a - b;
  }
  uint32_t subc_cc(uint32_t a, uint32_t b) {
    uint64_t d = uint64_t{a} - b - cf;
    cf = static_cast<uint32_t>(d >> 63);
    return static_cast<uint32_t>(d);
  }
  uint32_t subc(uint32_t a, uint32_t b) { return a - b - cf; }
#endif
};

template <class Cfg>
struct MontField {
  static constexpr int N = Cfg::N;
  using Repr = BigInt<N>;
  uint64_t l[N];  // Montgomery form, < modulus

  ZKGPU_HD static constexpr MontField zero() {
    MontField r{};
    return r;
  }
  ZKGPU_HD static constexpr MontField one() {
    MontField r{};
    const auto one = Cfg::one_mont();
    for (int i = 0; i < N; ++i) r.l[i] = one.l[i];
    return r;
  }
  ZKGPU_HD static constexpr MontField from_raw(const uint64_t* w) {
    MontField r{};
    for (int i = 0; i < N; ++i) r.l[i] = w[i];
    return r;
  }
  // Any c < 2^(64N): c*R^2*R^-1 = c*R mod m, since c*R2 < R*m keeps CIOS in range. So values
  // above the modulus (a 256-bit scalar for Fr) are reduced too.
  ZKGPU_HD static constexpr MontField from_canonical(const Repr& c) {
    const auto r2_limbs = Cfg::r2();
    MontField a = from_raw(c.l), r2 = from_raw(r2_limbs.l);
    return a * r2;
  }
  ZKGPU_HD static constexpr MontField from_u64(uint64_t v) {
    Repr c{};
    c.l[0] = v;
    return from_canonical(c);
  }
  ZKGPU_HD constexpr Repr canonical() const {
    MontField unit{};
    unit.l[0] = 1;
    MontField c = *this * unit;
    Repr r{};
    for (int i = 0; i < N; ++i) r.l[i] = c.l[i];
    return r;
  }
  ZKGPU_HD static constexpr bool is_canonical(const Repr& c) {
    const auto m = Cfg::modulus();
    return !limbs::geq<N>(c.l, m.l);
  }

  ZKGPU_HD constexpr bool is_zero() const {
    uint64_t acc = 0;
    for (int i = 0; i < N; ++i) acc |= l[i];
    return acc == 0;
  }
  ZKGPU_HD constexpr bool operator==(const MontField& o) const {
    uint64_t acc = 0;
    for (int i = 0; i < N; ++i) acc |= l[i] ^ o.l[i];
    return acc == 0;
  }
  ZKGPU_HD constexpr bool operator!=(const MontField& o) const { return !(*this == o); }

  // Modular addition and subtraction as 32-bit carry chains with a branch-free final select (the
  // GPU form; CarryChain emulates the flag on the CPU, where the tests compare it with the u64 form).
  ZKGPU_HD static void add_u32_chain(uint64_t* out, const uint64_t* a64, const uint64_t* b64) {
    constexpr int M = 2 * N;
    const auto mod = Cfg::modulus();
    uint32_t r[M], d[M];
    CarryChain cc;
    ZKGPU_UNROLL
    for (int j = 0; j < M; ++j) {
      const uint32_t a = static_cast<uint32_t>(a64[j / 2] >> (32 * (j % 2)));
      const uint32_t b = static_cast<uint32_t>(b64[j / 2] >> (32 * (j % 2)));
      r[j] = j == 0 ? cc.add_cc(a, b) : cc.addc_cc(a, b);  // no carry out: 2m < 2^(32M)
    }
    ZKGPU_UNROLL
    for (int j = 0; j < M; ++j) {
      const uint32_t p = static_cast<uint32_t>(mod.l[j / 2] >> (32 * (j % 2)));
      d[j] = j == 0 ? cc.sub_cc(r[j], p) : cc.subc_cc(r[j], p);
    }
    const uint32_t keep = cc.subc(0, 0);  // all ones when r < m (the subtraction borrowed)
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) {
      const uint32_t lo = (r[2 * i] & keep) | (d[2 * i] & ~keep), hi = (r[2 * i + 1] & keep) | (d[2 * i + 1] & ~keep);
      out[i] = lo | (static_cast<uint64_t>(hi) << 32);
    }
  }
  ZKGPU_HD static void sub_u32_chain(uint64_t* out, const uint64_t* a64, const uint64_t* b64) {
    constexpr int M = 2 * N;
    const auto mod = Cfg::modulus();
    uint32_t r[M];
    CarryChain cc;
    ZKGPU_UNROLL
    for (int j = 0; j < M; ++j) {
      const uint32_t a = static_cast<uint32_t>(a64[j / 2] >> (32 * (j % 2)));
      const uint32_t b = static_cast<uint32_t>(b64[j / 2] >> (32 * (j % 2)));
      r[j] = j == 0 ? cc.sub_cc(a, b) : cc.subc_cc(a, b);
    }
    const uint32_t borrow = cc.subc(0, 0);  // all ones when a < b: add m back
    ZKGPU_UNROLL
    for (int j = 0; j < M; ++j) {
      const uint32_t p = static_cast<uint32_t>(mod.l[j / 2] >> (32 * (j % 2))) & borrow;
      r[j] = j == 0 ? cc.add_cc(r[j], p) : cc.addc_cc(r[j], p);
    }
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) out[i] = r[2 * i] | (static_cast<uint64_t>(r[2 * i + 1]) << 32);
  }

  ZKGPU_HD constexpr MontField operator+(const MontField& o) const {
    MontField r{};
#if defined(__CUDA_ARCH__)
    add_u32_chain(r.l, l, o.l);
#else
#if ZKGPU_BLS_X86
    if constexpr (N == 6) {
      if (!std::is_constant_evaluated()) {
        x86::add6<Cfg>(r.l, l, o.l);
        return r;
      }
    }
#endif
    add_u64(r.l, l, o.l);
#endif
    return r;
  }
  ZKGPU_HD constexpr MontField operator-(const MontField& o) const {
    MontField r{};
#if defined(__CUDA_ARCH__)
    sub_u32_chain(r.l, l, o.l);
#else
#if ZKGPU_BLS_X86
    if constexpr (N == 6) {
      if (!std::is_constant_evaluated()) {
        x86::sub6<Cfg>(r.l, l, o.l);
        return r;
      }
    }
#endif
    sub_u64(r.l, l, o.l);
#endif
    return r;
  }
  // The portable CPU forms of + and - (the reference for x86::add6 / sub6 in the tests).
  ZKGPU_HD static constexpr void add_u64(uint64_t* out, const uint64_t* a, const uint64_t* b) {
    limbs::add<N>(out, a, b);  // no carry out: 2m < 2^(64N)
    uint64_t t[N];
    const auto m = Cfg::modulus();
    if (!limbs::sub<N>(t, out, m.l)) {
      for (int i = 0; i < N; ++i) out[i] = t[i];
    }
  }
  ZKGPU_HD static constexpr void sub_u64(uint64_t* out, const uint64_t* a, const uint64_t* b) {
    if (limbs::sub<N>(out, a, b)) {
      const auto m = Cfg::modulus();
      limbs::add<N>(out, out, m.l);
    }
  }
  ZKGPU_HD constexpr MontField operator-() const { return zero() - *this; }
  ZKGPU_HD constexpr MontField dbl() const { return *this + *this; }
  ZKGPU_HD constexpr MontField& operator+=(const MontField& o) { return *this = *this + o; }
  ZKGPU_HD constexpr MontField& operator-=(const MontField& o) { return *this = *this - o; }
  ZKGPU_HD constexpr MontField& operator*=(const MontField& o) { return *this = *this * o; }

  // Final step shared by every CIOS form: t < 2m -> t mod m.
  ZKGPU_HD static constexpr void reduce_once(uint64_t* t) {
    uint64_t s[N];
    const auto m = Cfg::modulus();
    if (!limbs::sub<N>(s, t, m.l)) {
      for (int i = 0; i < N; ++i) t[i] = s[i];
    }
  }

#if !ZKGPU_DEVICE_CODE || !defined(__CUDA_ARCH__)
  // 64-bit limbs, 128-bit products (the CPU form).
  ZKGPU_HD static constexpr void mont_mul_u64(uint64_t* out, const uint64_t* a, const uint64_t* b) {
    using u128 = unsigned __int128;
    const auto mod = Cfg::modulus();
    uint64_t t[N] = {};
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) {
      u128 acc = 0;
      uint64_t c = 0;
      ZKGPU_UNROLL
      for (int j = 0; j < N; ++j) {
        acc = static_cast<u128>(a[j]) * b[i] + t[j] + c;
        t[j] = static_cast<uint64_t>(acc);
        c = static_cast<uint64_t>(acc >> 64);
      }
      uint64_t top = c;
      uint64_t m = t[0] * Cfg::INV64;
      acc = static_cast<u128>(m) * mod.l[0] + t[0];
      c = static_cast<uint64_t>(acc >> 64);
      ZKGPU_UNROLL
      for (int j = 1; j < N; ++j) {
        acc = static_cast<u128>(m) * mod.l[j] + t[j] + c;
        t[j - 1] = static_cast<uint64_t>(acc);
        c = static_cast<uint64_t>(acc >> 64);
      }
      t[N - 1] = top + c;  // no-carry CIOS: cannot overflow (top modulus word < 2^63 - 1)
    }
    reduce_once(t);
    for (int i = 0; i < N; ++i) out[i] = t[i];
  }
#endif

  // 32-bit limbs with 64-bit products: the GPU algorithm in portable C++ (tested on the CPU).
  ZKGPU_HD static constexpr void mont_mul_u32(uint64_t* out, const uint64_t* a64, const uint64_t* b64) {
    constexpr int M = 2 * N;
    const auto mod = Cfg::modulus();
    uint32_t a[M] = {}, b[M] = {}, p[M] = {}, t[M] = {};
    for (int i = 0; i < N; ++i) {
      a[2 * i] = static_cast<uint32_t>(a64[i]);
      a[2 * i + 1] = static_cast<uint32_t>(a64[i] >> 32);
      b[2 * i] = static_cast<uint32_t>(b64[i]);
      b[2 * i + 1] = static_cast<uint32_t>(b64[i] >> 32);
      p[2 * i] = static_cast<uint32_t>(mod.l[i]);
      p[2 * i + 1] = static_cast<uint32_t>(mod.l[i] >> 32);
    }
    ZKGPU_UNROLL
    for (int i = 0; i < M; ++i) {
      uint64_t c = 0;
      ZKGPU_UNROLL
      for (int j = 0; j < M; ++j) {
        uint64_t acc = static_cast<uint64_t>(a[j]) * b[i] + t[j] + c;
        t[j] = static_cast<uint32_t>(acc);
        c = acc >> 32;
      }
      uint32_t top = static_cast<uint32_t>(c);
      uint32_t m = t[0] * Cfg::INV32;
      uint64_t acc = static_cast<uint64_t>(m) * p[0] + t[0];
      c = acc >> 32;
      ZKGPU_UNROLL
      for (int j = 1; j < M; ++j) {
        acc = static_cast<uint64_t>(m) * p[j] + t[j] + c;
        t[j - 1] = static_cast<uint32_t>(acc);
        c = acc >> 32;
      }
      t[M - 1] = top + static_cast<uint32_t>(c);
    }
    for (int i = 0; i < N; ++i) out[i] = t[2 * i] | (static_cast<uint64_t>(t[2 * i + 1]) << 32);
    reduce_once(out);
  }

  // The 32-bit CIOS with explicit carry chains (mad.lo.cc / madc.hi.cc ... on the GPU): per outer
  // step the low halves of a*b[i] go into t[j] and the high halves into t[j+1], each as one carry
  // chain, then the same for m*p, then a one-word shift. CarryChain emulates the PTX carry flag on
  // the CPU, so the tests run this exact instruction sequence against mont_mul_u64.
  ZKGPU_HD static void mont_mul_u32_chain(uint64_t* out, const uint64_t* a64, const uint64_t* b64) {
    constexpr int M = 2 * N;
    const auto mod = Cfg::modulus();
    uint32_t a[M], b[M], p[M], t[M + 2];
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) {
      a[2 * i] = static_cast<uint32_t>(a64[i]);
      a[2 * i + 1] = static_cast<uint32_t>(a64[i] >> 32);
      b[2 * i] = static_cast<uint32_t>(b64[i]);
      b[2 * i + 1] = static_cast<uint32_t>(b64[i] >> 32);
      p[2 * i] = static_cast<uint32_t>(mod.l[i]);
      p[2 * i + 1] = static_cast<uint32_t>(mod.l[i] >> 32);
    }
    ZKGPU_UNROLL
    for (int j = 0; j < M + 2; ++j) t[j] = 0;
    CarryChain cc;
    ZKGPU_UNROLL
    for (int i = 0; i < M; ++i) {
      const uint32_t bi = b[i];
      t[0] = cc.mad_lo_cc(a[0], bi, t[0]);
      ZKGPU_UNROLL
      for (int j = 1; j < M; ++j) t[j] = cc.madc_lo_cc(a[j], bi, t[j]);
      t[M] = cc.addc(t[M], 0);
      t[1] = cc.mad_hi_cc(a[0], bi, t[1]);
      ZKGPU_UNROLL
      for (int j = 1; j < M; ++j) t[j + 1] = cc.madc_hi_cc(a[j], bi, t[j + 1]);
      t[M + 1] = cc.addc(t[M + 1], 0);
      // t += m*p with m chosen so that the low word becomes 0.
      const uint32_t m = t[0] * Cfg::INV32;
      t[0] = cc.mad_lo_cc(p[0], m, t[0]);
      ZKGPU_UNROLL
      for (int j = 1; j < M; ++j) t[j] = cc.madc_lo_cc(p[j], m, t[j]);
      t[M] = cc.addc_cc(t[M], 0);
      t[M + 1] = cc.addc(t[M + 1], 0);
      t[1] = cc.mad_hi_cc(p[0], m, t[1]);
      ZKGPU_UNROLL
      for (int j = 1; j < M; ++j) t[j + 1] = cc.madc_hi_cc(p[j], m, t[j + 1]);
      t[M + 1] = cc.addc(t[M + 1], 0);
      ZKGPU_UNROLL
      for (int j = 0; j < M + 1; ++j) t[j] = t[j + 1];
      t[M + 1] = 0;
    }
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) out[i] = t[2 * i] | (static_cast<uint64_t>(t[2 * i + 1]) << 32);
    reduce_once(out);
  }

  // The GPU multiplication: the same 32-bit CIOS with the running value split by the parity of the
  // a-limb (sppark's mont_t layout). even[] takes a[j]*bi for even j (low half at word j, high half
  // at j+1) and odd[] the odd j (words j..j+1, stored one word down), so each a[j]*bi is one
  // mad.lo.cc / madc.hi.cc pair on two fresh accumulator words in a single carry chain, which ptxas
  // fuses into one 64-bit IMAD.WIDE with carry in and out (the form above needs two chains per
  // product and about four SASS instructions per 32x32 product). Each step adds a*bi and mi*p, and
  // the one-word shift is a role swap: the odd words become the even ones of the next step, and the
  // old even words (low word now zero) become its odd ones, shifted down one word during the next
  // a*bi chain. No carry leaves the top word: every intermediate value is below 2^32 * 2m + 2m, and
  // 2m < 2^(32M - 1) (the no-carry condition above).
  ZKGPU_HD static void mont_mul_u32_evenodd(uint64_t* out, const uint64_t* a64, const uint64_t* b64) {
    constexpr int M = 2 * N;
    const auto mod = Cfg::modulus();
    uint32_t a[M], b[M], p[M], even[M], odd[M];
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) {
      a[2 * i] = static_cast<uint32_t>(a64[i]);
      a[2 * i + 1] = static_cast<uint32_t>(a64[i] >> 32);
      b[2 * i] = static_cast<uint32_t>(b64[i]);
      b[2 * i + 1] = static_cast<uint32_t>(b64[i] >> 32);
      p[2 * i] = static_cast<uint32_t>(mod.l[i]);
      p[2 * i + 1] = static_cast<uint32_t>(mod.l[i] >> 32);
    }
    CarryChain cc;
    ZKGPU_UNROLL
    for (int i = 0; i < M; i += 2) {
      evenodd_step(cc, even, odd, a, p, b[i], i == 0);
      evenodd_step(cc, odd, even, a, p, b[i + 1], false);
    }
    // The value is even[0..M) + odd[1..M) (odd[1] at word 0): one carry chain, then t < 2m -> t mod m.
    even[0] = cc.add_cc(even[0], odd[1]);
    ZKGPU_UNROLL
    for (int j = 1; j < M - 1; ++j) even[j] = cc.addc_cc(even[j], odd[j + 1]);
    even[M - 1] = cc.addc(even[M - 1], 0);
    uint32_t d[M];
    d[0] = cc.sub_cc(even[0], p[0]);
    ZKGPU_UNROLL
    for (int j = 1; j < M; ++j) d[j] = cc.subc_cc(even[j], p[j]);
    const uint32_t keep = cc.subc(0, 0);  // all ones when t < m (the subtraction borrowed)
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) {
      const uint32_t lo = (even[2 * i] & keep) | (d[2 * i] & ~keep);
      const uint32_t hi = (even[2 * i + 1] & keep) | (d[2 * i + 1] & ~keep);
      out[i] = lo | (static_cast<uint64_t>(hi) << 32);
    }
  }
  // One CIOS step of mont_mul_u32_evenodd: e holds words 0..M-1 and o (one word down, o[k] at word
  // k-1) the rest of the running value; afterwards e[0] is zero and the value divided by 2^32 is
  // e[1..M) (at words 0..M-2) plus o[0..M) (at words 0..M-1), so the caller swaps the roles.
  ZKGPU_HD static void evenodd_step(CarryChain& cc, uint32_t* e, uint32_t* o, const uint32_t* a, const uint32_t* p,
                                    uint32_t bi, bool first) {
    constexpr int M = 2 * N;
    if (first) {  // the running value is zero: plain products, no carries
      ZKGPU_UNROLL
      for (int j = 0; j < M; j += 2) {
        e[j] = a[j] * bi;
        e[j + 1] = mul_hi(a[j], bi);
        o[j] = a[j + 1] * bi;
        o[j + 1] = mul_hi(a[j + 1], bi);
      }
    } else {
      // Word 0 of the value is e[0] + o[1]; its carry starts the odd chain, which adds a[odd]*bi
      // while moving o down one word.
      e[0] = cc.add_cc(e[0], o[1]);
      ZKGPU_UNROLL
      for (int j = 0; j < M - 2; j += 2) {
        o[j] = cc.madc_lo_cc(a[j + 1], bi, o[j + 2]);
        o[j + 1] = cc.madc_hi_cc(a[j + 1], bi, o[j + 3]);
      }
      o[M - 2] = cc.madc_lo_cc(a[M - 1], bi, 0);
      o[M - 1] = cc.madc_hi(a[M - 1], bi, 0);
      e[0] = cc.mad_lo_cc(a[0], bi, e[0]);
      e[1] = cc.madc_hi_cc(a[0], bi, e[1]);
      ZKGPU_UNROLL
      for (int j = 2; j < M; j += 2) {
        e[j] = cc.madc_lo_cc(a[j], bi, e[j]);
        e[j + 1] = cc.madc_hi_cc(a[j], bi, e[j + 1]);
      }
      o[M - 1] = cc.addc(o[M - 1], 0);  // the even chain's carry lands on word M (o[M-1])
    }
    // += mi*p with mi chosen so that word 0 becomes zero. The odd chain's carry out of word M is
    // zero (the value stays below 2^(32(M+1))); the even chain's lands on word M.
    const uint32_t mi = mont_quotient(e[0]);
    o[0] = cc.mad_lo_cc(p[1], mi, o[0]);
    o[1] = cc.madc_hi_cc(p[1], mi, o[1]);
    ZKGPU_UNROLL
    for (int j = 2; j < M; j += 2) {
      o[j] = cc.madc_lo_cc(p[j + 1], mi, o[j]);
      o[j + 1] = cc.madc_hi_cc(p[j + 1], mi, o[j + 1]);
    }
    if constexpr (P0_IS_ONE) {  // mi*p[0] = mi: no product (e[0] becomes zero, carrying iff it was not)
      e[0] = cc.add_cc(e[0], mi);
      e[1] = cc.addc_cc(e[1], 0);
    } else {
      e[0] = cc.mad_lo_cc(p[0], mi, e[0]);
      e[1] = cc.madc_hi_cc(p[0], mi, e[1]);
    }
    ZKGPU_UNROLL
    for (int j = 2; j < M; j += 2) {
      e[j] = cc.madc_lo_cc(p[j], mi, e[j]);
      e[j + 1] = cc.madc_hi_cc(p[j], mi, e[j + 1]);
    }
    o[M - 1] = cc.addc(o[M - 1], 0);
  }
  // Both moduli are 1 mod 2^46: the lowest u32 word of p is 1 and INV32 = -p^-1 = 2^32 - 1.
  static constexpr bool P0_IS_ONE = static_cast<uint32_t>(Cfg::modulus().l[0]) == 1;
  // The CIOS quotient digit t0 * INV32 mod 2^32. On the device, INV32 = 2^32 - 1 comes from constant
  // memory instead of being folded into mi = -t0: seeing the negation, ptxas (CUDA 13.0) emits every
  // mi*p[j] as IMAD.X + IMAD.HI.U32.X instead of one IMAD.WIDE.U32.X (measured in SASS: 120 extra
  // IMAD per product). The opaque factor costs one IMAD per step with a uniform-register operand.
  ZKGPU_HD static uint32_t mont_quotient(uint32_t t0) {
#if defined(__CUDA_ARCH__)
    if constexpr (Cfg::INV32 == 0xffffffffu) return t0 * kDeviceAllOnes;
#endif
    return t0 * Cfg::INV32;
  }
  ZKGPU_HD static uint32_t mul_hi(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
  }

  ZKGPU_HD constexpr MontField operator*(const MontField& o) const {
    MontField r{};
#if defined(__CUDA_ARCH__)
    mont_mul_u32_evenodd(r.l, l, o.l);
#else
#if ZKGPU_BLS_X86 && ZKGPU_BLS_X86_MULX
    if constexpr (N == 6) {
      if (!std::is_constant_evaluated() && x86::HAVE_BMI2_ADX) {
        x86::mont_mul6<Cfg>(r.l, l, o.l);
        return r;
      }
    }
#endif
    mont_mul_u64(r.l, l, o.l);
#endif
    return r;
  }
  ZKGPU_HD constexpr MontField square() const { return *this * *this; }

  template <int E>
  ZKGPU_HD constexpr MontField pow(const BigInt<E>& e) const {
    MontField acc = one();
    for (int i = 64 * E - 1; i >= 0; --i) {
      acc = acc.square();
      if (e.bit(static_cast<unsigned>(i))) acc *= *this;
    }
    return acc;
  }
  // Fermat inverse (m - 2); the inverse of zero is zero (callers check is_zero when it matters).
  ZKGPU_HD constexpr MontField inverse() const {
    BigInt<N> e = Cfg::modulus();
    e.l[0] -= 2;  // both moduli end in ...01, so no borrow
    return pow(e);
  }
};

using Fp = MontField<FpConfig>;
using Fr = MontField<FrConfig>;
using FpRepr = BigInt<6>;
using Scalar = BigInt<4>;  // a canonical scalar (< r), little-endian u64 limbs
static_assert(sizeof(Fp) == 48 && sizeof(Fr) == 32 && sizeof(Scalar) == 32);

}  // namespace zkgpu::bls12_377
