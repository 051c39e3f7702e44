// BLS12-377 G1: y^2 = x^3 + 1 in short-Weierstrass form (affine, Jacobian, XYZZ) and the scaled
// twisted-Edwards form -X^2 + Y^2 = 1 + d X^2 Y^2 (a = -1) with the birational map of
// docs/specs/msm.md §2. Formulas are the EFD ones named at each function (§3 of the spec).
//
// Root choice of the map: c = sqrt(-a_te) is the value 0x1870a70a...cbc191d of the spec (Jump
// CycloneMSM's FQ_SQRT_MIN_A), used in both directions. arkworks' TE model uses p - c, so its TE
// coordinates are (-X, Y) of ours; the Weierstrass results are identical.
#pragma once
#include "zkgpu/core/bls12_377/field.hpp"

namespace zkgpu::bls12_377 {

namespace curve_consts {
// All in Montgomery form (derived from the canonical values of docs/specs/msm.md §2 with
// the derivation tests/vectors/bls12_377/PROVENANCE.md describes).
ZKGPU_HD constexpr Fp s() {
  return Fp{{0x6de9ca9ad831a0a2ull, 0xa8aff4220eb51c8eull, 0x5a76e6c593607959ull, 0x57f38956d3806339ull,
             0xc50636f4a0c6fe30ull, 0x018f4652f52bfd14ull}};
}  // 1/sqrt(3)
ZKGPU_HD constexpr Fp s_inv() {
  return Fp{{0x3fabdfd08894e1e4ull, 0xcbf921ddcc1f55aaull, 0xd17deff1460edc0cull, 0xd394e81e7897028dull,
             0xc29c995d0912681aull, 0x01515e6caff9d568ull}};
}
ZKGPU_HD constexpr Fp c() {
  return Fp{{0x898cb5471529fa1dull, 0xe0cfc9724d8ad385ull, 0x4ccef9faa5bd62c9ull, 0x2e96e315be55f317ull,
             0x8b9c081e6a6c7517ull, 0x0071c1025db89e46ull}};
}
ZKGPU_HD constexpr Fp d() {
  return Fp{{0x7925bf4222538363ull, 0xf57011bac07d547dull, 0x07a6be793f79c7d2ull, 0x2acb84bee2f95d93ull,
             0x45fb60ee86cad49full, 0x00bc23017dffb145ull}};
}
ZKGPU_HD constexpr Fp k() {
  return Fp{{0xf24b7e8444a706c6ull, 0xeae0237580faa8faull, 0x0f4d7cf27ef38fa5ull, 0x5597097dc5f2bb26ull,
             0x8bf6c1dd0d95a93eull, 0x01784602fbff628aull}};
}  // 2d
ZKGPU_HD constexpr Fp gx() {
  return Fp{{0x260f33b9772451f4ull, 0xc54dd773169d5658ull, 0x5c1551c469a510ddull, 0x761662e4425e1698ull,
             0xc97d78cc6f065272ull, 0x00a41206b361fd4dull}};
}
ZKGPU_HD constexpr Fp gy() {
  return Fp{{0x8193961fb8cb81f3ull, 0x00638d4c5f44adb8ull, 0xfafaf3dad4daf54aull, 0xc27849e2d655cd18ull,
             0x2ec3ddb401d52814ull, 0x007da93326303c71ull}};
}
}  // namespace curve_consts

struct G1Affine {
  Fp x, y;
  bool infinity;
  ZKGPU_HD static constexpr G1Affine identity() { return {Fp::zero(), Fp::zero(), true}; }
  ZKGPU_HD static constexpr G1Affine generator() { return {curve_consts::gx(), curve_consts::gy(), false}; }
  ZKGPU_HD constexpr bool operator==(const G1Affine& o) const {
    return infinity ? o.infinity : (!o.infinity && x == o.x && y == o.y);
  }
  ZKGPU_HD constexpr G1Affine neg() const { return infinity ? *this : G1Affine{x, -y, false}; }
  // y^2 = x^3 + 1 (the identity counts as on the curve).
  ZKGPU_HD constexpr bool on_curve() const { return infinity || y.square() == x.square() * x + Fp::one(); }
};

// Jacobian (x = X/Z^2, y = Y/Z^3); Z = 0 is the identity.
struct G1Jacobian {
  Fp x, y, z;
  ZKGPU_HD static constexpr G1Jacobian identity() { return {Fp::one(), Fp::one(), Fp::zero()}; }
  ZKGPU_HD static constexpr G1Jacobian from_affine(const G1Affine& a) {
    return a.infinity ? identity() : G1Jacobian{a.x, a.y, Fp::one()};
  }
  ZKGPU_HD constexpr bool is_identity() const { return z.is_zero(); }
};

// dbl-2009-l (a = 0): 2M + 5S.
ZKGPU_HD constexpr G1Jacobian jac_double(const G1Jacobian& p) {
  if (p.is_identity()) return p;
  Fp a = p.x.square(), b = p.y.square(), c = b.square();
  Fp d = ((p.x + b).square() - a - c).dbl();
  Fp e = a.dbl() + a, f = e.square();
  Fp x3 = f - d.dbl();
  Fp y3 = e * (d - x3) - c.dbl().dbl().dbl();
  Fp z3 = (p.y * p.z).dbl();
  return {x3, y3, z3};
}

// add-2007-bl with the doubling and inverse cases: 11M + 5S.
ZKGPU_HD constexpr G1Jacobian jac_add(const G1Jacobian& p, const G1Jacobian& q) {
  if (p.is_identity()) return q;
  if (q.is_identity()) return p;
  Fp z1z1 = p.z.square(), z2z2 = q.z.square();
  Fp u1 = p.x * z2z2, u2 = q.x * z1z1;
  Fp s1 = p.y * q.z * z2z2, s2 = q.y * p.z * z1z1;
  Fp h = u2 - u1, rr = (s2 - s1).dbl();
  if (h.is_zero()) return rr.is_zero() ? jac_double(p) : G1Jacobian::identity();
  Fp i = h.dbl().square(), j = h * i, v = u1 * i;
  Fp x3 = rr.square() - j - v.dbl();
  Fp y3 = rr * (v - x3) - (s1 * j).dbl();
  Fp z3 = ((p.z + q.z).square() - z1z1 - z2z2) * h;
  return {x3, y3, z3};
}

// madd-2007-bl (Z2 = 1) with the special cases: 7M + 4S.
ZKGPU_HD constexpr G1Jacobian jac_add_mixed(const G1Jacobian& p, const G1Affine& q) {
  if (q.infinity) return p;
  if (p.is_identity()) return G1Jacobian::from_affine(q);
  Fp z1z1 = p.z.square();
  Fp u2 = q.x * z1z1, s2 = q.y * p.z * z1z1;
  Fp h = u2 - p.x, rr = (s2 - p.y).dbl();
  if (h.is_zero()) return rr.is_zero() ? jac_double(p) : G1Jacobian::identity();
  Fp hh = h.square(), i = hh.dbl().dbl(), j = h * i, v = p.x * i;
  Fp x3 = rr.square() - j - v.dbl();
  Fp y3 = rr * (v - x3) - (p.y * j).dbl();
  Fp z3 = (p.z + h).square() - z1z1 - hh;
  return {x3, y3, z3};
}

// XYZZ (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2); ZZ = 0 is the identity.
struct G1Xyzz {
  Fp x, y, zz, zzz;
  ZKGPU_HD static constexpr G1Xyzz identity() { return {Fp::one(), Fp::one(), Fp::zero(), Fp::zero()}; }
  ZKGPU_HD constexpr bool is_identity() const { return zz.is_zero(); }
};

// mdbl-2008-s-1 (Z = 1): 2M + 3S... written for an affine input.
ZKGPU_HD constexpr G1Xyzz xyzz_double_affine(const G1Affine& q) {
  if (q.infinity || q.y.is_zero()) return G1Xyzz::identity();
  Fp u = q.y.dbl(), v = u.square(), w = u * v, s = q.x * v;
  Fp xx = q.x.square(), m = xx.dbl() + xx;
  Fp x3 = m.square() - s.dbl();
  Fp y3 = m * (s - x3) - w * q.y;
  return {x3, y3, v, w};
}
// dbl-2008-s-1 (a = 0): 6M + 4S.
ZKGPU_HD constexpr G1Xyzz xyzz_double(const G1Xyzz& p) {
  if (p.is_identity()) return p;
  Fp u = p.y.dbl(), v = u.square(), w = u * v, s = p.x * v;
  Fp xx = p.x.square(), m = xx.dbl() + xx;
  Fp x3 = m.square() - s.dbl();
  Fp y3 = m * (s - x3) - w * p.y;
  return {x3, y3, v * p.zz, w * p.zzz};
}
// madd-2008-s: 8M + 2S, with the P = Q (mdbl) and P = -Q (identity) branches of the spec §3.
ZKGPU_HD constexpr G1Xyzz xyzz_add_mixed(const G1Xyzz& p, const G1Affine& q) {
  if (q.infinity) return p;
  if (p.is_identity()) return {q.x, q.y, Fp::one(), Fp::one()};
  Fp u2 = q.x * p.zz, s2 = q.y * p.zzz;
  Fp pp_ = u2 - p.x, rr = s2 - p.y;
  if (pp_.is_zero()) return rr.is_zero() ? xyzz_double_affine(q) : G1Xyzz::identity();
  Fp pp = pp_.square(), ppp = pp_ * pp, qq = p.x * pp;
  Fp x3 = rr.square() - ppp - qq.dbl();
  Fp y3 = rr * (qq - x3) - p.y * ppp;
  return {x3, y3, p.zz * pp, p.zzz * ppp};
}
// add-2008-s: 12M + 2S.
ZKGPU_HD constexpr G1Xyzz xyzz_add(const G1Xyzz& p, const G1Xyzz& q) {
  if (p.is_identity()) return q;
  if (q.is_identity()) return p;
  Fp u1 = p.x * q.zz, u2 = q.x * p.zz, s1 = p.y * q.zzz, s2 = q.y * p.zzz;
  Fp pp_ = u2 - u1, rr = s2 - s1;
  if (pp_.is_zero()) return rr.is_zero() ? xyzz_double(p) : G1Xyzz::identity();
  Fp pp = pp_.square(), ppp = pp_ * pp, qq = u1 * pp;
  Fp x3 = rr.square() - ppp - qq.dbl();
  Fp y3 = rr * (qq - x3) - s1 * ppp;
  return {x3, y3, p.zz * q.zz * pp, p.zzz * q.zzz * ppp};
}

// Twisted Edwards, extended coordinates (X : Y : Z : T), x = X/Z, y = Y/Z, T = XY/Z.
struct TeExtended {
  Fp x, y, z, t;
  ZKGPU_HD static constexpr TeExtended identity() { return {Fp::zero(), Fp::one(), Fp::one(), Fp::zero()}; }
  ZKGPU_HD constexpr TeExtended neg() const { return {-x, y, z, -t}; }
  ZKGPU_HD constexpr bool is_identity() const { return x.is_zero() && y == z; }
};

// An affine TE point stored for the mixed adder: (y - x, y + x, 2d*x*y), so one addition costs
// 7M and no multiplication by a constant (the "XYT + stored kT" row of docs/specs/msm.md §7).
// The identity is (1, 1, 0). Negation swaps the first two words and negates the third.
struct TePrecomputed {
  Fp ymx, ypx, kt;
  ZKGPU_HD static constexpr TePrecomputed identity() { return {Fp::one(), Fp::one(), Fp::zero()}; }
  ZKGPU_HD constexpr TePrecomputed neg() const { return {ypx, ymx, -kt}; }
};
static_assert(sizeof(TePrecomputed) == 144 && sizeof(TeExtended) == 192);

ZKGPU_HD constexpr TePrecomputed te_precompute(const Fp& x, const Fp& y) {
  return {y - x, y + x, curve_consts::k() * x * y};
}

// madd-2008-hwcd-3 (a = -1, Z2 = 1) with k*T2 stored, 7M, of p and neg ? -q : q for a stored q:
// the same bytes as adding q.neg(), with the sign applied inside the adder. The caller passes q's
// first two words already swapped when neg (the GPU bucket sums pick them by address), and
// c = T1*kt goes into F and G swapped instead of kt being negated (d - (-c) = d + c). A negative
// digit then costs 24 word selects instead of a modular negation and 36 selects.
ZKGPU_HD constexpr TeExtended te_add_precomputed_signed(const TeExtended& p, const Fp& ymx, const Fp& ypx, const Fp& kt,
                                                        bool neg) {
  Fp a = (p.y - p.x) * ymx, b = (p.y + p.x) * ypx;
  Fp c = p.t * kt, d = p.z.dbl();
  Fp e = b - a, dm = d - c, dp = d + c, h = b + a;
  const uint64_t m = uint64_t{0} - static_cast<uint64_t>(neg);  // branch-free: lanes of a warp differ
  Fp f{}, g{};
  for (int i = 0; i < 6; ++i) {
    f.l[i] = (dp.l[i] & m) | (dm.l[i] & ~m);
    g.l[i] = (dm.l[i] & m) | (dp.l[i] & ~m);
  }
  return {e * f, g * h, f * g, e * h};
}

// p + q for a stored q. Unified: on G1 (odd order) it has no exceptional case, so it also doubles
// and adds the identity (spec §2 "Completeness").
ZKGPU_HD constexpr TeExtended te_add_precomputed(const TeExtended& p, const TePrecomputed& q) {
  return te_add_precomputed_signed(p, q.ymx, q.ypx, q.kt, false);  // the selects fold away
}

// add-2008-hwcd-3 (a = -1), unified: 8M + one multiplication by k = 2d.
ZKGPU_HD constexpr TeExtended te_add(const TeExtended& p, const TeExtended& q) {
  Fp a = (p.y - p.x) * (q.y - q.x), b = (p.y + p.x) * (q.y + q.x);
  Fp c = p.t * curve_consts::k() * q.t, d = (p.z * q.z).dbl();
  Fp e = b - a, f = d - c, g = d + c, h = b + a;
  return {e * f, g * h, f * g, e * h};
}

// dbl-2008-hwcd (a = -1): 4M + 4S.
ZKGPU_HD constexpr TeExtended te_double(const TeExtended& p) {
  Fp a = p.x.square(), b = p.y.square(), c = p.z.square().dbl();
  Fp d = -a;
  Fp e = (p.x + p.y).square() - a - b, g = d + b, f = g - c, h = d - b;
  return {e * f, g * h, f * g, e * h};
}

// Forward map for one affine point (spec §2): X = c(x+1)/y, Y = (u-1)/(u+1), u = s(x+1), with
// the single inversion of Z = y(u+1). Returns false for the five exceptional points (y = 0 or
// u = -1), none of which is in G1.
ZKGPU_HD constexpr bool sw_to_te_fractions(const G1Affine& p, Fp& xn, Fp& yn, Fp& den) {
  Fp x1 = p.x + Fp::one();
  Fp u = curve_consts::s() * x1;
  Fp up1 = u + Fp::one();
  xn = curve_consts::c() * x1 * up1;
  yn = (u - Fp::one()) * p.y;
  den = p.y * up1;
  return !den.is_zero();
}

// Bases to the stored TE form with one inversion for `count` points (Montgomery's trick; the
// fractions are recomputed in the backward pass, so the only scratch is `prefix`, count elements).
// The identity, and any point where the map is undefined, becomes the TE identity (1, 1, 0).
// Returns the index of the first point where the map is undefined (never in G1), or count.
// Run per CPU thread by precompute_te and per GPU thread by the from-host MSM.
ZKGPU_HD size_t sw_to_te_batch(const G1Affine* in, TePrecomputed* out, size_t count, Fp* prefix) {
  size_t bad = count;
  Fp acc = Fp::one();
  for (size_t i = 0; i < count; ++i) {
    Fp xn, yn, den;
    if (in[i].infinity || !sw_to_te_fractions(in[i], xn, yn, den)) {
      if (!in[i].infinity && bad == count) bad = i;
      den = Fp::one();
    }
    prefix[i] = acc;
    acc *= den;
  }
  Fp inv = acc.inverse();
  for (size_t i = count; i-- > 0;) {
    Fp xn, yn, den;
    if (in[i].infinity || !sw_to_te_fractions(in[i], xn, yn, den)) {
      out[i] = TePrecomputed::identity();
      continue;
    }
    Fp di = inv * prefix[i];
    inv *= den;
    out[i] = te_precompute(xn * di, yn * di);
  }
  return bad;
}

// Inverse map from affine TE (X, Y) != (0, 1): u = (1+Y)/(1-Y), x = u/s - 1, y = c*u/(X*s), with
// one inversion of (1-Y)*X.
ZKGPU_HD constexpr G1Affine te_affine_to_sw(const Fp& X, const Fp& Y) {
  if (X.is_zero()) return G1Affine::identity();  // on G1 only the identity has X = 0
  Fp one = Fp::one();
  Fp inv = ((one - Y) * X).inverse();
  Fp u_over_x = (one + Y) * inv;  // u/X = (1+Y)/((1-Y)X)
  Fp u = u_over_x * X;            // (1+Y)/(1-Y)
  Fp s_inv = curve_consts::s_inv();
  Fp x = u * s_inv - one;
  Fp y = curve_consts::c() * u_over_x * s_inv;
  return {x, y, false};
}

ZKGPU_HD constexpr G1Affine te_to_sw(const TeExtended& p) {
  Fp zi = p.z.inverse();
  return te_affine_to_sw(p.x * zi, p.y * zi);
}

ZKGPU_HD constexpr G1Affine jac_to_affine(const G1Jacobian& p) {
  if (p.is_identity()) return G1Affine::identity();
  Fp zi = p.z.inverse(), zi2 = zi.square();
  return {p.x * zi2, p.y * zi2 * zi, false};
}

ZKGPU_HD constexpr G1Affine xyzz_to_affine(const G1Xyzz& p) {
  if (p.is_identity()) return G1Affine::identity();
  return {p.x * p.zz.inverse(), p.y * p.zzz.inverse(), false};
}

// k*P by double-and-add over all bits of k (variable time: public data only).
template <int E>
ZKGPU_HD constexpr G1Jacobian scalar_mul(const G1Affine& p, const BigInt<E>& k) {
  G1Jacobian acc = G1Jacobian::identity();
  for (int i = 64 * E - 1; i >= 0; --i) {
    acc = jac_double(acc);
    if (k.bit(static_cast<unsigned>(i))) acc = jac_add_mixed(acc, p);
  }
  return acc;
}

}  // namespace zkgpu::bls12_377
