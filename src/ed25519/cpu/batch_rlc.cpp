// ZIP-215 batch verification by a random linear combination (spec section 1.2): one multi-scalar
// multiplication [8]((sum z_i S_i) B - sum z_i R_i - sum (z_i k_i) A_i) = O. It agrees with the
// single verdicts only because ZIP-215 is cofactored; the cofactorless modes never use it.
// The MSM is Pippenger's bucket method with the windows computed in parallel.
#include <sys/random.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "ed25519/cpu/verify_cpu.hpp"
#include "zkgpu/ed25519.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

using namespace ed25519;
using F = cpu::HostFe;
using P2 = GeP2<F>;
using P3 = GeP3<F>;
using Cached = GeCached<F>;

struct Prepared {
  Cached neg_a, neg_r;  // -A_i and -R_i, ready for additions
  Scalar s, k;
  bool ok = false;  // passed the prechecks (lengths, S < L, A and R decode)
};

template <class Src>
Prepared prepare(const Src& items, size_t i) {
  Prepared p;
  if (!items.well_formed(i)) return p;
  const uint8_t* pk = items.public_key(i);
  const uint8_t* sig = items.signature(i);
  P3 a, r;
  if (!ed25519_precheck(VerifyMode::Zip215, pk, sig, a, r)) return p;
  auto neg = [](P3 q) {
    q.X = fe_neg(q.X);
    q.T = fe_neg(q.T);
    return ge_p3_to_cached(q);
  };
  p.neg_a = neg(a);
  p.neg_r = neg(r);
  p.s = scalar_from_bytes(sig + 32);
  const std::span<const uint8_t> msg = items.message(i);
  p.k = ed25519_challenge(sig, pk, msg.data(), msg.size());
  p.ok = true;
  return p;
}

template <class Src>
std::vector<Prepared> prepare_all(const Src& items) {
  std::vector<Prepared> prep(items.size());
  const auto n = static_cast<int64_t>(items.size());
#pragma omp parallel for schedule(dynamic, 8) if (n >= 16)
  for (int64_t i = 0; i < n; ++i) prep[static_cast<size_t>(i)] = prepare(items, static_cast<size_t>(i));
  return prep;
}

// 128-bit coefficients: from the OS CSPRNG (unpredictable to signers), or a seeded generator for tests.
class Coefficients {
 public:
  explicit Coefficients(std::optional<uint64_t> seed) : seeded_(seed.has_value()), gen_(seed.value_or(0)) {}
  Scalar next() {
    uint64_t w[2];
    if (seeded_) {
      w[0] = gen_();
      w[1] = gen_();
    } else {
      size_t got = 0;
      while (got < sizeof w) {
        const ssize_t r = getrandom(reinterpret_cast<uint8_t*>(w) + got, sizeof w - got, 0);
        if (r <= 0) throw Error(ErrorCode::Unavailable, "ed25519: getrandom failed; cannot draw batch coefficients");
        got += static_cast<size_t>(r);
      }
    }
    return Scalar{{w[0], w[1] | 1, 0, 0}};  // nonzero
  }

 private:
  bool seeded_;
  std::mt19937_64 gen_;
};

unsigned window_bits(size_t points) {
  unsigned c = 4;
  while (c < 16 && (size_t{1} << (c + 3)) < points) ++c;  // about log2(points) - 3
  return c;
}

unsigned scalar_window(const Scalar& s, unsigned start, unsigned c) {
  const unsigned word = start / 64, bit = start % 64;
  uint64_t v = s.w[word] >> bit;
  if (bit + c > 64 && word + 1 < 4) v |= s.w[word + 1] << (64 - bit);
  return static_cast<unsigned>(v & ((uint64_t{1} << c) - 1));
}

P3 add(const P3& p, const Cached& q) { return ge_p1p1_to_p3(ge_add_cached(p, q, false)); }

// sum_i scalars[i] * points[i] (scalars < 2^253).
P3 msm(const std::vector<Cached>& points, const std::vector<Scalar>& scalars) {
  const unsigned c = window_bits(points.size());
  const unsigned windows = (253 + c - 1) / c;
  std::vector<P3> window_sum(windows);
#pragma omp parallel for schedule(dynamic, 1)
  for (int w = 0; w < static_cast<int>(windows); ++w) {
    std::vector<P3> buckets(size_t{1} << c, ge_identity<F>());
    std::vector<uint8_t> used(size_t{1} << c, 0);
    for (size_t i = 0; i < points.size(); ++i) {
      const unsigned d = scalar_window(scalars[i], static_cast<unsigned>(w) * c, c);
      if (!d) continue;
      buckets[d] = used[d] ? add(buckets[d], points[i]) : add(ge_identity<F>(), points[i]);
      used[d] = 1;
    }
    // sum_d d * bucket[d] as a running sum from the top bucket down.
    P3 running = ge_identity<F>(), total = ge_identity<F>();
    for (size_t d = buckets.size() - 1; d >= 1; --d) {
      if (used[d]) running = add(running, ge_p3_to_cached(buckets[d]));
      total = add(total, ge_p3_to_cached(running));
    }
    window_sum[static_cast<size_t>(w)] = total;
  }
  P3 acc = window_sum[windows - 1];
  for (int w = static_cast<int>(windows) - 2; w >= 0; --w) {
    P2 t = ge_p3_to_p2(acc);
    for (unsigned j = 0; j + 1 < c; ++j) t = ge_p1p1_to_p2(ge_p2_dbl(t));
    acc = ge_p1p1_to_p3(ge_p2_dbl(t));
    acc = add(acc, ge_p3_to_cached(window_sum[static_cast<size_t>(w)]));
  }
  return acc;
}

bool equation_holds(const std::vector<Prepared>& prep, std::span<const size_t> idx, Coefficients& coef) {
  std::vector<Cached> points;
  std::vector<Scalar> scalars;
  points.reserve(2 * idx.size() + 1);
  scalars.reserve(2 * idx.size() + 1);
  Scalar b_coef{{0, 0, 0, 0}};
  for (size_t i : idx) {
    const Scalar z = coef.next();
    b_coef = scalar_add(b_coef, scalar_mul(z, prep[i].s));
    points.push_back(prep[i].neg_r);
    scalars.push_back(z);
    points.push_back(prep[i].neg_a);
    scalars.push_back(scalar_mul(z, prep[i].k));
  }
  points.push_back(ge_p3_to_cached(ge_base<F>()));
  scalars.push_back(b_coef);
  P2 t = ge_p3_to_p2(msm(points, scalars));
  for (int j = 0; j < 3; ++j) t = ge_p1p1_to_p2(ge_p2_dbl(t));
  return ge_p2_is_identity(t);
}

// Names the bad items of a failed batch. Each half is checked again; a failing half alone is
// searched further (sparse failures: logarithmic cost), but when both halves fail the failures are
// dense and item-by-item checks are cheaper than more equations.
template <class Src>
void check_each(std::span<const size_t> idx, const Src& items, std::span<uint8_t> out) {
  const auto n = static_cast<int64_t>(idx.size());
#pragma omp parallel for schedule(dynamic, 4) if (n >= 16)
  for (int64_t j = 0; j < n; ++j) {
    const size_t i = idx[static_cast<size_t>(j)];
    const std::span<const uint8_t> msg = items.message(i);
    out[i] = ed25519_verify(VerifyMode::Zip215, items.public_key(i), items.signature(i), msg.data(), msg.size(),
                            cpu::base_table())
                 ? 1
                 : 0;
  }
}

template <class Src>
void bisect(const std::vector<Prepared>& prep, std::span<const size_t> idx, Coefficients& coef, const Src& items,
            std::span<uint8_t> out) {
  if (idx.size() <= 8) return check_each(idx, items, out);
  const size_t half = idx.size() / 2;
  const std::span<const size_t> parts[2] = {idx.first(half), idx.subspan(half)};
  const bool ok[2] = {equation_holds(prep, parts[0], coef), equation_holds(prep, parts[1], coef)};
  if (!ok[0] && !ok[1]) return check_each(idx, items, out);
  for (int h = 0; h < 2; ++h) {
    if (ok[h]) {
      for (size_t i : parts[h]) out[i] = 1;
    } else {
      bisect(prep, parts[h], coef, items, out);
    }
  }
}

template <class Src>
bool equation_of(const Src& items, std::optional<uint64_t> seed) {
  const std::vector<Prepared> prep = prepare_all(items);
  std::vector<size_t> idx(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (!prep[i].ok) return false;
    idx[i] = i;
  }
  if (idx.empty()) return true;
  Coefficients coef(seed);
  return equation_holds(prep, idx, coef);
}

template <class Src>
void verdicts_of(const Src& items, std::span<uint8_t> out, std::optional<uint64_t> seed) {
  const std::vector<Prepared> prep = prepare_all(items);
  std::vector<size_t> idx;
  for (size_t i = 0; i < items.size(); ++i) {
    out[i] = 0;
    if (prep[i].ok) idx.push_back(i);
  }
  if (idx.empty()) return;
  Coefficients coef(seed);
  if (equation_holds(prep, idx, coef)) {
    for (size_t i : idx) out[i] = 1;
  } else {
    bisect(prep, idx, coef, items, out);
  }
}

}  // namespace

namespace ed25519::cpu {

bool batch_equation_zip215(const ItemSource& items, std::optional<uint64_t> seed) {
  return items.visit([&](const auto& src) { return equation_of(src, seed); });
}

void verify_zip215_rlc(const ItemSource& items, std::span<uint8_t> out, std::optional<uint64_t> seed) {
  items.visit([&](const auto& src) { verdicts_of(src, out, seed); });
}

}  // namespace ed25519::cpu

bool ed25519_batch_equation_zip215(std::span<const Ed25519Item> items, std::optional<uint64_t> seed) {
  return ed25519::cpu::batch_equation_zip215(items, seed);
}

void ed25519_verify_batch_zip215_rlc(std::span<const Ed25519Item> items, std::span<uint8_t> out,
                                     std::optional<uint64_t> seed) {
  if (out.size() != items.size())
    throw_invalid("ed25519: " + std::to_string(items.size()) + " items but room for " + std::to_string(out.size()) +
                  " results");
  ed25519::cpu::verify_zip215_rlc(items, out, seed);
}

}  // namespace zkgpu
