// Signed-digit windows of a scalar for Pippenger (shared/specs/msm.md §4), shared by the CPU and
// GPU MSMs. Window w holds bits [c*w, c*w + c) plus the carry of window w - 1; a value above
// 2^(c-1) becomes v - 2^c with a carry into the next window, so digits lie in
// [-2^(c-1) + 1, 2^(c-1)] and only 2^(c-1) buckets per window are needed.
#pragma once
#include "zkgpu/core/bls12_377/field.hpp"

namespace zkgpu::bls12_377 {

inline constexpr unsigned SCALAR_BITS = 253;

// One window more than floor(253 / c): the top window then has fewer than c bits (or none, when
// c divides 253), so the final carry always fits and no scalar negation trick is needed.
ZKGPU_HD constexpr unsigned msm_window_count(unsigned c) { return SCALAR_BITS / c + 1; }

// With every scalar at most (r - 1)/2 < 2^252 (negate_above_half), ceil(253 / c) windows suffice:
// the top window then holds at most 252 - c*(W - 1) <= c - 1 bits, so its digit plus the carry stays
// <= 2^(c-1) and no carry leaves it. One window fewer than msm_window_count when c divides 253
// (c = 11, 23), the same otherwise.
ZKGPU_HD constexpr unsigned msm_window_count_half(unsigned c) { return (SCALAR_BITS + c - 1) / c; }

// s > (r - 1)/2 (s canonical): s becomes r - s and the result is true, so s*P = (r - s)*(-P) is
// summed with negated bases.
ZKGPU_HD constexpr bool negate_above_half(Scalar& s) {
  constexpr uint64_t half[4] = {0x8508c00000000000ull, 0xacd53b7f68000000ull, 0x305a268f2e1bd800ull,
                                0x0955b2af4d1652abull};  // (r - 1) / 2
  bool above = false;
  for (int i = 3; i >= 0; --i) {
    if (s.l[i] != half[i]) {
      above = s.l[i] > half[i];
      break;
    }
  }
  if (!above) return false;
  const Scalar r = FrConfig::modulus();
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t a = r.l[i], b = s.l[i];
    const uint64_t d = a - b - borrow;
    borrow = (a < b || (a == b && borrow)) ? 1 : 0;
    s.l[i] = d;
  }
  return true;
}

// Digit of window w given the carry out of window w - 1 (0 for w = 0); updates carry.
ZKGPU_HD constexpr int32_t next_signed_digit(const Scalar& s, unsigned w, unsigned c, uint32_t& carry) {
  uint32_t v = s.bits(w * c, c) + carry;
  if (v > (1u << (c - 1))) {
    carry = 1;
    return static_cast<int32_t>(v) - static_cast<int32_t>(1u << c);
  }
  carry = 0;
  return static_cast<int32_t>(v);
}

}  // namespace zkgpu::bls12_377
