// EF = BabyBear[X]/(X^4 - 11), Plonky3's BinomialExtensionField<BabyBear, 4> (spec §2).
// Coefficients c[0..4) in that order everywhere: serialization, Merkle rows, transcript.
#pragma once
#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu {

struct BabyBear4 {
  static constexpr uint32_t W = 11;  // X^4 = W
  BabyBear c[4];

  ZKGPU_HD static constexpr BabyBear4 zero() {
    return {{BabyBear::zero(), BabyBear::zero(), BabyBear::zero(), BabyBear::zero()}};
  }
  ZKGPU_HD static constexpr BabyBear4 one() {
    return {{BabyBear::one(), BabyBear::zero(), BabyBear::zero(), BabyBear::zero()}};
  }
  ZKGPU_HD static constexpr BabyBear4 from_base(BabyBear a) {
    return {{a, BabyBear::zero(), BabyBear::zero(), BabyBear::zero()}};
  }

  ZKGPU_HD static constexpr BabyBear mul_w(BabyBear a) {  // 11*a = 8a + 2a + a
    BabyBear a2 = a.dbl(), a8 = a2.dbl().dbl();
    return a8 + a2 + a;
  }

  ZKGPU_HD constexpr BabyBear4 operator+(const BabyBear4& o) const {
    return {{c[0] + o.c[0], c[1] + o.c[1], c[2] + o.c[2], c[3] + o.c[3]}};
  }
  ZKGPU_HD constexpr BabyBear4 operator-(const BabyBear4& o) const {
    return {{c[0] - o.c[0], c[1] - o.c[1], c[2] - o.c[2], c[3] - o.c[3]}};
  }
  ZKGPU_HD constexpr BabyBear4 operator-() const { return {{-c[0], -c[1], -c[2], -c[3]}}; }
  ZKGPU_HD constexpr BabyBear4 operator*(BabyBear s) const { return {{c[0] * s, c[1] * s, c[2] * s, c[3] * s}}; }
  // Schoolbook product with X^4 = 11 (spec §2 formulas), with 11*b_j folded into b first and the
  // products summed two at a time before one Montgomery reduction (BabyBear::mul_add2): 8
  // reductions instead of 16, the same field element (every word stays canonical).
  ZKGPU_HD constexpr BabyBear4 operator*(const BabyBear4& b) const {
    const BabyBear* a = c;
    const BabyBear w1 = mul_w(b.c[1]), w2 = mul_w(b.c[2]), w3 = mul_w(b.c[3]);
    using B = BabyBear;
    BabyBear d0 = B::mul_add2(a[0], b.c[0], a[1], w3) + B::mul_add2(a[2], w2, a[3], w1);
    BabyBear d1 = B::mul_add2(a[0], b.c[1], a[1], b.c[0]) + B::mul_add2(a[2], w3, a[3], w2);
    BabyBear d2 = B::mul_add2(a[0], b.c[2], a[1], b.c[1]) + B::mul_add2(a[2], b.c[0], a[3], w3);
    BabyBear d3 = B::mul_add2(a[0], b.c[3], a[1], b.c[2]) + B::mul_add2(a[2], b.c[1], a[3], b.c[0]);
    return {{d0, d1, d2, d3}};
  }
  ZKGPU_HD constexpr BabyBear4& operator+=(const BabyBear4& o) { return *this = *this + o; }
  ZKGPU_HD constexpr BabyBear4& operator-=(const BabyBear4& o) { return *this = *this - o; }
  ZKGPU_HD constexpr BabyBear4& operator*=(const BabyBear4& o) { return *this = *this * o; }
  ZKGPU_HD constexpr bool operator==(const BabyBear4& o) const {
    return c[0] == o.c[0] && c[1] == o.c[1] && c[2] == o.c[2] && c[3] == o.c[3];
  }
  ZKGPU_HD constexpr bool operator!=(const BabyBear4& o) const { return !(*this == o); }
  ZKGPU_HD constexpr bool is_zero() const {
    return c[0].is_zero() && c[1].is_zero() && c[2].is_zero() && c[3].is_zero();
  }
  ZKGPU_HD constexpr BabyBear4 square() const { return *this * *this; }

  // Inverse through the tower EF = K[X]/(X^2 - u), K = F[u]/(u^2 - 11), u = X^2:
  // a = A0 + X*A1 with A0 = c0 + c2*u, A1 = c1 + c3*u; a * (A0 - X*A1) = A0^2 - u*A1^2 in K.
  // The inverse of zero is zero.
  ZKGPU_HD constexpr BabyBear4 inverse() const {
    // K elements as pairs (k0, k1) = k0 + k1*u.
    BabyBear a00 = c[0], a01 = c[2], a10 = c[1], a11 = c[3];
    // A0^2 = (a00^2 + 11 a01^2) + 2 a00 a01 u
    BabyBear s0 = a00.square() + mul_w(a01.square()), s1 = (a00 * a01).dbl();
    // u*A1^2 = u*((a10^2 + 11 a11^2) + 2 a10 a11 u) = 22 a10 a11 + (a10^2 + 11 a11^2) u
    BabyBear t0 = mul_w((a10 * a11).dbl()), t1 = a10.square() + mul_w(a11.square());
    BabyBear n0 = s0 - t0, n1 = s1 - t1;  // N = A0^2 - u A1^2
    // N^-1 = (n0 - n1 u) / (n0^2 - 11 n1^2)
    BabyBear den = (n0.square() - mul_w(n1.square())).inverse();
    BabyBear i0 = n0 * den, i1 = -(n1 * den);
    // a^-1 = (A0 - X A1) * N^-1; (A0)(N^-1) and (A1)(N^-1) in K.
    BabyBear b00 = a00 * i0 + mul_w(a01 * i1), b01 = a00 * i1 + a01 * i0;
    BabyBear b10 = a10 * i0 + mul_w(a11 * i1), b11 = a10 * i1 + a11 * i0;
    return {{b00, -b10, b01, -b11}};
  }
};
static_assert(sizeof(BabyBear4) == 16, "BabyBear4 is four u32 words, c0..c3");

}  // namespace zkgpu
