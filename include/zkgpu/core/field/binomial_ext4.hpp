// EF = F[X]/(X^4 - W) over a 31-bit Montgomery field F (monty31.hpp), Plonky3's
// BinomialExtensionField<F, 4>, W = F::Parameters::EXT4_W (BabyBear 11, KoalaBear 3: docs/specs
// babybear.md §2, fields-curves.md §1.3). Coefficients c[0..4) in that order everywhere:
// serialization, Merkle rows, transcript.
#pragma once
#include "zkgpu/core/field/monty31.hpp"

namespace zkgpu {

template <class F>
struct BinomialExt4 {
  using Base = F;
  static constexpr uint32_t W = F::Parameters::EXT4_W;  // X^4 = W
  F c[4];

  ZKGPU_HD static constexpr BinomialExt4 zero() { return {{F::zero(), F::zero(), F::zero(), F::zero()}}; }
  ZKGPU_HD static constexpr BinomialExt4 one() { return {{F::one(), F::zero(), F::zero(), F::zero()}}; }
  ZKGPU_HD static constexpr BinomialExt4 from_base(F a) { return {{a, F::zero(), F::zero(), F::zero()}}; }

  ZKGPU_HD static constexpr F mul_w(F a) {  // W*a by additions, as Plonky3's mul_w
    if constexpr (W == 11) {
      F a2 = a.dbl(), a8 = a2.dbl().dbl();
      return a8 + a2 + a;
    } else if constexpr (W == 3) {
      return a.dbl() + a;
    } else {
      return a * F::from_canonical(W);
    }
  }

  ZKGPU_HD constexpr BinomialExt4 operator+(const BinomialExt4& o) const {
    return {{c[0] + o.c[0], c[1] + o.c[1], c[2] + o.c[2], c[3] + o.c[3]}};
  }
  ZKGPU_HD constexpr BinomialExt4 operator-(const BinomialExt4& o) const {
    return {{c[0] - o.c[0], c[1] - o.c[1], c[2] - o.c[2], c[3] - o.c[3]}};
  }
  ZKGPU_HD constexpr BinomialExt4 operator-() const { return {{-c[0], -c[1], -c[2], -c[3]}}; }
  ZKGPU_HD constexpr BinomialExt4 operator*(F s) const { return {{c[0] * s, c[1] * s, c[2] * s, c[3] * s}}; }
  // Schoolbook product with X^4 = W (docs/specs/babybear.md §2 formulas), with W*b_j folded into
  // b first and the products summed two at a time before one Montgomery reduction
  // (MontyField31::mul_add2): 8 reductions instead of 16, the same field element (every word
  // stays canonical).
  ZKGPU_HD constexpr BinomialExt4 operator*(const BinomialExt4& b) const {
    const F* a = c;
    const F w1 = mul_w(b.c[1]), w2 = mul_w(b.c[2]), w3 = mul_w(b.c[3]);
    using B = F;
    F d0 = B::mul_add2(a[0], b.c[0], a[1], w3) + B::mul_add2(a[2], w2, a[3], w1);
    F d1 = B::mul_add2(a[0], b.c[1], a[1], b.c[0]) + B::mul_add2(a[2], w3, a[3], w2);
    F d2 = B::mul_add2(a[0], b.c[2], a[1], b.c[1]) + B::mul_add2(a[2], b.c[0], a[3], w3);
    F d3 = B::mul_add2(a[0], b.c[3], a[1], b.c[2]) + B::mul_add2(a[2], b.c[1], a[3], b.c[0]);
    return {{d0, d1, d2, d3}};
  }
  ZKGPU_HD constexpr BinomialExt4& operator+=(const BinomialExt4& o) { return *this = *this + o; }
  ZKGPU_HD constexpr BinomialExt4& operator-=(const BinomialExt4& o) { return *this = *this - o; }
  ZKGPU_HD constexpr BinomialExt4& operator*=(const BinomialExt4& o) { return *this = *this * o; }
  ZKGPU_HD constexpr bool operator==(const BinomialExt4& o) const {
    return c[0] == o.c[0] && c[1] == o.c[1] && c[2] == o.c[2] && c[3] == o.c[3];
  }
  ZKGPU_HD constexpr bool operator!=(const BinomialExt4& o) const { return !(*this == o); }
  ZKGPU_HD constexpr bool is_zero() const {
    return c[0].is_zero() && c[1].is_zero() && c[2].is_zero() && c[3].is_zero();
  }
  ZKGPU_HD constexpr BinomialExt4 square() const { return *this * *this; }

  // Inverse through the tower EF = K[X]/(X^2 - u), K = F[u]/(u^2 - W), u = X^2:
  // a = A0 + X*A1 with A0 = c0 + c2*u, A1 = c1 + c3*u; a * (A0 - X*A1) = A0^2 - u*A1^2 in K.
  // The inverse of zero is zero.
  ZKGPU_HD constexpr BinomialExt4 inverse() const {
    // K elements as pairs (k0, k1) = k0 + k1*u.
    F a00 = c[0], a01 = c[2], a10 = c[1], a11 = c[3];
    // A0^2 = (a00^2 + W a01^2) + 2 a00 a01 u
    F s0 = a00.square() + mul_w(a01.square()), s1 = (a00 * a01).dbl();
    // u*A1^2 = u*((a10^2 + W a11^2) + 2 a10 a11 u) = 2W a10 a11 + (a10^2 + W a11^2) u
    F t0 = mul_w((a10 * a11).dbl()), t1 = a10.square() + mul_w(a11.square());
    F n0 = s0 - t0, n1 = s1 - t1;  // N = A0^2 - u A1^2
    // N^-1 = (n0 - n1 u) / (n0^2 - W n1^2)
    F den = (n0.square() - mul_w(n1.square())).inverse();
    F i0 = n0 * den, i1 = -(n1 * den);
    // a^-1 = (A0 - X A1) * N^-1; (A0)(N^-1) and (A1)(N^-1) in K.
    F b00 = a00 * i0 + mul_w(a01 * i1), b01 = a00 * i1 + a01 * i0;
    F b10 = a10 * i0 + mul_w(a11 * i1), b11 = a10 * i1 + a11 * i0;
    return {{b00, -b10, b01, -b11}};
  }
};
}  // namespace zkgpu
