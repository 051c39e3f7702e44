#include "bench_support/msm_inputs.hpp"
#if defined(__x86_64__)
#include "msm/cpu/field_ifma.hpp"
#include "bench_support/cpu/te_lanes_ifma.hpp"
#endif

#include <omp.h>

#include <chrono>
#include <random>

#include "zkgpu/bls12_377.hpp"

namespace zkgpu::bls12_377 {

std::vector<Scalar> random_scalars(size_t n, uint64_t seed) {
  std::vector<Scalar> s(n);
#pragma omp parallel
  {
    std::mt19937_64 g(seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(omp_get_thread_num()));
#pragma omp for schedule(static)
    for (size_t i = 0; i < n; ++i) {
      Scalar v{};
      for (auto& w : v.l) w = g();
      s[i] = reduce_scalar(v);
    }
  }
  return s;
}

std::vector<G1Affine> random_g1_points(size_t n, uint64_t seed) {
  size_t side = 1;
  while (side * side < n) ++side;
  std::vector<Scalar> k = random_scalars(2 * side, seed);
  std::vector<G1Jacobian> table(2 * side);
#pragma omp parallel for schedule(dynamic, 4)
  for (size_t i = 0; i < 2 * side; ++i) table[i] = scalar_mul(G1Affine::generator(), k[i]);
  std::vector<G1Affine> q(side);
  for (size_t j = 0; j < side; ++j) q[j] = jac_to_affine(table[j]);
  std::vector<G1Affine> out(n);
#pragma omp parallel
  {
    // Montgomery's trick per thread over its slice: Q_j + R_i in Jacobian, then one inversion.
    const size_t nt = static_cast<size_t>(omp_get_num_threads()), id = static_cast<size_t>(omp_get_thread_num());
    const size_t lo = n * id / nt, hi = n * (id + 1) / nt;
    std::vector<G1Jacobian> pts(hi - lo);
    std::vector<Fp> prefix(hi - lo);
    Fp acc = Fp::one();
    for (size_t i = lo; i < hi; ++i) {
      pts[i - lo] = jac_add_mixed(table[side + i / side], q[i % side]);
      prefix[i - lo] = acc;
      if (!pts[i - lo].is_identity()) acc *= pts[i - lo].z;
    }
    Fp inv = acc.inverse();
    for (size_t i = hi; i-- > lo;) {
      const G1Jacobian& p = pts[i - lo];
      if (p.is_identity()) {
        out[i] = G1Affine::identity();
        continue;
      }
      Fp zi = inv * prefix[i - lo];
      inv *= p.z;
      Fp zi2 = zi.square();
      out[i] = {p.x * zi2, p.y * zi2 * zi, false};
    }
  }
  return out;
}

double padd_cpu_throughput(const std::vector<TePrecomputed>& bases, unsigned threads, size_t adds_per_thread) {
  constexpr size_t LANES = 8;
  const size_t nb = bases.size();
  auto t0 = std::chrono::steady_clock::now();
  uint64_t sink = 0;
#pragma omp parallel num_threads(threads) reduction(^ : sink)
  {
    TeExtended acc[LANES];
    for (auto& a : acc) a = TeExtended::identity();
    size_t idx = static_cast<size_t>(omp_get_thread_num()) * 7919 % nb;
    for (size_t k = 0; k < adds_per_thread / LANES; ++k) {
      for (size_t l = 0; l < LANES; ++l) {
        acc[l] = te_add_precomputed(acc[l], bases[idx]);
        if (++idx == nb) idx = 0;
      }
    }
    for (auto& a : acc) sink ^= a.x.l[0];  // keeps the work observable
  }
  auto t1 = std::chrono::steady_clock::now();
  volatile uint64_t keep = sink;
  (void)keep;
  double seconds = std::chrono::duration<double>(t1 - t0).count();
  return static_cast<double>(threads) * static_cast<double>(adds_per_thread / LANES * LANES) / seconds;
}

#if defined(__x86_64__)
namespace {
// One thread's share of padd_cpu_throughput_ifma: 8 lane accumulators, lane l adds
// bases[(start + 8k + l) mod nb] at step k (gathered; no negation).
ZKGPU_IFMA_TARGET void ifma_stream(const TePrecomputed* bases, size_t nb, size_t start, size_t steps,
                                   TeExtended out[8]) {
  using namespace ifma;
  Te8 acc;
  for (int i = 0; i < 8; ++i) acc.x.l[i] = acc.y.l[i] = acc.z.l[i] = acc.t.l[i] = _mm512_setzero_si512();
  acc.y.l[0] = acc.z.l[0] = _mm512_set1_epi64(1);
  const char* base = reinterpret_cast<const char*>(bases);
  size_t idx = start % nb;
  for (size_t k = 0; k < steps; ++k) {
    alignas(64) int64_t off[8];
    for (int l = 0; l < 8; ++l) {
      off[l] = static_cast<int64_t>(idx * sizeof(TePrecomputed));
      if (++idx == nb) idx = 0;
    }
    const __m512i o = _mm512_load_si512(off);
    __m512i w[3][6];
    for (int c = 0; c < 3; ++c)
      for (int j = 0; j < 6; ++j) w[c][j] = gather(o, base + 48 * c + 8 * j);
    te_add_precomputed(acc, from_words(w[0]), from_words(w[1]), from_words(w[2]), 0);
  }
  Fp x[8], y[8], z[8], t[8];
  store_fp8(acc.x, x), store_fp8(acc.y, y), store_fp8(acc.z, z), store_fp8(acc.t, t);
  for (int l = 0; l < 8; ++l) out[l] = {x[l], y[l], z[l], t[l]};
}
}  // namespace
#endif

double padd_cpu_throughput_ifma(const std::vector<TePrecomputed>& bases, unsigned threads, size_t adds_per_thread,
                                TeExtended* check) {
#if defined(__x86_64__)
  if (!ifma::AVAILABLE || bases.empty()) return 0;
  const size_t steps = adds_per_thread / 8;
  auto t0 = std::chrono::steady_clock::now();
  uint64_t sink = 0;
#pragma omp parallel num_threads(threads) reduction(^ : sink)
  {
    TeExtended out[8];
    const size_t id = static_cast<size_t>(omp_get_thread_num());
    ifma_stream(bases.data(), bases.size(), id * 7919, steps, out);
    for (const auto& a : out) sink ^= a.x.l[0];
    if (id == 0 && check)
      for (int l = 0; l < 8; ++l) check[l] = out[l];
  }
  auto t1 = std::chrono::steady_clock::now();
  volatile uint64_t keep = sink;
  (void)keep;
  return static_cast<double>(threads) * static_cast<double>(steps * 8) / std::chrono::duration<double>(t1 - t0).count();
#else
  (void)bases, (void)threads, (void)adds_per_thread, (void)check;
  return 0;
#endif
}

namespace {
// Microseconds per addition of `chain(acc)`, a chain of `chain_len` dependent additions from the
// identity; `check` gets its end.
template <class Chain>
double chain_latency_us(size_t chain_len, TeExtended* check, Chain&& chain) {
  auto t0 = std::chrono::steady_clock::now();
  const TeExtended acc = chain(TeExtended::identity());
  auto t1 = std::chrono::steady_clock::now();
  if (check) *check = acc;
  volatile uint64_t keep = acc.x.l[0];
  (void)keep;
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(chain_len);
}
}  // namespace

double padd_cpu_latency_ifma_us(const std::vector<TePrecomputed>& bases, size_t chain, TeExtended* check) {
#if defined(__x86_64__)
  if (!ifma::AVAILABLE || bases.empty()) return 0;
  return chain_latency_us(chain, check, [&](const TeExtended& start) {
    return ifma::lanes_chain(start, bases.data(), bases.size(), chain);
  });
#else
  (void)bases, (void)chain, (void)check;
  return 0;
#endif
}

double padd_cpu_latency_us(const std::vector<TePrecomputed>& bases, size_t chain, TeExtended* check) {
  const size_t nb = bases.size();
  return chain_latency_us(chain, check, [&](TeExtended acc) {
    for (size_t k = 0; k < chain; ++k) acc = te_add_precomputed(acc, bases[k % nb]);
    return acc;
  });
}

}  // namespace zkgpu::bls12_377
