// Host-only x86-64 arithmetic for the 6-limb Fp of field.hpp (the CPU MSM's hot loop). Same
// algorithm and same bytes as MontField::mont_mul_u64 (no-carry CIOS, result < p), only faster:
//  - mont_mul6: MULX with two independent carry chains (ADCX on CF for the low halves, ADOX on OF
//    for the high halves), fully unrolled inline assembly. BMI2 + ADX are checked once at run time
//    (cpuid); without them MontField keeps the portable path. The assembler needs no -m flags.
//  - add6 / sub6: branch-free modular addition and subtraction (add/adc, sub/sbb chains and a
//    masked select). The portable forms branch on the data, which a random MSM mispredicts about
//    half of the time (~7 such operations per point addition).
// GPU code never sees this file (field.hpp includes it outside __CUDA_ARCH__ only).
#pragma once
#include <cpuid.h>
#include <x86intrin.h>

#include <cstdint>
#include <cstdlib>

namespace zkgpu::bls12_377::x86 {

// cpuid leaf 7, sub-leaf 0: EBX bit 8 = BMI2 (MULX), bit 19 = ADX (ADCX/ADOX).
inline bool detect_bmi2_adx() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return ((b >> 8) & 1) && ((b >> 19) & 1);
}
// Read once at start-up; ZKGPU_BLS_NO_ADX=1 in the environment forces the portable multiply (for
// measurements and for testing the fallback on machines that have ADX).
inline bool adx_enabled_from_env() {
  const char* v = std::getenv("ZKGPU_BLS_NO_ADX");
  return v == nullptr || *v == '\0' || *v == '0';
}
inline const bool HAVE_BMI2_ADX = detect_bmi2_adx() && adx_enabled_from_env();

template <class Cfg>
struct Consts6 {
  static constexpr auto P = Cfg::modulus();
  static constexpr uint64_t INV = Cfg::INV64;
};

// out = t - p when t >= p, else t (t < 2p), branch-free.
template <class Cfg>
inline void reduce_once6(uint64_t* out, const uint64_t* t) {
  const uint64_t* p = Consts6<Cfg>::P.l;
  uint64_t s[6];
  unsigned char borrow = 0;
  for (int i = 0; i < 6; ++i) {
    unsigned long long d;
    borrow = _subborrow_u64(borrow, t[i], p[i], &d);
    s[i] = d;
  }
  const uint64_t keep = 0 - static_cast<uint64_t>(borrow);  // all ones when t < p
  for (int i = 0; i < 6; ++i) out[i] = (t[i] & keep) | (s[i] & ~keep);
}

// The multiply needs 12 free general registers, which unoptimised builds (frame pointer, operands
// kept in memory) do not leave: they use the portable multiply.
#if defined(__OPTIMIZE__)
#define ZKGPU_BLS_X86_MULX 1
// out = a*b*2^-384 mod p for a, b < p (p < 2^383 / 64: the no-carry CIOS of field.hpp, whose
// running value stays below 2p and never needs a seventh-word carry). Requires BMI2 + ADX.
// Register rotation: after each reduction step the low word is zero and becomes the next step's
// top word, so seven registers x0..x6 hold the running value; step i uses x[(i+k) mod 7] as t_k.
// out may alias a or b (all loads happen before the final store).
#define ZKGPU_X86_S(x) #x
#define ZKGPU_X86_R(n) "%[x" ZKGPU_X86_S(n) "]"
#define ZKGPU_X86_R32(n) "%k[x" ZKGPU_X86_S(n) "]"
// t += a * b[i] (i >= 1): t6 := 0 and both flags cleared by one xor; low halves into t_j on CF,
// high halves into t_{j+1} on OF; the last CF lands in t6 (cannot overflow: t + a*b_i < 2^448).
#define ZKGPU_X86_MULROW(OFF, T0, T1, T2, T3, T4, T5, T6)                                           \
  "movq " #OFF "(%[b]), %%rdx\n\t"                                                                  \
  "xorl " ZKGPU_X86_R32(T6) ", " ZKGPU_X86_R32(T6) "\n\t"                                           \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T0) "\n\t adoxq %[hi], " ZKGPU_X86_R(T1) "\n\t"  \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T1) "\n\t adoxq %[hi], " ZKGPU_X86_R(T2) "\n\t"  \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T2) "\n\t adoxq %[hi], " ZKGPU_X86_R(T3) "\n\t" \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T3) "\n\t adoxq %[hi], " ZKGPU_X86_R(T4) "\n\t" \
  "mulxq 32(%[a]), %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T4) "\n\t adoxq %[hi], " ZKGPU_X86_R(T5) "\n\t" \
  "mulxq 40(%[a]), %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T5) "\n\t adoxq %[hi], " ZKGPU_X86_R(T6) "\n\t" \
  "adcq $0, " ZKGPU_X86_R(T6) "\n\t"
// t += m*p with m = t0 * (-p^-1) mod 2^64, which zeroes t0 (the caller's rotation drops it).
#define ZKGPU_X86_REDROW(T0, T1, T2, T3, T4, T5, T6)                                                \
  "movq " ZKGPU_X86_R(T0) ", %%rdx\n\t"                                                             \
  "imulq %[inv], %%rdx\n\t"                                                                         \
  "xorl %k[lo], %k[lo]\n\t"                                                                         \
  "mulxq %[p0], %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T0) "\n\t adoxq %[hi], " ZKGPU_X86_R(T1) "\n\t"  \
  "mulxq %[p1], %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T1) "\n\t adoxq %[hi], " ZKGPU_X86_R(T2) "\n\t"  \
  "mulxq %[p2], %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T2) "\n\t adoxq %[hi], " ZKGPU_X86_R(T3) "\n\t" \
  "mulxq %[p3], %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T3) "\n\t adoxq %[hi], " ZKGPU_X86_R(T4) "\n\t" \
  "mulxq %[p4], %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T4) "\n\t adoxq %[hi], " ZKGPU_X86_R(T5) "\n\t" \
  "mulxq %[p5], %[lo], %[hi]\n\t adcxq %[lo], " ZKGPU_X86_R(T5) "\n\t adoxq %[hi], " ZKGPU_X86_R(T6) "\n\t" \
  "adcq $0, " ZKGPU_X86_R(T6) "\n\t"

template <class Cfg>
__attribute__((always_inline)) inline void mont_mul6(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  static_assert(Cfg::N == 6);
  uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi;
  using Arr = const uint64_t(*)[6];
  asm(
      // Step 0, product row: t = a * b[0] (t starts at zero, so one CF chain suffices).
      "movq 0(%[b]), %%rdx\n\t"
      "mulxq 0(%[a]), %[x0], %[x1]\n\t"
      "mulxq 8(%[a]), %[lo], %[x2]\n\t addq %[lo], %[x1]\n\t"
      "mulxq 16(%[a]), %[lo], %[x3]\n\t adcq %[lo], %[x2]\n\t"
      "mulxq 24(%[a]), %[lo], %[x4]\n\t adcq %[lo], %[x3]\n\t"
      "mulxq 32(%[a]), %[lo], %[x5]\n\t adcq %[lo], %[x4]\n\t"
      "mulxq 40(%[a]), %[lo], %[x6]\n\t adcq %[lo], %[x5]\n\t"
      "adcq $0, %[x6]\n\t"
      ZKGPU_X86_REDROW(0, 1, 2, 3, 4, 5, 6)
      ZKGPU_X86_MULROW(8, 1, 2, 3, 4, 5, 6, 0)
      ZKGPU_X86_REDROW(1, 2, 3, 4, 5, 6, 0)
      ZKGPU_X86_MULROW(16, 2, 3, 4, 5, 6, 0, 1)
      ZKGPU_X86_REDROW(2, 3, 4, 5, 6, 0, 1)
      ZKGPU_X86_MULROW(24, 3, 4, 5, 6, 0, 1, 2)
      ZKGPU_X86_REDROW(3, 4, 5, 6, 0, 1, 2)
      ZKGPU_X86_MULROW(32, 4, 5, 6, 0, 1, 2, 3)
      ZKGPU_X86_REDROW(4, 5, 6, 0, 1, 2, 3)
      ZKGPU_X86_MULROW(40, 5, 6, 0, 1, 2, 3, 4)
      ZKGPU_X86_REDROW(5, 6, 0, 1, 2, 3, 4)
      : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [x5] "=&r"(x5),
        [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [a] "r"(a), [b] "r"(b), [inv] "m"(Consts6<Cfg>::INV), [p0] "m"(Consts6<Cfg>::P.l[0]), [p1] "m"(Consts6<Cfg>::P.l[1]), [p2] "m"(Consts6<Cfg>::P.l[2]),
        [p3] "m"(Consts6<Cfg>::P.l[3]), [p4] "m"(Consts6<Cfg>::P.l[4]), [p5] "m"(Consts6<Cfg>::P.l[5]), "m"(*reinterpret_cast<Arr>(a)), "m"(*reinterpret_cast<Arr>(b))
      : "rdx", "cc");
  (void)lo;
  (void)hi;
  // After step 5 the value t0..t5 sits in x6, x0, x1, x2, x3, x4.
  const uint64_t t[6] = {x6, x0, x1, x2, x3, x4};
  reduce_once6<Cfg>(out, t);
}
#else
#define ZKGPU_BLS_X86_MULX 0
#endif  // __OPTIMIZE__
#undef ZKGPU_X86_MULROW
#undef ZKGPU_X86_REDROW
#undef ZKGPU_X86_R
#undef ZKGPU_X86_R32
#undef ZKGPU_X86_S

// out = a + b mod p for a, b < p (2p < 2^384: no carry out of the sum).
template <class Cfg>
inline void add6(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  uint64_t t[6];
  unsigned char carry = 0;
  for (int i = 0; i < 6; ++i) {
    unsigned long long s;
    carry = _addcarry_u64(carry, a[i], b[i], &s);
    t[i] = s;
  }
  reduce_once6<Cfg>(out, t);
}

// out = a - b mod p for a, b < p: the difference plus p when it borrowed.
template <class Cfg>
inline void sub6(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  const uint64_t* p = Consts6<Cfg>::P.l;
  uint64_t t[6];
  unsigned char borrow = 0;
  for (int i = 0; i < 6; ++i) {
    unsigned long long d;
    borrow = _subborrow_u64(borrow, a[i], b[i], &d);
    t[i] = d;
  }
  const uint64_t mask = 0 - static_cast<uint64_t>(borrow);
  unsigned char carry = 0;
  for (int i = 0; i < 6; ++i) {
    unsigned long long s;
    carry = _addcarry_u64(carry, t[i], p[i] & mask, &s);
    out[i] = s;
  }
}

}  // namespace zkgpu::bls12_377::x86
