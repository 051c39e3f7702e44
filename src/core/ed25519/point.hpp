// Points of the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 in the ref10 representations:
// extended (X:Y:Z:T, x = X/Z, y = Y/Z, xy = T/Z), projective P2 (X:Y:Z), "completed" P1P1
// ((X:Z), (Y:T)), cached (Y+X, Y-X, Z, 2dT) and affine precomputed (y+x, y-x, 2dxy). Addition
// and doubling are the a = -1 formulas of Hisil-Wong-Carter-Dawson 2008 (ref10 ge_add/ge_p2_dbl).
#pragma once
#include <cstdint>

#include "core/common.hpp"
#include "core/ed25519/fe25519.hpp"

namespace zkgpu::ed25519 {

struct GeP2 {
  Fe X, Y, Z;
};
struct GeP3 {
  Fe X, Y, Z, T;
};
struct GeP1P1 {
  Fe X, Y, Z, T;
};
struct GeCached {
  Fe YplusX, YminusX, Z, T2d;
};
struct GePrecomp {
  Fe yplusx, yminusx, xy2d;
};

ZKGPU_HD GeP3 ge_identity() { return GeP3{fe_zero(), fe_one(), fe_one(), fe_zero()}; }

// The base point B (y = 4/5, x even).
ZKGPU_HD GeP3 ge_base() {
  GeP3 b;
  b.X = Fe{{0x62d608f25d51aull, 0x412a4b4f6592aull, 0x75b7171a4b31dull, 0x1ff60527118feull, 0x216936d3cd6e5ull}};
  b.Y = Fe{{0x6666666666658ull, 0x4ccccccccccccull, 0x1999999999999ull, 0x3333333333333ull, 0x6666666666666ull}};
  b.Z = fe_one();
  b.T = fe_mul(b.X, b.Y);
  return b;
}

ZKGPU_HD GeP2 ge_p1p1_to_p2(const GeP1P1& p) { return GeP2{fe_mul(p.X, p.T), fe_mul(p.Y, p.Z), fe_mul(p.Z, p.T)}; }
ZKGPU_HD GeP3 ge_p1p1_to_p3(const GeP1P1& p) {
  return GeP3{fe_mul(p.X, p.T), fe_mul(p.Y, p.Z), fe_mul(p.Z, p.T), fe_mul(p.X, p.Y)};
}
ZKGPU_HD GeP2 ge_p3_to_p2(const GeP3& p) { return GeP2{p.X, p.Y, p.Z}; }
ZKGPU_HD GeCached ge_p3_to_cached(const GeP3& p) {
  return GeCached{fe_add(p.Y, p.X), fe_sub(p.Y, p.X), p.Z, fe_mul(p.T, fe_d2())};
}

ZKGPU_HD GeP1P1 ge_p2_dbl(const GeP2& p) {
  GeP1P1 r;
  r.X = fe_sq(p.X);
  r.Z = fe_sq(p.Y);
  const Fe zz = fe_sq(p.Z);
  r.T = fe_add(zz, zz);
  const Fe xy = fe_add(p.X, p.Y);
  const Fe t0 = fe_sq(xy);
  r.Y = fe_add(r.Z, r.X);
  r.Z = fe_sub(r.Z, r.X);
  r.X = fe_sub(t0, r.Y);
  r.T = fe_sub(r.T, r.Z);
  return r;
}
ZKGPU_HD GeP1P1 ge_p3_dbl(const GeP3& p) { return ge_p2_dbl(ge_p3_to_p2(p)); }

// p + q (sub = false) or p - q (sub = true).
ZKGPU_HD GeP1P1 ge_add_cached(const GeP3& p, const GeCached& q, bool sub) {
  GeP1P1 r;
  const Fe a = fe_add(p.Y, p.X), b = fe_sub(p.Y, p.X);
  const Fe A = fe_mul(a, sub ? q.YminusX : q.YplusX);
  const Fe B = fe_mul(b, sub ? q.YplusX : q.YminusX);
  const Fe C = fe_mul(q.T2d, p.T);
  const Fe zz = fe_mul(p.Z, q.Z);
  const Fe D = fe_add(zz, zz);
  r.X = fe_sub(A, B);
  r.Y = fe_add(A, B);
  r.Z = sub ? fe_sub(D, C) : fe_add(D, C);
  r.T = sub ? fe_add(D, C) : fe_sub(D, C);
  return r;
}

ZKGPU_HD GeP1P1 ge_add_precomp(const GeP3& p, const GePrecomp& q, bool sub) {
  GeP1P1 r;
  const Fe a = fe_add(p.Y, p.X), b = fe_sub(p.Y, p.X);
  const Fe A = fe_mul(a, sub ? q.yminusx : q.yplusx);
  const Fe B = fe_mul(b, sub ? q.yplusx : q.yminusx);
  const Fe C = fe_mul(q.xy2d, p.T);
  const Fe D = fe_add(p.Z, p.Z);
  r.X = fe_sub(A, B);
  r.Y = fe_add(A, B);
  r.Z = sub ? fe_sub(D, C) : fe_add(D, C);
  r.T = sub ? fe_add(D, C) : fe_sub(D, C);
  return r;
}

ZKGPU_HD GePrecomp ge_p3_to_precomp(const GeP3& p) {  // one inversion: for fixed tables only
  const Fe zi = fe_invert(p.Z);
  const Fe x = fe_mul(p.X, zi), y = fe_mul(p.Y, zi);
  return GePrecomp{fe_add(y, x), fe_sub(y, x), fe_mul(fe_mul(x, y), fe_d2())};
}

ZKGPU_HD void ge_p2_tobytes(uint8_t out[32], const GeP2& p) {
  const Fe zi = fe_invert(p.Z);
  const Fe x = fe_mul(p.X, zi), y = fe_mul(p.Y, zi);
  fe_tobytes(out, y);
  out[31] ^= static_cast<uint8_t>(fe_is_negative(x) << 7);
}

// Projective identity test: X = 0 and Y = Z.
ZKGPU_HD bool ge_p2_is_identity(const GeP2& p) { return fe_is_zero(p.X) && fe_equal(p.Y, p.Z); }

// [8]P = O, i.e. P is one of the 8 torsion points.
ZKGPU_HD bool ge_has_small_order(const GeP3& p) {
  GeP2 q = ge_p3_to_p2(p);
  for (int i = 0; i < 3; ++i) q = ge_p1p1_to_p2(ge_p2_dbl(q));
  return ge_p2_is_identity(q);
}

// How a 32-byte encoding is decoded (RFC 8032 section 5.1.3 and the lenient variants).
struct DecodeRules {
  bool reject_noncanonical_y;  // y >= p is an error (else y is taken mod p)
  bool reject_negative_zero;   // x = 0 with the sign bit set is an error (step 5)
};

// Decodes s into p; false when s is not a point under the rules.
ZKGPU_HD bool ge_frombytes(GeP3& p, const uint8_t s[32], DecodeRules rules) {
  if (rules.reject_noncanonical_y) {
    // y >= p iff the low 255 bits are 2^255 - 19 .. 2^255 - 1.
    bool high_all_ones = (s[31] & 0x7f) == 0x7f && s[0] >= 0xed;
    for (int i = 1; i < 31 && high_all_ones; ++i) high_all_ones = s[i] == 0xff;
    if (high_all_ones) return false;
  }
  const int sign = s[31] >> 7;
  const Fe y = fe_frombytes(s);
  const Fe yy = fe_sq(y);
  const Fe u = fe_sub(yy, fe_one());          // y^2 - 1
  const Fe v = fe_add(fe_mul(yy, fe_d()), fe_one());  // d y^2 + 1
  const Fe v3 = fe_mul(fe_sq(v), v);
  const Fe uv7 = fe_mul(fe_mul(fe_sq(v3), v), u);
  Fe x = fe_mul(fe_mul(fe_pow22523(uv7), v3), u);  // u v^3 (u v^7)^((p-5)/8)
  const Fe vxx = fe_mul(fe_sq(x), v);
  if (!fe_equal(vxx, u)) {
    if (!fe_equal(vxx, fe_neg(u))) return false;
    x = fe_mul(x, fe_sqrtm1());
  }
  const bool x_zero = fe_is_zero(x);
  if (x_zero && sign && rules.reject_negative_zero) return false;
  if (!x_zero && fe_is_negative(x) != sign) x = fe_neg(x);
  p.X = x;
  p.Y = y;
  p.Z = fe_one();
  p.T = fe_mul(x, y);
  return true;
}

}  // namespace zkgpu::ed25519
