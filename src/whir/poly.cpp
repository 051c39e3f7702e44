#include "whir/poly.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir::poly {

#pragma omp declare reduction(ef_add:BabyBear4 : omp_out += omp_in) initializer(omp_priv = BabyBear4::zero())

namespace {

// Below this many table entries the thread start-up costs more than the loop.
constexpr size_t PAR_MIN = size_t(1) << 13;

template <class T>
EF mul_mixed(const EF& a, const T& b) {
  return a * b;
}

template <class T>
std::pair<EF, EF> coeffs_impl(std::span<const T> t, std::span<const EF> w) {
  const size_t h = t.size() / 2;
  EF a0 = EF::zero(), a2 = EF::zero();
#pragma omp parallel for reduction(ef_add : a0, a2) schedule(static) if (h >= PAR_MIN)
  for (size_t i = 0; i < h; ++i) {
    const T tl = t[i], th = t[i + h];
    const EF wl = w[i], wh = w[i + h];
    a0 += mul_mixed(wl, tl);
    const T t2 = th + th - tl;
    a2 += mul_mixed(wh + wh - wl, t2);
  }
  return {a0, a2};
}

// f^(p) = sum_h eq(p_hi, h) sum_l eq(p_lo, l) T[h L + l]: the inner sums multiply T by a small
// eq table (base x EF: 4 products for a base table), so the table is read once and nothing of
// its size is allocated, where folding it variable by variable would write half of it in EF.
template <class T>
EF evaluate_impl(std::span<const T> t, std::span<const EF> point) {
  const size_t m = point.size();
  const size_t lo_bits = std::min<size_t>(m, 10);
  const std::vector<EF> hi = eq_table(point.subspan(0, m - lo_bits), EF::one());
  const std::vector<EF> lo = eq_table(point.subspan(m - lo_bits), EF::one());
  const size_t len = lo.size();
  EF acc = EF::zero();
#pragma omp parallel for reduction(ef_add : acc) schedule(static) if (t.size() >= PAR_MIN)
  for (size_t h = 0; h < hi.size(); ++h) {
    const T* row = t.data() + h * len;
    EF s = EF::zero();
    for (size_t l = 0; l < len; ++l) s += lo[l] * row[l];
    acc += hi[h] * s;
  }
  return acc;
}

}  // namespace

void add_eq_weights(std::span<EF> w, std::span<const EF> point, const EF& scale) {
  const size_t m = point.size();
  const size_t lo_bits = m / 2;
  const std::vector<EF> hi = eq_table(point.subspan(0, m - lo_bits), scale);
  const std::vector<EF> lo = eq_table(point.subspan(m - lo_bits), EF::one());
  const size_t mask = (size_t(1) << lo_bits) - 1;
#pragma omp parallel for schedule(static) if (w.size() >= PAR_MIN)
  for (size_t j = 0; j < w.size(); ++j) w[j] += hi[j >> lo_bits] * lo[j & mask];
}

void add_eq_weights(std::span<EF> w, std::span<const std::vector<EF>> points, std::span<const EF> scales) {
  if (points.empty()) return;
  const size_t m = points[0].size();
  const size_t lo_bits = m / 2;
  std::vector<std::vector<EF>> his, los;
  for (size_t i = 0; i < points.size(); ++i) {
    const std::span<const EF> pt(points[i]);
    his.push_back(eq_table(pt.subspan(0, m - lo_bits), scales[i]));
    los.push_back(eq_table(pt.subspan(m - lo_bits), EF::one()));
  }
  const size_t mask = (size_t(1) << lo_bits) - 1;
  // One pass over W for all the points: W is read and written once, not once per point.
#pragma omp parallel for schedule(static) if (w.size() >= PAR_MIN)
  for (size_t j = 0; j < w.size(); ++j) {
    EF acc = w[j];
    for (size_t i = 0; i < his.size(); ++i) acc += his[i][j >> lo_bits] * los[i][j & mask];
    w[j] = acc;
  }
}

void add_select_weights(std::span<EF> w, std::span<const BabyBear> zs, std::span<const EF> coeffs) {
  constexpr size_t CHUNK = 2048;  // 32 KiB of EF: stays in L1/L2 across the queries
  const size_t n_chunks = (w.size() + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (w.size() >= PAR_MIN)
  for (size_t c = 0; c < n_chunks; ++c) {
    const size_t j0 = c * CHUNK, j1 = std::min(w.size(), j0 + CHUNK);
    for (size_t l = 0; l < zs.size(); ++l) {
      const BabyBear z = zs[l];
      EF acc = coeffs[l] * z.pow(j0);
      for (size_t j = j0; j < j1; ++j) {
        w[j] += acc;
        acc = acc * z;
      }
    }
  }
}

std::pair<EF, EF> sumcheck_coeffs(std::span<const BabyBear> t, std::span<const EF> w) { return coeffs_impl(t, w); }
std::pair<EF, EF> sumcheck_coeffs(std::span<const EF> t, std::span<const EF> w) { return coeffs_impl(t, w); }

std::vector<EF> fold(std::span<const BabyBear> in, const EF& r) {
  const size_t h = in.size() / 2;
  std::vector<EF> out(h);
#pragma omp parallel for schedule(static) if (h >= PAR_MIN)
  for (size_t j = 0; j < h; ++j) {
    EF v = r * (in[j + h] - in[j]);
    v.c[0] += in[j];
    out[j] = v;
  }
  return out;
}

void fold_in_place(std::vector<EF>& t, const EF& r) {
  const size_t h = t.size() / 2;
#pragma omp parallel for schedule(static) if (h >= PAR_MIN)
  for (size_t j = 0; j < h; ++j) t[j] += r * (t[j + h] - t[j]);
  t.resize(h);
}

EF evaluate(std::span<const BabyBear> t, std::span<const EF> point) { return evaluate_impl(t, point); }
EF evaluate(std::span<const EF> t, std::span<const EF> point) { return evaluate_impl(t, point); }

std::vector<EF> expand_from_univariate(const EF& z, unsigned m) {
  std::vector<EF> out(m);
  EF cur = z;
  for (unsigned i = m; i-- > 0;) {
    out[i] = cur;
    cur = cur.square();
  }
  return out;
}

EF eq_eval(std::span<const EF> p, std::span<const EF> r) {
  EF acc = EF::one();
  for (size_t i = 0; i < p.size(); ++i) {
    const EF pr = p[i] * r[i];
    acc *= pr + pr + EF::one() - p[i] - r[i];  // p r + (1 - p)(1 - r)
  }
  return acc;
}

EF select_eval(const EF& z, std::span<const EF> r) {
  const size_t m = r.size();
  EF acc = EF::one(), zp = z;  // zp = z^(2^(m-1-i)) for i from m-1 down
  for (size_t i = m; i-- > 0;) {
    acc *= r[i] * (zp - EF::one()) + EF::one();
    zp = zp.square();
  }
  return acc;
}

EF horner(std::span<const EF> coeffs, const EF& z) {
  EF acc = EF::zero();
  for (size_t j = coeffs.size(); j-- > 0;) acc = acc * z + coeffs[j];
  return acc;
}

EF interpolate_012(const EF& h0, const EF& h1, const EF& h2, const EF& r) {
  const EF one = EF::one(), two = one + one;
  const EF rm1 = r - one, rm2 = r - two;
  const BabyBear inv2 = BabyBear::one().halve();
  return h0 * (rm1 * rm2) * inv2 - h1 * (r * rm2) + h2 * (r * rm1) * inv2;
}

}  // namespace zkgpu::whir::poly

namespace zkgpu::whir {

BabyBear4 evaluate_multilinear(std::span<const BabyBear> table, std::span<const BabyBear4> point) {
  if (table.size() != (size_t(1) << point.size()))
    throw_invalid("evaluate_multilinear: a table of " + std::to_string(table.size()) +
                  " values needs log2 = " + "point size " + std::to_string(point.size()));
  return poly::evaluate(table, point);
}

BabyBear4 evaluate_multilinear(std::span<const BabyBear4> table, std::span<const BabyBear4> point) {
  if (table.size() != (size_t(1) << point.size()))
    throw_invalid("evaluate_multilinear: a table of " + std::to_string(table.size()) +
                  " values needs log2 = " + "point size " + std::to_string(point.size()));
  return poly::evaluate(table, point);
}

}  // namespace zkgpu::whir
