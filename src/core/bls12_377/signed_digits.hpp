// Signed-digit windows of a scalar for Pippenger (shared/specs/msm.md §4), shared by the CPU and
// GPU MSMs. Window w holds bits [c*w, c*w + c) plus the carry of window w - 1; a value above
// 2^(c-1) becomes v - 2^c with a carry into the next window, so digits lie in
// [-2^(c-1) + 1, 2^(c-1)] and only 2^(c-1) buckets per window are needed.
#pragma once
#include "core/bls12_377/field.hpp"

namespace zkgpu::bls12_377 {

inline constexpr unsigned SCALAR_BITS = 253;

// One window more than floor(253 / c): the top window then has fewer than c bits (or none, when
// c divides 253), so the final carry always fits and no scalar negation trick is needed.
ZKGPU_HD constexpr unsigned msm_window_count(unsigned c) { return SCALAR_BITS / c + 1; }

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
