#include <gtest/gtest.h>

#include "bls12_377/bls_test_support.hpp"
#if defined(__x86_64__)
#include "msm/cpu/field_ifma.hpp"
#endif

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

TEST(Bls12377Field, MontgomeryOneAndCanonicalRoundTrip) {
  EXPECT_EQ(Fp::one().canonical(), (FpRepr{{1, 0, 0, 0, 0, 0}}));
  EXPECT_EQ(Fr::one().canonical(), scalar_u64(1));
  Rng rng(1);
  for (int i = 0; i < 100; ++i) {
    Fp a = random_fp(rng);
    EXPECT_EQ(Fp::from_canonical(a.canonical()), a);
  }
  FpRepr pm1{};
  pm1 = FpConfig::modulus();
  EXPECT_FALSE(Fp::is_canonical(pm1));
  pm1.l[0] -= 1;
  EXPECT_TRUE(Fp::is_canonical(pm1));
  EXPECT_TRUE((Fp::from_canonical(pm1) + Fp::one()).is_zero());
  EXPECT_TRUE((Fr::from_canonical(r_minus(1)) + Fr::one()).is_zero());
}

// The GPU's 32-bit-limb CIOS, run here in its portable form, must agree with the 64-bit one.
TEST(Bls12377Field, U32AndPtxChainMontgomeryMatchU64) {
  Rng rng(2);
  for (int i = 0; i < 2000; ++i) {
    Fp a = random_fp(rng), b = random_fp(rng);
    if (i == 0) a = -Fp::one(), b = -Fp::one();
    Fp x{}, y{}, z{}, e{};
    Fp::mont_mul_u64(x.l, a.l, b.l);
    Fp::mont_mul_u32(y.l, a.l, b.l);
    Fp::mont_mul_u32_chain(z.l, a.l, b.l);
    Fp::mont_mul_u32_evenodd(e.l, a.l, b.l);  // the GPU's PTX sequence, carry flag emulated
    ASSERT_EQ(x, y) << i;
    ASSERT_EQ(x, z) << i;
    ASSERT_EQ(x, e) << i;
    Fr c = random_fr(rng), d = random_fr(rng);
    if (i == 1) c = -Fr::one(), d = -Fr::one();
    Fr u{}, v{}, w{}, q{};
    Fr::mont_mul_u64(u.l, c.l, d.l);
    Fr::mont_mul_u32(v.l, c.l, d.l);
    Fr::mont_mul_u32_chain(w.l, c.l, d.l);
    Fr::mont_mul_u32_evenodd(q.l, c.l, d.l);
    ASSERT_EQ(u, v) << i;
    ASSERT_EQ(u, w) << i;
    ASSERT_EQ(u, q) << i;
  }
}

// The GPU's carry-chain addition and subtraction (flag emulated here) against the u64 forms.
TEST(Bls12377Field, U32ChainAddSubMatchU64) {
  Rng rng(5);
  for (int i = 0; i < 3000; ++i) {
    Fp a = random_fp(rng), b = random_fp(rng);
    if (i == 0) a = -Fp::one(), b = -Fp::one();
    if (i == 1) a = Fp::zero(), b = -Fp::one();
    if (i == 2) b = a;
    Fp s{}, d{};
    Fp::add_u32_chain(s.l, a.l, b.l);
    Fp::sub_u32_chain(d.l, a.l, b.l);
    ASSERT_EQ(s, a + b) << i;
    ASSERT_EQ(d, a - b) << i;
    Fr x = random_fr(rng), y = random_fr(rng);
    if (i == 0) x = -Fr::one(), y = -Fr::one();
    Fr u{}, v{};
    Fr::add_u32_chain(u.l, x.l, y.l);
    Fr::sub_u32_chain(v.l, x.l, y.l);
    ASSERT_EQ(u, x + y) << i;
    ASSERT_EQ(v, x - y) << i;
  }
}

// Raw 6-limb values (< p) at the edges of the range: 0, 1, 2, R mod p, p - 1, p - 2, 2^376, the
// largest value with p's top word minus one (just below 2^377), and random ones.
std::vector<Fp> fp_edge_values(Rng& rng) {
  const FpRepr p = FpConfig::modulus();
  auto raw = [](FpRepr v) { return Fp::from_raw(v.l); };
  std::vector<Fp> v = {raw({{0, 0, 0, 0, 0, 0}}), raw({{1, 0, 0, 0, 0, 0}}), raw({{2, 0, 0, 0, 0, 0}}), Fp::one()};
  FpRepr pm = p;
  pm.l[0] -= 1;
  v.push_back(raw(pm));
  pm.l[0] -= 1;
  v.push_back(raw(pm));
  v.push_back(raw({{0, 0, 0, 0, 0, uint64_t{1} << 56}}));
  FpRepr top = {{~0ull, ~0ull, ~0ull, ~0ull, ~0ull, p.l[5] - 1}};
  v.push_back(raw(top));
  top.l[0] = 0;
  v.push_back(raw(top));
  for (int i = 0; i < 23; ++i) v.push_back(random_fp(rng));
  return v;
}

#if ZKGPU_BLS_X86
// The host MULX/ADX multiply and the branch-free add/sub against the portable u64 forms, on every
// pair of edge values, with the output aliasing an input as operator*= does.
TEST(Bls12377Field, X86ArithmeticMatchesPortable) {
  Rng rng(6);
  const std::vector<Fp> v = fp_edge_values(rng);
  const bool adx = ZKGPU_BLS_X86_MULX && x86::HAVE_BMI2_ADX;
  for (const Fp& a : v) {
    for (const Fp& b : v) {
      Fp want{}, got{};
      Fp::add_u64(want.l, a.l, b.l);
      x86::add6<FpConfig>(got.l, a.l, b.l);
      ASSERT_EQ(got, want);
      Fp::sub_u64(want.l, a.l, b.l);
      x86::sub6<FpConfig>(got.l, a.l, b.l);
      ASSERT_EQ(got, want);
      if (!adx) continue;
#if ZKGPU_BLS_X86_MULX
      Fp::mont_mul_u64(want.l, a.l, b.l);
      x86::mont_mul6<FpConfig>(got.l, a.l, b.l);
      ASSERT_EQ(got, want);
      got = a;
      x86::mont_mul6<FpConfig>(got.l, got.l, b.l);
      ASSERT_EQ(got, want);
      got = b;
      x86::mont_mul6<FpConfig>(got.l, a.l, got.l);
      ASSERT_EQ(got, want);
#endif
    }
  }
  for (int i = 0; i < 20000; ++i) {
    Fp a = random_fp(rng), b = random_fp(rng), want{}, got{};
    Fp::add_u64(want.l, a.l, b.l);
    x86::add6<FpConfig>(got.l, a.l, b.l);
    ASSERT_EQ(got, want) << i;
    Fp::sub_u64(want.l, a.l, b.l);
    x86::sub6<FpConfig>(got.l, a.l, b.l);
    ASSERT_EQ(got, want) << i;
    if (!adx) continue;
#if ZKGPU_BLS_X86_MULX
    Fp::mont_mul_u64(want.l, a.l, b.l);
    x86::mont_mul6<FpConfig>(got.l, a.l, b.l);
    ASSERT_EQ(got, want) << i;
#endif
  }
  if (!adx) GTEST_SKIP() << "no BMI2/ADX on this CPU or an unoptimised build: only add/sub were checked";
}
#endif

#if defined(__x86_64__)
// The 8-lane AVX-512 IFMA arithmetic (52-bit limbs, R = 2^416, lazy reduction) of the MSM's bucket
// additions against the scalar field code: every pair of edge values (0, 1, 2, R, p - 1, ...) and
// random ones, products, sums, differences and a long chain kept in the IFMA form.
TEST(Bls12377Field, IfmaLanesMatchScalar) {
  if (!ifma::AVAILABLE) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  Rng rng(8);
  std::vector<Fp> va, vb;
  const std::vector<Fp> edge = fp_edge_values(rng);
  for (const Fp& a : edge)
    for (const Fp& b : edge) va.push_back(a), vb.push_back(b);
  for (int i = 0; i < 4000; ++i) va.push_back(random_fp(rng)), vb.push_back(random_fp(rng));
  while (va.size() % 8) va.push_back(-Fp::one()), vb.push_back(-Fp::one());
  for (size_t i = 0; i < va.size(); i += 8) {
    Fp prod[8], sum[8], diff[8];
    ifma::mul_lanes(&va[i], &vb[i], prod);
    ifma::add_sub_lanes(&va[i], &vb[i], sum, diff);
    for (size_t k = 0; k < 8; ++k) {
      ASSERT_EQ(prod[k], va[i + k] * vb[i + k]) << i + k;
      ASSERT_EQ(sum[k], va[i + k] + vb[i + k]) << i + k;
      ASSERT_EQ(diff[k], va[i + k] - vb[i + k]) << i + k;
    }
  }
  for (size_t i = 0; i + 8 <= 64; i += 8) {
    Fp got[8];
    ifma::chain_lanes(&va[va.size() - 8 - i], &vb[i], 500, got);
    for (size_t k = 0; k < 8; ++k) {
      Fp x = va[va.size() - 8 - i + k];
      const Fp y = vb[i + k];
      for (int r = 0; r < 500; ++r) x = (x - x * y) * y + x;
      ASSERT_EQ(got[k], x) << i + k;
    }
  }
}
#endif

// The operators (whatever path they take on this host) against the portable forms.
TEST(Bls12377Field, OperatorsMatchPortableOnEdgeValues) {
  Rng rng(7);
  const std::vector<Fp> v = fp_edge_values(rng);
  for (const Fp& a : v) {
    for (const Fp& b : v) {
      Fp s{}, d{}, m{};
      Fp::add_u64(s.l, a.l, b.l);
      Fp::sub_u64(d.l, a.l, b.l);
      Fp::mont_mul_u64(m.l, a.l, b.l);
      ASSERT_EQ(a + b, s);
      ASSERT_EQ(a - b, d);
      ASSERT_EQ(a * b, m);
      Fp t{};
      Fp::mont_mul_u32_chain(t.l, a.l, b.l);  // the GPU sequence on the same edge values
      ASSERT_EQ(t, m);
    }
  }
}

TEST(Bls12377Field, FieldLaws) {
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    Fp a = random_fp(rng), b = random_fp(rng), c = random_fp(rng);
    EXPECT_EQ((a + b) - b, a);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a + (-a), Fp::zero());
    if (!a.is_zero()) {
      EXPECT_EQ(a * a.inverse(), Fp::one());
    }
    Fr x = random_fr(rng), y = random_fr(rng);
    EXPECT_EQ((x - y) + y, x);
    if (!x.is_zero()) {
      EXPECT_EQ(x * x.inverse(), Fr::one());
    }
  }
  // Small integers multiply as integers.
  EXPECT_EQ(Fp::from_u64(6) * Fp::from_u64(7), Fp::from_u64(42));
}

TEST(Bls12377Field, SquareRoots) {
  Rng rng(4);
  int non_squares = 0;
  for (int i = 0; i < 40; ++i) {
    Fp a = random_fp(rng), r;
    ASSERT_TRUE(fp_sqrt(a.square(), r));
    EXPECT_TRUE(r == a || r == -a);
    Fp b = random_fp(rng);
    if (!fp_sqrt(b, r)) {
      ++non_squares;
    } else {
      EXPECT_EQ(r.square(), b);
    }
  }
  EXPECT_GT(non_squares, 5);  // about half of the random elements
  Fp r;
  EXPECT_FALSE(fp_sqrt(Fp::from_u64(5), r));  // 5 is the non-residue Tonelli-Shanks uses
}

TEST(Bls12377Field, ScalarHexParsingReducesModR) {
  Scalar s;
  std::string err;
  ASSERT_TRUE(parse_scalar_hex("0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000002", s, err)) << err;
  EXPECT_EQ(s, scalar_u64(1));  // r + 1
  ASSERT_TRUE(parse_scalar_hex("FF", s, err));
  EXPECT_EQ(s, scalar_u64(255));
  ASSERT_TRUE(
      parse_scalar_hex("0000000000000000000000000000000000000000000000000000000000000000000000000000000007", s, err));
  EXPECT_EQ(s, scalar_u64(7));
  EXPECT_FALSE(parse_scalar_hex("1" + std::string(64, '0'), s, err));  // 257 bits
  EXPECT_FALSE(parse_scalar_hex("12g", s, err));
  EXPECT_FALSE(parse_scalar_hex("", s, err));
  EXPECT_FALSE(parse_scalar_hex("0x", s, err));
  Fp x;
  EXPECT_FALSE(parse_fp_hex(
      "1ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001", x, err));
  ASSERT_TRUE(parse_fp_hex(
      "1ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000000", x, err));
  EXPECT_EQ(x, -Fp::one());
  EXPECT_EQ(to_hex(x),
            "1ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000000");
  EXPECT_EQ(to_hex(Fp::zero()), "0");
}

}  // namespace
}  // namespace zkgpu::test
