// Signed-digit windows (core/bls12_377/signed_digits.hpp): the digits put back together give the
// scalar, with msm_window_count windows for any canonical scalar and msm_window_count_half windows
// after negate_above_half, at every window size and on the edge values around (r - 1)/2.
#include <gtest/gtest.h>

#include <vector>

#include "msm/signed_digits.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

// sum_w d_w * 2^(c*w) modulo 2^320, five little-endian limbs.
struct Wide {
  uint64_t l[5] = {};
  void add_shifted(int64_t d, unsigned shift) {
    uint64_t m[5] = {};
    const uint64_t mag = static_cast<uint64_t>(d < 0 ? -d : d);
    const unsigned w = shift / 64, b = shift % 64;
    if (w < 5) m[w] = mag << b;
    if (b && w + 1 < 5) m[w + 1] = mag >> (64 - b);
    uint64_t carry = 0;
    for (int i = 0; i < 5; ++i) {  // l += m, or l -= m for a negative digit
      if (d >= 0) {
        const unsigned __int128 t = static_cast<unsigned __int128>(l[i]) + m[i] + carry;
        l[i] = static_cast<uint64_t>(t);
        carry = static_cast<uint64_t>(t >> 64);
      } else {
        const uint64_t sub = m[i] + carry;
        carry = (sub < m[i] || l[i] < sub) ? 1 : 0;
        l[i] -= sub;
      }
    }
  }
};

void expect_digits_give(const Scalar& s, unsigned c, unsigned windows) {
  Wide v;
  uint32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    const int32_t d = next_signed_digit(s, w, c, carry);
    ASSERT_LE(d < 0 ? -d : d, 1 << (c - 1)) << "c = " << c;
    v.add_shifted(d, c * w);
  }
  EXPECT_EQ(carry, 0u) << "c = " << c << ": a carry left the top window";
  for (int i = 0; i < 4; ++i) EXPECT_EQ(v.l[i], s.l[i]) << "c = " << c << ", limb " << i;
  EXPECT_EQ(v.l[4], 0u) << "c = " << c;
}

TEST(Bls12377SignedDigits, ReconstructWithFullAndHalvedWindowCounts) {
  const Scalar r = FrConfig::modulus();
  Scalar half = r;
  half.l[0] -= 1;  // r - 1 (r is odd), then halved
  for (int i = 0; i < 4; ++i) half.l[i] = (half.l[i] >> 1) | (i < 3 ? half.l[i + 1] << 63 : 0);
  Scalar half_plus = half;
  half_plus.l[0] += 1;  // (r + 1)/2: the smallest scalar that is negated
  Scalar r_minus_1 = r;
  r_minus_1.l[0] -= 1;
  std::vector<Scalar> edge = {Scalar{}, Scalar{{1, 0, 0, 0}}, half, half_plus, r_minus_1};
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int k = 0; k < 60; ++k) {  // random canonical scalars: below 2^252 < r
    Scalar s;
    for (auto& w : s.l) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      w = x ^ (x >> 29);
    }
    s.l[3] &= (uint64_t{1} << 60) - 1;
    edge.push_back(s);
  }
  for (const Scalar& s0 : edge) {
    for (unsigned c = 2; c <= 23; ++c) {
      expect_digits_give(s0, c, msm_window_count(c));
      Scalar s = s0;
      const bool neg = negate_above_half(s);
      EXPECT_EQ(neg, !(s0 == s)) << "negated means changed (s0 = 0 and below half stay)";
      if (neg) {  // s + s0 == r
        uint64_t carry = 0;
        for (int i = 0; i < 4; ++i) {
          const unsigned __int128 t = static_cast<unsigned __int128>(s.l[i]) + s0.l[i] + carry;
          EXPECT_EQ(static_cast<uint64_t>(t), r.l[i]);
          carry = static_cast<uint64_t>(t >> 64);
        }
      }
      expect_digits_give(s, c, msm_window_count_half(c));
    }
  }
  Scalar h = half, hp = half_plus;
  EXPECT_FALSE(negate_above_half(h));
  EXPECT_TRUE(negate_above_half(hp));
  EXPECT_EQ(hp, half);  // r - (r + 1)/2 = (r - 1)/2
  EXPECT_EQ(msm_window_count_half(23), 11u);
  EXPECT_EQ(msm_window_count(23), 12u);
}

}  // namespace
}  // namespace zkgpu::test
