// Host-only x86-64 arithmetic for the 6-limb Fp of field.hpp (the CPU MSM's hot loop). Same
// algorithm and same bytes as MontField::mont_mul_u64 (no-carry CIOS, result < p), only faster:
//  - mont_mul6: MULX with two independent carry chains (ADCX on CF for the low halves, ADOX on OF
//    for the high halves), fully unrolled inline assembly. BMI2 + ADX are checked once at run time
//    (cpuid); without them MontField keeps the portable path. The assembler needs no -m flags.
//  - add6 / sub6: branch-free modular addition and subtraction (add/adc, sub/sbb chains, cmov or
//    a mask), plain x86-64. The portable forms branch on the data, which a random MSM mispredicts
//    about half of the time (~7 such operations per point addition).
// The final conditional subtractions are in assembly too: written as a C++ masked select, GCC
// vectorised it through the stack (64-bit stores read back as 128-bit loads, a store-forwarding
// stall each); the cmov form took a mixed addition from 336 to 258 ns on a Zen 4 core.
// GPU code never sees this file (field.hpp includes it outside __CUDA_ARCH__ only).
// Laid out by hand (limb chains, assembly) or generated: not reformatted.
// clang-format off
#pragma once
#include <cpuid.h>

#include <cstdint>

namespace zkgpu::bls12_377::x86 {

// cpuid leaf 7, sub-leaf 0: EBX bit 8 = BMI2 (MULX), bit 19 = ADX (ADCX/ADOX).
inline bool detect_bmi2_adx() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return ((b >> 8) & 1) && ((b >> 19) & 1);
}
// Read once at start-up.
inline const bool HAVE_BMI2_ADX = detect_bmi2_adx();

// Hidden: in position-independent code (libzkgpu.so) a default-visibility constant is reached
// through the GOT, which costs the assembly below a register it does not have; a hidden one stays
// a RIP-relative memory operand.
template <class Cfg>
struct __attribute__((visibility("hidden"))) Consts6 {
  static constexpr auto P = Cfg::modulus();
  static constexpr uint64_t INV = Cfg::INV64;
};

// Shared pieces of the add/sub assembly: t = a OP b over six words (OP0 on the lowest word, OP
// with the carry or borrow above it), and p's words as memory operands (C = Consts6<Cfg>).
#define ZKGPU_X86_CHAIN6(OP0, OP)                                                                   \
  "movq 0(%[a]), %[t0]\n\t " OP0 " 0(%[b]), %[t0]\n\t"                                             \
  "movq 8(%[a]), %[t1]\n\t " OP " 8(%[b]), %[t1]\n\t"                                              \
  "movq 16(%[a]), %[t2]\n\t " OP " 16(%[b]), %[t2]\n\t"                                            \
  "movq 24(%[a]), %[t3]\n\t " OP " 24(%[b]), %[t3]\n\t"                                            \
  "movq 32(%[a]), %[t4]\n\t " OP " 32(%[b]), %[t4]\n\t"                                            \
  "movq 40(%[a]), %[t5]\n\t " OP " 40(%[b]), %[t5]\n\t"
#define ZKGPU_X86_P_OPERANDS                                                                        \
  [p0] "m"(C::P.l[0]), [p1] "m"(C::P.l[1]), [p2] "m"(C::P.l[2]), [p3] "m"(C::P.l[3]), [p4] "m"(C::P.l[4]), \
      [p5] "m"(C::P.l[5])

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
__attribute__((always_inline)) inline void mont_mul6(uint64_t* out, const uint64_t* a_in, const uint64_t* b_in) {
  static_assert(Cfg::N == 6);
  const uint64_t *a = a_in, *b = b_in;  // copies: the final step reuses their registers
  uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi;
  using Arr = const uint64_t(*)[6];
  using C = Consts6<Cfg>;  // p and -p^-1 as memory operands (RIP-relative: no register)
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
      // t = (x6, x0, x1, x2, x3, x4) < 2p: s = t - p in the six free registers, keep s unless
      // it borrowed (cmov: no branch, no trip through memory).
      "movq %[x6], %%rdx\n\t subq %[p0], %%rdx\n\t"
      "movq %[x0], %[lo]\n\t sbbq %[p1], %[lo]\n\t"
      "movq %[x1], %[hi]\n\t sbbq %[p2], %[hi]\n\t"
      "movq %[x2], %[x5]\n\t sbbq %[p3], %[x5]\n\t"
      "movq %[x3], %[a]\n\t sbbq %[p4], %[a]\n\t"
      "movq %[x4], %[b]\n\t sbbq %[p5], %[b]\n\t"
      "cmovncq %%rdx, %[x6]\n\t cmovncq %[lo], %[x0]\n\t cmovncq %[hi], %[x1]\n\t"
      "cmovncq %[x5], %[x2]\n\t cmovncq %[a], %[x3]\n\t cmovncq %[b], %[x4]\n\t"
      : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [x5] "=&r"(x5),
        [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+r"(a), [b] "+r"(b)
      : [inv] "m"(C::INV), ZKGPU_X86_P_OPERANDS,
        "m"(*reinterpret_cast<Arr>(a_in)), "m"(*reinterpret_cast<Arr>(b_in))
      : "rdx", "cc");
  (void)lo;
  (void)hi;
  (void)x5;
  // After step 5 the value t0..t5 sits in x6, x0, x1, x2, x3, x4.
  out[0] = x6, out[1] = x0, out[2] = x1, out[3] = x2, out[4] = x3, out[5] = x4;
}
#else
#define ZKGPU_BLS_X86_MULX 0
#endif  // __OPTIMIZE__
#undef ZKGPU_X86_MULROW
#undef ZKGPU_X86_REDROW
#undef ZKGPU_X86_R
#undef ZKGPU_X86_R32
#undef ZKGPU_X86_S

// out = a + b mod p for a, b < p (2p < 2^384: no carry out of the sum). t = a + b, then s = t - p
// in six more registers (two of them the pointers, free by then), keep s unless it borrowed.
template <class Cfg>
__attribute__((always_inline)) inline void add6(uint64_t* out, const uint64_t* a_in, const uint64_t* b_in) {
  using Arr = const uint64_t(*)[6];
  using C = Consts6<Cfg>;
  const uint64_t *a = a_in, *b = b_in;
  uint64_t t0, t1, t2, t3, t4, t5, s0, s1, s2, s3;
  asm(ZKGPU_X86_CHAIN6("addq", "adcq")
      "movq %[t0], %[s0]\n\t subq %[p0], %[s0]\n\t"
      "movq %[t1], %[s1]\n\t sbbq %[p1], %[s1]\n\t"
      "movq %[t2], %[s2]\n\t sbbq %[p2], %[s2]\n\t"
      "movq %[t3], %[s3]\n\t sbbq %[p3], %[s3]\n\t"
      "movq %[t4], %[a]\n\t sbbq %[p4], %[a]\n\t"
      "movq %[t5], %[b]\n\t sbbq %[p5], %[b]\n\t"
      "cmovncq %[s0], %[t0]\n\t cmovncq %[s1], %[t1]\n\t cmovncq %[s2], %[t2]\n\t"
      "cmovncq %[s3], %[t3]\n\t cmovncq %[a], %[t4]\n\t cmovncq %[b], %[t5]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [a] "+r"(a), [b] "+r"(b)
      : ZKGPU_X86_P_OPERANDS, "m"(*reinterpret_cast<Arr>(a_in)), "m"(*reinterpret_cast<Arr>(b_in))
      : "cc");
  (void)s0, (void)s1, (void)s2, (void)s3;
  out[0] = t0, out[1] = t1, out[2] = t2, out[3] = t3, out[4] = t4, out[5] = t5;
}

// out = a - b mod p for a, b < p: t = a - b, then t + (p AND the borrow mask). The six masked
// words of p live in registers (two of them the pointers, free by then) so that the masking is
// done before the carry chain starts.
template <class Cfg>
__attribute__((always_inline)) inline void sub6(uint64_t* out, const uint64_t* a_in, const uint64_t* b_in) {
  using Arr = const uint64_t(*)[6];
  using C = Consts6<Cfg>;
  const uint64_t *a = a_in, *b = b_in;
  uint64_t t0, t1, t2, t3, t4, t5, m, q0, q1, q2;
  asm(ZKGPU_X86_CHAIN6("subq", "sbbq")
      "sbbq %[m], %[m]\n\t"  // all ones when a < b
      "movq %[p0], %[q0]\n\t andq %[m], %[q0]\n\t"
      "movq %[p1], %[q1]\n\t andq %[m], %[q1]\n\t"
      "movq %[p2], %[q2]\n\t andq %[m], %[q2]\n\t"
      "movq %[p3], %[a]\n\t andq %[m], %[a]\n\t"
      "movq %[p4], %[b]\n\t andq %[m], %[b]\n\t"
      "andq %[p5], %[m]\n\t"
      "addq %[q0], %[t0]\n\t adcq %[q1], %[t1]\n\t adcq %[q2], %[t2]\n\t"
      "adcq %[a], %[t3]\n\t adcq %[b], %[t4]\n\t adcq %[m], %[t5]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [m] "=&r"(m), [q0] "=&r"(q0), [q1] "=&r"(q1), [q2] "=&r"(q2), [a] "+r"(a), [b] "+r"(b)
      : ZKGPU_X86_P_OPERANDS, "m"(*reinterpret_cast<Arr>(a_in)), "m"(*reinterpret_cast<Arr>(b_in))
      : "cc");
  (void)m, (void)q0, (void)q1, (void)q2;
  out[0] = t0, out[1] = t1, out[2] = t2, out[3] = t3, out[4] = t4, out[5] = t5;
}

#undef ZKGPU_X86_CHAIN6
#undef ZKGPU_X86_P_OPERANDS

}  // namespace zkgpu::bls12_377::x86
