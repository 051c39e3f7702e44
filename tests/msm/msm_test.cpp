#include <gtest/gtest.h>

#include <thread>

#include "bls12_377/bls_test_support.hpp"
#include "bench_support/msm_inputs.hpp"
#include "msm/cpu/msm_cpu.hpp"
#include "zkgpu/msm.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

MsmOptions cpu_opts(unsigned c = 0) {
  MsmOptions o;
  o.backend = Backend::Cpu;
  o.window_bits = c;
  return o;
}

struct Case {
  std::vector<G1Affine> points;
  std::vector<Scalar> scalars;
};

// Random points and scalars with the edge cases of shared/specs/msm.md §5 mixed in.
Case edge_case_input(size_t n, Rng& rng) {
  Case c;
  for (size_t i = 0; i < n; ++i) {
    c.points.push_back(mul_g(random_scalar(rng)));
    c.scalars.push_back(random_scalar(rng));
  }
  if (n >= 8) {
    c.scalars[0] = Scalar{};    // zero scalar
    c.scalars[1] = r_minus(1);  // r - 1
    c.scalars[2] = scalar_u64(1);
    c.points[3] = c.points[4];        // repeated point
    c.points[5] = c.points[6].neg();  // P and -P
    c.scalars[5] = c.scalars[6];
    c.points[7] = G1Affine::identity();  // the identity as a base
  }
  return c;
}

TEST(Bls12377Msm, TinyInputsMatchNaive) {
  Rng rng(30);
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{5}}) {
    Case c = edge_case_input(n, rng);
    EXPECT_EQ(msm(c.points, c.scalars, cpu_opts()), msm_naive(c.points, c.scalars)) << n;
  }
}

TEST(Bls12377Msm, EdgeCasesEveryWindowSize) {
  Rng rng(31);
  Case c = edge_case_input(40, rng);
  G1Affine expect = msm_naive(c.points, c.scalars);
  for (unsigned w = 2; w <= 16; ++w) EXPECT_EQ(msm(c.points, c.scalars, cpu_opts(w)), expect) << "c = " << w;
}

TEST(Bls12377Msm, AllEqualPointsAndSkewedScalars) {
  Rng rng(32);
  const size_t n = 300;
  G1Affine p = mul_g(random_scalar(rng));
  std::vector<G1Affine> same(n, p);
  std::vector<Scalar> s(n);
  for (auto& x : s) x = random_scalar(rng);
  EXPECT_EQ(msm(same, s, cpu_opts()), msm_naive(same, s));
  // Every scalar equal (all in one bucket per window), small scalars, top-bit-heavy scalars.
  std::vector<G1Affine> pts(n);
  for (auto& q : pts) q = mul_g(random_scalar(rng));
  std::vector<Scalar> one_bucket(n, r_minus(1)), small(n), high(n);
  for (size_t i = 0; i < n; ++i) {
    small[i] = scalar_u64(i % 5);
    high[i] = r_minus(1);    // >= 2^252: the largest digits
    high[i].l[0] -= i << 8;  // r's low word is 0x0a11800000000001: no borrow
  }
  for (auto* sc : {&one_bucket, &small, &high}) {
    for (unsigned w : {0u, 7u, 13u}) EXPECT_EQ(msm(pts, *sc, cpu_opts(w)), msm_naive(pts, *sc));
  }
}

// c = 16 stores the digit +2^15 as the int16 bit pattern of -2^15 (msm_cpu.hpp): scalars whose
// windows hold exactly 2^15 (with and without the carry from below), 2^15 - 1 and 2^15 + 1, in
// every window, on both accumulation paths.
TEST(Bls12377Msm, Window16DigitHalf) {
  Rng rng(38);
  const size_t n = 64;
  std::vector<Scalar> a(n), s(n);
  for (auto& x : a) x = random_scalar(rng);
  const std::vector<G1Affine> pts = points_with_dlogs(a);
  for (size_t i = 0; i < n; ++i) {
    Scalar v{};
    const uint64_t d = i % 4 == 0 ? 0x8000 : i % 4 == 1 ? 0x7fff : i % 4 == 2 ? 0x8001 : 0xffff;
    for (int w = 0; w < 4; ++w) v.l[w] = d * 0x0001000100010001ull;  // every 16-bit window
    v.l[3] &= 0x0fffffffffffffffull;                                 // below r (~2^252.5)
    s[i] = i < 8 ? scalar_u64(d << (16 * (i % 4))) : v;
  }
  const G1Affine want = expected_msm(a, s);
  EXPECT_EQ(msm(pts, s, cpu_opts(16)), want);
  if (cpu::ifma_available()) {
    MsmBases bases(pts, false);
    EXPECT_EQ(te_to_sw(cpu::msm_te(bases.te_points().data(), s.data(), n, 16, cpu::Accumulation::Scalar)), want);
    EXPECT_EQ(te_to_sw(cpu::msm_te(bases.te_points().data(), s.data(), n, 16, cpu::Accumulation::Ifma)), want);
  }
}

TEST(Bls12377Msm, KnownDiscreteLogs) {
  Rng rng(33);
  for (size_t n : {size_t{1000}, (size_t{1} << 14) + 7}) {
    std::vector<Scalar> a(n), s(n);
    for (size_t i = 0; i < n; ++i) a[i] = random_scalar(rng), s[i] = random_scalar(rng);
    std::vector<G1Affine> pts = points_with_dlogs(a);
    EXPECT_EQ(msm(pts, s, cpu_opts()), expected_msm(a, s)) << n;
  }
}

// The digit and entry arrays are kept between CPU MSMs (msm_cpu.cpp's workspace): sizes that
// grow and shrink reuse them with stale contents beyond the new size, and MSMs running at the
// same time on two threads (one takes the workspace, the other its own arrays) stay correct.
TEST(Bls12377Msm, WorkspaceReuseAcrossSizesAndConcurrentCalls) {
  Rng rng(37);
  const size_t big = 6000;
  std::vector<Scalar> a(big);
  for (auto& x : a) x = random_scalar(rng);
  const std::vector<G1Affine> pts = points_with_dlogs(a);
  const MsmBases bases(pts, false);
  auto scalars = [&](size_t n) {
    std::vector<Scalar> s(n);
    for (auto& x : s) x = random_scalar(rng);
    return s;
  };
  auto expect = [&](const std::vector<Scalar>& s) {
    return expected_msm(std::vector<Scalar>(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(s.size())), s);
  };
  auto run = [&](const std::vector<Scalar>& s) {
    return msm(std::span<const G1Affine>(pts.data(), s.size()), s, cpu_opts());
  };
  for (size_t n : {big, size_t{9}, size_t{1500}, big, size_t{1}}) {
    const std::vector<Scalar> s = scalars(n);
    EXPECT_EQ(run(s), expect(s)) << n;
  }
  const std::vector<Scalar> s1 = scalars(big), s2 = scalars(4001);
  G1Affine r1, r2;
  std::thread t1([&] {
    for (int i = 0; i < 3; ++i) r1 = msm(bases, s1, cpu_opts());
  });
  std::thread t2([&] {
    for (int i = 0; i < 3; ++i) r2 = run(s2);
  });
  t1.join();
  t2.join();
  EXPECT_EQ(r1, expect(s1));
  EXPECT_EQ(r2, expect(s2));
}

TEST(Bls12377Msm, BasesAreCheckedAndReusable) {
  Rng rng(34);
  std::vector<G1Affine> pts = {mul_g(scalar_u64(5)), mul_g(scalar_u64(9))};
  MsmBases bases(pts);
  std::vector<Scalar> s = {scalar_u64(2), scalar_u64(3)};
  EXPECT_EQ(msm(bases, s, cpu_opts()), mul_g(scalar_u64(37)));
  s = {scalar_u64(1), r_minus(1)};
  EXPECT_EQ(msm(bases, s, cpu_opts()), mul_g(r_minus(4)));
  pts.push_back({Fp::one(), Fp::one(), false});  // off the curve
  try {
    MsmBases bad(pts);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("point 2"), std::string::npos) << e.what();
  }
  std::vector<Scalar> wrong(1);
  EXPECT_THROW(msm(bases, wrong, cpu_opts()), Error);
  std::vector<Scalar> big = {r_minus(0), scalar_u64(1)};  // r is not canonical
  EXPECT_THROW(msm(bases, big, cpu_opts()), Error);
  EXPECT_THROW(msm(bases, s, cpu_opts(17)), Error);
}

// The AVX-512 IFMA bucket accumulation (eight lanes over bucket-sorted slices) against the scalar
// one on the same bases: sizes that are not multiples of 8, fewer entries than lanes, edge cases
// (zero scalars, r - 1, repeated points, P and -P, the identity), every window size, all points
// equal and all scalars equal (one bucket per window: every lane in the same bucket).
TEST(Bls12377Msm, IfmaAccumulationMatchesScalar) {
  if (!cpu::ifma_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  Rng rng(35);
  auto both = [](const std::vector<G1Affine>& pts, const std::vector<Scalar>& s, unsigned c) {
    MsmBases bases(pts, false);
    const TeExtended a = cpu::msm_te(bases.te_points().data(), s.data(), s.size(), c, cpu::Accumulation::Scalar);
    const TeExtended b = cpu::msm_te(bases.te_points().data(), s.data(), s.size(), c, cpu::Accumulation::Ifma);
    return std::make_pair(te_to_sw(a), te_to_sw(b));
  };
  for (size_t n : {size_t{1}, size_t{3}, size_t{8}, size_t{9}, size_t{40}, size_t{1001}, size_t{4099}}) {
    Case c = edge_case_input(n, rng);
    const G1Affine expect = n <= 1001 ? msm_naive(c.points, c.scalars) : G1Affine{};
    for (unsigned w : {2u, 5u, 8u, 11u, 15u, 16u}) {
      auto [a, b] = both(c.points, c.scalars, w);
      ASSERT_EQ(a, b) << "n = " << n << ", c = " << w;
      if (n <= 1001) {
        ASSERT_EQ(b, expect) << "n = " << n << ", c = " << w;
      }
    }
  }
  const size_t n = 777;
  std::vector<G1Affine> same(n, mul_g(random_scalar(rng))), pts(n);
  std::vector<Scalar> s(n), one_bucket(n, r_minus(1)), zeros(n);
  for (size_t i = 0; i < n; ++i) s[i] = random_scalar(rng), pts[i] = mul_g(random_scalar(rng));
  for (size_t i = 0; i < n; i += 2) pts[i + 1 < n ? i + 1 : i] = pts[i].neg();  // P and -P pairs
  for (unsigned w : {4u, 13u}) {
    auto [a1, b1] = both(same, s, w);
    EXPECT_EQ(a1, b1);
    auto [a2, b2] = both(pts, one_bucket, w);
    EXPECT_EQ(a2, b2);
    EXPECT_EQ(b2, msm_naive(pts, one_bucket));
    auto [a3, b3] = both(pts, zeros, w);
    EXPECT_EQ(a3, b3);
    EXPECT_EQ(b3, G1Affine::identity());
  }
}

// The IFMA row of `zkgpu padd bench` adds what it claims: lane l of thread 0 sums
// bases[(8k + l) mod n] for k < steps (n = 13: the index wraps inside a step).
TEST(Bls12377Msm, IfmaPaddStreamMatchesScalar) {
  if (!cpu::ifma_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  Rng rng(36);
  std::vector<G1Affine> pts(13);
  for (auto& p : pts) p = mul_g(random_scalar(rng));
  const std::vector<TePrecomputed> bases = precompute_te(pts);
  TeExtended got[8];
  EXPECT_GT(padd_cpu_throughput_ifma(bases, 1, 8 * 20, got), 0);
  for (size_t l = 0; l < 8; ++l) {
    TeExtended want = TeExtended::identity();
    for (size_t k = 0; k < 20; ++k) want = te_add_precomputed(want, bases[(8 * k + l) % bases.size()]);
    EXPECT_EQ(te_to_sw(got[l]), te_to_sw(want)) << l;
  }
}

}  // namespace
}  // namespace zkgpu::test
