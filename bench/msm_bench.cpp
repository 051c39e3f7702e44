// BLS12-377 point additions and MSM. The PADD rows follow the Versal AI-Engine paper's table:
// throughput of independent mixed twisted-Edwards additions and latency of a dependent chain,
// for our CPU, our GPU and a GMP-based CPU adder (mpz multiply + mpz mod, the paper's CPU
// baseline style) measured in the same run. The GMP adder's result is checked against ours.
#include <benchmark/benchmark.h>
#include <gmp.h>
#include <omp.h>

#include <vector>

#include "bench_support/msm_inputs.hpp"
#include "bench_support/msm_timing.hpp"
#include "bench_support/padd_gpu.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/msm.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {
using namespace zkgpu::bls12_377;

const std::vector<TePrecomputed>& padd_bases() {
  static const std::vector<TePrecomputed> b = precompute_te(random_g1_points(4096, 7));
  return b;
}

// ---- GMP reference adder (canonical, non-Montgomery integers) ----
struct GmpField {
  mpz_t p;
  GmpField() {
    mpz_init_set_str(
        p, "1ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001", 16);
  }
};
const GmpField& gmp_field() {
  static GmpField f;
  return f;
}
void to_mpz(mpz_t out, const Fp& v) {
  FpRepr c = v.canonical();
  mpz_import(out, 6, -1, sizeof(uint64_t), 0, 0, c.l);
}
struct GmpBase {
  mpz_t ymx, ypx, kt;
};
struct GmpPoint {
  mpz_t x, y, z, t;
};
struct GmpScratch {
  mpz_t a, b, c, d, e, f, g, h, u;
  GmpScratch() { mpz_inits(a, b, c, d, e, f, g, h, u, nullptr); }
  ~GmpScratch() { mpz_clears(a, b, c, d, e, f, g, h, u, nullptr); }
};
// r = a * b mod m, the way a GMP-based design computes each product.
inline void mulmod(mpz_t r, const mpz_t a, const mpz_t b, const mpz_t m) {
  mpz_mul(r, a, b);
  mpz_mod(r, r, m);
}
// madd-2008-hwcd-3 with stored k*T2, every product reduced by mpz_mod.
void gmp_padd(GmpPoint& p, const GmpBase& q, GmpScratch& s, const mpz_t m) {
  mpz_sub(s.u, p.y, p.x);
  mulmod(s.a, s.u, q.ymx, m);
  mpz_add(s.u, p.y, p.x);
  mulmod(s.b, s.u, q.ypx, m);
  mulmod(s.c, p.t, q.kt, m);
  mpz_add(s.d, p.z, p.z);
  mpz_sub(s.e, s.b, s.a);
  mpz_sub(s.f, s.d, s.c);
  mpz_add(s.g, s.d, s.c);
  mpz_add(s.h, s.b, s.a);
  mulmod(p.x, s.e, s.f, m);
  mulmod(p.y, s.g, s.h, m);
  mulmod(p.t, s.e, s.h, m);
  mulmod(p.z, s.f, s.g, m);
}

void BM_PaddGmp(benchmark::State& st) {
  const auto& bases = padd_bases();
  const mpz_t& m = gmp_field().p;
  std::vector<GmpBase> gb(bases.size());
  for (size_t i = 0; i < bases.size(); ++i) {
    mpz_inits(gb[i].ymx, gb[i].ypx, gb[i].kt, nullptr);
    to_mpz(gb[i].ymx, bases[i].ymx);
    to_mpz(gb[i].ypx, bases[i].ypx);
    to_mpz(gb[i].kt, bases[i].kt);
  }
  GmpPoint acc;
  mpz_inits(acc.x, acc.y, acc.z, acc.t, nullptr);
  mpz_set_ui(acc.y, 1), mpz_set_ui(acc.z, 1);  // the identity (0, 1, 1, 0)
  GmpScratch s;
  size_t k = 0;
  for (auto _ : st) {  // one dependent chain: per-iteration time is the latency
    gmp_padd(acc, gb[k % gb.size()], s, m);
    ++k;
  }
  // Same chain with our adder: the results must agree (x/z, as integers mod p).
  TeExtended ours = TeExtended::identity();
  mpz_set_ui(acc.x, 0), mpz_set_ui(acc.y, 1), mpz_set_ui(acc.z, 1), mpz_set_ui(acc.t, 0);
  for (size_t i = 0; i < 100; ++i) {
    gmp_padd(acc, gb[i % gb.size()], s, m);
    ours = te_add_precomputed(ours, bases[i % bases.size()]);
  }
  mpz_t want;
  mpz_init(want);
  to_mpz(want, ours.x * ours.z.inverse());
  mpz_invert(s.u, acc.z, m);
  mpz_mul(s.u, s.u, acc.x);
  mpz_mod(s.u, s.u, m);
  if (mpz_cmp(s.u, want) != 0) st.SkipWithError("GMP adder disagrees with zkgpu's");
  mpz_clear(want);
  mpz_clears(acc.x, acc.y, acc.z, acc.t, nullptr);
  for (auto& b : gb) mpz_clears(b.ymx, b.ypx, b.kt, nullptr);
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()));
  st.counters["M_PADD/s"] = benchmark::Counter(static_cast<double>(st.iterations()) / 1e6, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PaddGmp);

void BM_PaddCpuLatency(benchmark::State& st) {
  const auto& bases = padd_bases();
  TeExtended acc = TeExtended::identity();
  size_t k = 0;
  for (auto _ : st) {
    acc = te_add_precomputed(acc, bases[k++ % bases.size()]);
    benchmark::DoNotOptimize(acc);
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()));
  st.counters["M_PADD/s"] = benchmark::Counter(static_cast<double>(st.iterations()) / 1e6, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PaddCpuLatency);

// One Fp multiplication, 4 independent chains (the MSM keeps several in flight): the portable
// 128-bit-product CIOS against the operator the CPU MSM uses (MULX/ADX where cpuid allows).
template <bool Portable>
void BM_FpMul(benchmark::State& st) {
  Fp acc[4] = {Fp::from_u64(3), Fp::from_u64(5), Fp::from_u64(7), Fp::from_u64(11)};
  const Fp b = padd_bases()[0].kt;
  for (auto _ : st) {
    for (auto& a : acc) {
      if constexpr (Portable)
        Fp::mont_mul_u64(a.l, a.l, b.l);
      else
        a *= b;
    }
    benchmark::DoNotOptimize(acc);
  }
  st.SetItemsProcessed(static_cast<int64_t>(4 * st.iterations()));
}
BENCHMARK_TEMPLATE(BM_FpMul, true)->Name("BM_FpMulPortable");
BENCHMARK_TEMPLATE(BM_FpMul, false)->Name("BM_FpMulHost");

// Independent additions: range(0) threads, 8 accumulators each.
void BM_PaddCpuThroughput(benchmark::State& st) {
  const unsigned threads =
      st.range(0) ? static_cast<unsigned>(st.range(0)) : static_cast<unsigned>(omp_get_max_threads());
  double rate = 0;
  for (auto _ : st) rate = padd_cpu_throughput(padd_bases(), threads, 80000);
  st.counters["M_PADD/s"] = rate / 1e6;
  st.counters["threads"] = threads;
}
BENCHMARK(BM_PaddCpuThroughput)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_PaddGpu(benchmark::State& st) {
#if ZKGPU_HAVE_CUDA
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  double rate = 0, lat = 0;
  for (auto _ : st) {
    rate = bench::padd_throughput(padd_bases(), size_t{1} << 20, 256, nullptr);
    lat = bench::padd_latency_us(padd_bases(), 20000, nullptr);
  }
  st.counters["M_PADD/s"] = rate / 1e6;
  st.counters["latency_us"] = lat;
#else
  st.SkipWithError("built without CUDA");
#endif
}
BENCHMARK(BM_PaddGpu)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_MsmCpu(benchmark::State& st) {
  const size_t n = size_t{1} << st.range(0);
  MsmBases bases(random_g1_points(n, 11), false);
  std::vector<Scalar> s = random_scalars(n, 12);
  MsmOptions opt;
  opt.backend = Backend::Cpu;
  for (auto _ : st) benchmark::DoNotOptimize(msm(bases, s, opt));
  st.counters["points/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MsmCpu)->DenseRange(10, 20, 2)->Unit(benchmark::kMillisecond);

// Bases resident on the device, scalars from host memory each run (wall time per MSM).
void BM_MsmGpuResident(benchmark::State& st) {
#if ZKGPU_HAVE_CUDA
  if (!cuda_usable()) {
    st.SkipWithError(("no usable GPU: " + cuda_unavailable_reason()).c_str());
    return;
  }
  const size_t n = size_t{1} << st.range(0);
  MsmBases bases(random_g1_points(n, 13), false);
  std::vector<Scalar> s = random_scalars(n, 14);
  std::vector<double> ms = bench::time_msm_resident(bases, s, 0, 5);
  size_t i = 0;
  for (auto _ : st) st.SetIterationTime(ms[i++ % ms.size()] * 1e-3);
#else
  st.SkipWithError("built without CUDA");
#endif
}
BENCHMARK(BM_MsmGpuResident)->DenseRange(16, 24, 2)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zkgpu
