// Points of the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 in the ref10 representations:
// extended (X:Y:Z:T, x = X/Z, y = Y/Z, xy = T/Z), projective P2 (X:Y:Z), "completed" P1P1
// ((X:Z), (Y:T)), cached (Y+X, Y-X, Z, 2dT) and affine precomputed (y+x, y-x, 2dxy). Addition
// and doubling are the a = -1 formulas of Hisil-Wong-Carter-Dawson 2008 (ref10 ge_add/ge_p2_dbl).
#pragma once
#include <cstdint>

#include "zkgpu/core/common.hpp"
#include "zkgpu/core/ed25519/fe25519.hpp"
#include "zkgpu/core/ed25519/fe_generic.hpp"

namespace zkgpu::ed25519 {

template <class F>
struct GeP2 {
  F X, Y, Z;
};
template <class F>
struct GeP3 {
  F X, Y, Z, T;
};
template <class F>
struct GeP1P1 {
  F X, Y, Z, T;
};
template <class F>
struct GeCached {
  F YplusX, YminusX, Z, T2d;
};
template <class F>
struct GePrecomp {
  F yplusx, yminusx, xy2d;
};

template <class F>
ZKGPU_HD GeP3<F> ge_identity() {
  return GeP3<F>{f_zero<F>(), f_one<F>(), f_one<F>(), f_zero<F>()};
}

// The base point B (y = 4/5, x even).
template <class F>
ZKGPU_HD GeP3<F> ge_base() {
  GeP3<F> b;
  b.X = fe_from51<F>(
      Fe{{0x62d608f25d51aull, 0x412a4b4f6592aull, 0x75b7171a4b31dull, 0x1ff60527118feull, 0x216936d3cd6e5ull}});
  b.Y = fe_from51<F>(
      Fe{{0x6666666666658ull, 0x4ccccccccccccull, 0x1999999999999ull, 0x3333333333333ull, 0x6666666666666ull}});
  b.Z = f_one<F>();
  b.T = fe_mul(b.X, b.Y);
  return b;
}

// How the independent field products inside one point operation are computed: one after the
// other (SerialMul, the CPU and the one-thread-per-signature kernel), or one per lane by a group
// of GPU lanes that then exchange the results (LaneMul in src/ed25519/cuda). mul<N> computes
// o[i] = a[i] b[i] and sq<N> o[i] = a[i]^2 for i < N <= 4; the formulas below are written once.
template <class F>
struct SerialMul {
  template <int N>
  ZKGPU_HD void mul(F* o, const F* a, const F* b) const {
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) o[i] = fe_mul(a[i], b[i]);
  }
  template <int N>
  ZKGPU_HD void sq(F* o, const F* a) const {
    ZKGPU_UNROLL
    for (int i = 0; i < N; ++i) o[i] = fe_sq(a[i]);
  }
  // Two independent computations of the same code, fn(0) and fn(1), into out[0..1]: one after
  // the other here; a GPU tile runs them on two lanes at once.
  template <class T, class Fn>
  ZKGPU_HD void pair(T out[2], const Fn& fn) const {
    out[0] = fn(0);
    out[1] = fn(1);
  }
};

template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP2<F> ge_p1p1_to_p2(const GeP1P1<F>& p, const M& m = M{}) {
  const F a[3] = {p.X, p.Y, p.Z}, b[3] = {p.T, p.Z, p.T};
  F o[3];
  m.template mul<3>(o, a, b);
  return GeP2<F>{o[0], o[1], o[2]};
}
template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP3<F> ge_p1p1_to_p3(const GeP1P1<F>& p, const M& m = M{}) {
  const F a[4] = {p.X, p.Y, p.Z, p.X}, b[4] = {p.T, p.Z, p.T, p.Y};
  F o[4];
  m.template mul<4>(o, a, b);
  return GeP3<F>{o[0], o[1], o[2], o[3]};
}
template <class F>
ZKGPU_HD GeP2<F> ge_p3_to_p2(const GeP3<F>& p) {
  return GeP2<F>{p.X, p.Y, p.Z};
}
template <class F>
ZKGPU_HD GeCached<F> ge_p3_to_cached(const GeP3<F>& p) {
  return GeCached<F>{fe_add(p.Y, p.X), fe_sub(p.Y, p.X), p.Z, fe_mul(p.T, f_d2<F>())};
}

template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP1P1<F> ge_p2_dbl(const GeP2<F>& p, const M& m = M{}) {
  const F a[4] = {p.X, p.Y, p.Z, fe_add(p.X, p.Y)};
  F o[4];  // X^2, Y^2, Z^2, (X + Y)^2
  m.template sq<4>(o, a);
  GeP1P1<F> r;
  r.T = fe_add(o[2], o[2]);
  r.Y = fe_add(o[1], o[0]);
  r.Z = fe_sub(o[1], o[0]);
  r.X = fe_sub(o[3], r.Y);
  r.T = fe_sub(r.T, r.Z);
  return r;
}
template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP1P1<F> ge_p3_dbl(const GeP3<F>& p, const M& m = M{}) {
  return ge_p2_dbl(ge_p3_to_p2(p), m);
}

// p + q (sub = false) or p - q (sub = true).
template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP1P1<F> ge_add_cached(const GeP3<F>& p, const GeCached<F>& q, bool sub, const M& m = M{}) {
  const F a[4] = {fe_add(p.Y, p.X), fe_sub(p.Y, p.X), q.T2d, p.Z};
  const F b[4] = {sub ? q.YminusX : q.YplusX, sub ? q.YplusX : q.YminusX, p.T, q.Z};
  F o[4];  // A, B, C, ZZ
  m.template mul<4>(o, a, b);
  const F D = fe_add(o[3], o[3]);
  GeP1P1<F> r;
  r.X = fe_sub(o[0], o[1]);
  r.Y = fe_add(o[0], o[1]);
  r.Z = sub ? fe_sub(D, o[2]) : fe_add(D, o[2]);
  r.T = sub ? fe_add(D, o[2]) : fe_sub(D, o[2]);
  return r;
}

template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP1P1<F> ge_add_precomp(const GeP3<F>& p, const GePrecomp<F>& q, bool sub, const M& m = M{}) {
  const F a[3] = {fe_add(p.Y, p.X), fe_sub(p.Y, p.X), q.xy2d};
  const F b[3] = {sub ? q.yminusx : q.yplusx, sub ? q.yplusx : q.yminusx, p.T};
  F o[3];  // A, B, C
  m.template mul<3>(o, a, b);
  const F D = fe_add(p.Z, p.Z);
  GeP1P1<F> r;
  r.X = fe_sub(o[0], o[1]);
  r.Y = fe_add(o[0], o[1]);
  r.Z = sub ? fe_sub(D, o[2]) : fe_add(D, o[2]);
  r.T = sub ? fe_add(D, o[2]) : fe_sub(D, o[2]);
  return r;
}

template <class F>
ZKGPU_HD GePrecomp<F> ge_p3_to_precomp(const GeP3<F>& p) {  // one inversion: for fixed tables only
  const F zi = fe_invert(p.Z);
  const F x = fe_mul(p.X, zi), y = fe_mul(p.Y, zi);
  return GePrecomp<F>{fe_add(y, x), fe_sub(y, x), fe_mul(fe_mul(x, y), f_d2<F>())};
}

template <class F>
ZKGPU_HD void ge_p2_tobytes(uint8_t out[32], const GeP2<F>& p) {
  const F zi = fe_invert(p.Z);
  const F x = fe_mul(p.X, zi), y = fe_mul(p.Y, zi);
  fe_tobytes(out, y);
  out[31] ^= static_cast<uint8_t>(fe_is_negative(x) << 7);
}

// Projective identity test: X = 0 and Y = Z.
template <class F>
ZKGPU_HD bool ge_p2_is_identity(const GeP2<F>& p) {
  return fe_is_zero(p.X) && fe_equal(p.Y, p.Z);
}

// [8]P = O, i.e. P is one of the 8 torsion points.
template <class F>
ZKGPU_HD bool ge_has_small_order(const GeP3<F>& p) {
  GeP2<F> q = ge_p3_to_p2(p);
  for (int i = 0; i < 3; ++i) q = ge_p1p1_to_p2(ge_p2_dbl(q));
  return ge_p2_is_identity(q);
}

// How a 32-byte encoding is decoded (RFC 8032 section 5.1.3 and the lenient variants).
struct DecodeRules {
  bool reject_noncanonical_y;  // y >= p is an error (else y is taken mod p)
  bool reject_negative_zero;   // x = 0 with the sign bit set is an error (step 5)
};

// Decodes s into p; false when s is not a point under the rules.
template <class F>
ZKGPU_HD bool ge_frombytes(GeP3<F>& p, const uint8_t s[32], DecodeRules rules) {
  if (rules.reject_noncanonical_y) {
    // y >= p iff the low 255 bits are 2^255 - 19 .. 2^255 - 1.
    bool high_all_ones = (s[31] & 0x7f) == 0x7f && s[0] >= 0xed;
    for (int i = 1; i < 31 && high_all_ones; ++i) high_all_ones = s[i] == 0xff;
    if (high_all_ones) return false;
  }
  const int sign = s[31] >> 7;
  const F y = f_frombytes<F>(s);
  const F yy = fe_sq(y);
  const F u = fe_sub(yy, f_one<F>());                    // y^2 - 1
  const F v = fe_add(fe_mul(yy, f_d<F>()), f_one<F>());  // d y^2 + 1
  const F v3 = fe_mul(fe_sq(v), v);
  const F uv7 = fe_mul(fe_mul(fe_sq(v3), v), u);
  F x = fe_mul(fe_mul(fe_pow22523(uv7), v3), u);  // u v^3 (u v^7)^((p-5)/8)
  const F vxx = fe_mul(fe_sq(x), v);
  if (!fe_equal(vxx, u)) {
    if (!fe_equal(vxx, fe_neg(u))) return false;
    x = fe_mul(x, f_sqrtm1<F>());
  }
  const bool x_zero = fe_is_zero(x);
  if (x_zero && sign && rules.reject_negative_zero) return false;
  if (!x_zero && fe_is_negative(x) != sign) x = fe_neg(x);
  p.X = x;
  p.Y = y;
  p.Z = f_one<F>();
  p.T = fe_mul(x, y);
  return true;
}

}  // namespace zkgpu::ed25519
