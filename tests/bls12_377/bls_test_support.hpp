// Helpers for the BLS12-377 tests: random field elements, scalars and points with known discrete
// logarithms (docs/specs/msm.md §5), and a naive affine adder as the reference.
#pragma once
#include <omp.h>

#include <vector>

#include "support/test_support.hpp"
#include "zkgpu/bls12_377.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {

using bls12_377::Fp;
using bls12_377::Fr;
using bls12_377::G1Affine;
using bls12_377::G1Jacobian;
using bls12_377::Scalar;

inline Fp random_fp(Rng& rng) {
  bls12_377::FpRepr v{};
  for (auto& w : v.l) w = rng.gen();
  v.l[5] &= (uint64_t{1} << 56) - 1;  // < 2^376 < p
  return Fp::from_canonical(v);
}
inline Scalar random_scalar(Rng& rng) {
  Scalar v{};
  for (auto& w : v.l) w = rng.gen();
  return bls12_377::reduce_scalar(v);
}
inline Fr random_fr(Rng& rng) { return Fr::from_canonical(random_scalar(rng)); }

inline Scalar scalar_u64(uint64_t v) {
  Scalar s{};
  s.l[0] = v;
  return s;
}
inline Scalar r_minus(uint64_t k) {
  Scalar s{};
  s = bls12_377::FrConfig::modulus();
  s.l[0] -= k;  // r ends in ...0001, fine for k <= 1
  return s;
}

inline G1Affine mul_g(const Scalar& k) {
  return bls12_377::jac_to_affine(bls12_377::scalar_mul(G1Affine::generator(), k));
}

// Affine addition by the chord-and-tangent rule with field inversions: the independent reference.
inline G1Affine naive_add(const G1Affine& p, const G1Affine& q) {
  if (p.infinity) return q;
  if (q.infinity) return p;
  Fp lambda;
  if (p.x == q.x) {
    if (p.y != q.y || p.y.is_zero()) return G1Affine::identity();
    Fp xx = p.x.square();
    lambda = (xx.dbl() + xx) * p.y.dbl().inverse();
  } else {
    lambda = (q.y - p.y) * (q.x - p.x).inverse();
  }
  Fp x3 = lambda.square() - p.x - q.x;
  return {x3, lambda * (p.x - x3) - p.y, false};
}

// Jacobian points to affine with one inversion per thread (Montgomery's trick).
inline std::vector<G1Affine> batch_to_affine(const std::vector<G1Jacobian>& pts) {
  std::vector<G1Affine> out(pts.size());
#pragma omp parallel
  {
    size_t nt = omp_get_num_threads(), id = omp_get_thread_num(), n = pts.size();
    size_t lo = n * id / nt, hi = n * (id + 1) / nt;
    std::vector<Fp> prefix(hi - lo);
    Fp acc = Fp::one();
    for (size_t i = lo; i < hi; ++i) {
      prefix[i - lo] = acc;
      if (!pts[i].is_identity()) acc *= pts[i].z;
    }
    Fp inv = acc.inverse();
    for (size_t i = hi; i-- > lo;) {
      if (pts[i].is_identity()) {
        out[i] = G1Affine::identity();
        continue;
      }
      Fp zi = inv * prefix[i - lo];
      inv *= pts[i].z;
      Fp zi2 = zi.square();
      out[i] = {pts[i].x * zi2, pts[i].y * zi2 * zi, false};
    }
  }
  return out;
}

// a_i * G for many a_i: a fixed-base table of 32 byte-windows x 256 multiples of G, so each point
// costs 32 mixed additions (fast enough for 2^20 points in a test).
inline std::vector<G1Affine> points_with_dlogs(const std::vector<Scalar>& a) {
  std::vector<G1Jacobian> table_j(32 * 256);
  G1Jacobian base = G1Jacobian::from_affine(G1Affine::generator());
  for (int w = 0; w < 32; ++w) {
    G1Jacobian m = G1Jacobian::identity();
    for (int k = 0; k < 256; ++k) {
      table_j[w * 256 + k] = m;
      m = bls12_377::jac_add(m, base);
    }
    base = m;  // 256 * previous base
  }
  std::vector<G1Affine> table = batch_to_affine(table_j);
  std::vector<G1Jacobian> pts(a.size());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < a.size(); ++i) {
    G1Jacobian acc = G1Jacobian::identity();
    for (int w = 0; w < 32; ++w) {
      unsigned byte = (a[i].l[w / 8] >> (8 * (w % 8))) & 0xff;
      acc = bls12_377::jac_add_mixed(acc, table[w * 256 + byte]);
    }
    pts[i] = acc;
  }
  return batch_to_affine(pts);
}

// (sum a_i s_i mod r) * G: the expected MSM for points with known discrete logs.
inline G1Affine expected_msm(const std::vector<Scalar>& a, const std::vector<Scalar>& s) {
  Fr acc = Fr::zero();
  for (size_t i = 0; i < a.size(); ++i) acc += Fr::from_canonical(a[i]) * Fr::from_canonical(s[i]);
  return mul_g(acc.canonical());
}

}  // namespace zkgpu::test
