// Multilinear tables and the weight polynomials of WHIR's constraints (spec §1), with x_0 the MSB
// of a table index everywhere. Loops over large tables run on OpenMP threads.
#pragma once
#include <span>
#include <utility>
#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"

namespace zkgpu::whir::poly {

using EF = BabyBear4;

// eq(p, j) * scale for j < 2^p.size(), built by doubling (each coordinate becomes the next LSB, so
// p[0] ends up the MSB). Inline: the GPU backend builds its small eq tables with it too.
inline std::vector<EF> eq_table(std::span<const EF> p, const EF& scale) {
  std::vector<EF> t(size_t(1) << p.size());
  t[0] = scale;
  size_t len = 1;
  for (const EF& pi : p) {
    for (size_t j = len; j-- > 0;) {
      EF hi = t[j] * pi;
      t[2 * j + 1] = hi;
      t[2 * j] = t[j] - hi;
    }
    len *= 2;
  }
  return t;
}

// W[j] += scale * eq(point, j) for j < 2^m, m = point.size() = log2(W.size()).
void add_eq_weights(std::span<EF> w, std::span<const EF> point, const EF& scale);
// The same for several points of m coordinates each (W[j] += sum_i scales[i] eq(points[i], j)), in
// one pass over W.
void add_eq_weights(std::span<EF> w, std::span<const std::vector<EF>> points, std::span<const EF> scales);
// W[j] += sum_l coeffs[l] * zs[l]^j: the select weights of STIR queries (select(z, .) at j is z^j).
void add_select_weights(std::span<EF> w, std::span<const BabyBear> zs, std::span<const EF> coeffs);

// (h(0), h(2)) of the sumcheck round binding the first variable of sum_x W(x) T(x).
std::pair<EF, EF> sumcheck_coeffs(std::span<const BabyBear> t, std::span<const EF> w);
std::pair<EF, EF> sumcheck_coeffs(std::span<const EF> t, std::span<const EF> w);

// Binds the first variable to r: out[j] = in[j] + r (in[j + h] - in[j]), h = in.size()/2.
std::vector<EF> fold(std::span<const BabyBear> in, const EF& r);
void fold_in_place(std::vector<EF>& t, const EF& r);  // resizes t to half

EF evaluate(std::span<const BabyBear> t, std::span<const EF> point);
EF evaluate(std::span<const EF> t, std::span<const EF> point);

// (z^(2^(m-1)), ..., z^2, z): the point whose multilinear evaluation an OOD answer is.
std::vector<EF> expand_from_univariate(const EF& z, unsigned m);

// Verifier-side weight evaluations at a point R of m coordinates.
EF eq_eval(std::span<const EF> p, std::span<const EF> r);
EF select_eval(const EF& z, std::span<const EF> r);  // prod_i (r_i (z^(2^(m-1-i)) - 1) + 1)
EF horner(std::span<const EF> coeffs, const EF& z);  // sum_j coeffs[j] z^j

// h(r) from h(0), h(1), h(2) by Lagrange interpolation on {0, 1, 2}.
EF interpolate_012(const EF& h0, const EF& h1, const EF& h2, const EF& r);

inline EF ef_from_base(BabyBear a) { return EF::from_base(a); }
inline EF ef_from_u64(uint64_t x) { return EF::from_base(BabyBear::from_u64(x)); }

}  // namespace zkgpu::whir::poly
