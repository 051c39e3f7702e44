#include "zkgpu/core/field/babybear.hpp"

#include "zkgpu/core/field/babybear_ext4.hpp"
#include "support/test_support.hpp"

namespace zkgpu {
namespace {

using test::Rng;

TEST(BabyBear, MontgomeryConstantsMatchVectors) {
  auto c = test::load_vectors("babybear/babybear_field_constants.json");
  EXPECT_EQ(c["p"].get<uint64_t>(), BabyBear::P);
  EXPECT_EQ(BabyBear::one().v, c["montgomery"]["R mod p"].get<uint32_t>());
  EXPECT_EQ(BabyBear::R2_MOD_P, c["montgomery"]["R^2 mod p"].get<uint32_t>());
  EXPECT_EQ(BabyBear::one().canonical(), 1u);
  for (unsigned k = 0; k <= 27; ++k) {
    EXPECT_EQ(BabyBear::two_adic_generator(k).canonical(), c["two_adic_generators_canonical"][k].get<uint32_t>()) << k;
    EXPECT_EQ(BabyBear::two_adic_generator(k).v, c["two_adic_generators_montgomery"][k].get<uint32_t>()) << k;
  }
}

TEST(BabyBear, TwoAdicGeneratorsHaveExactOrder) {
  for (unsigned k = 1; k <= 27; ++k) {
    BabyBear g = BabyBear::two_adic_generator(k);
    EXPECT_EQ(g.pow(uint64_t(1) << k), BabyBear::one());
    EXPECT_EQ(g.pow(uint64_t(1) << (k - 1)), -BabyBear::one());
  }
  EXPECT_EQ(BabyBear::from_canonical(31).pow((BabyBear::P - 1) >> 27), BabyBear::two_adic_generator(27));
}

TEST(BabyBear, FieldLawsOnRandomValues) {
  Rng rng(1);
  for (int i = 0; i < 20000; ++i) {
    BabyBear a = rng.fe(), b = rng.fe(), c = rng.fe();
    ASSERT_LT(a.v, BabyBear::P);
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a - a, BabyBear::zero());
    EXPECT_EQ(a + (-a), BabyBear::zero());
    EXPECT_EQ((a - b) + b, a);
    EXPECT_EQ(a.halve().dbl(), a);
    EXPECT_EQ(a.pow7(), a.pow(7));
    // Montgomery product against 64-bit arithmetic on canonical values.
    uint64_t expect = uint64_t(a.canonical()) * b.canonical() % BabyBear::P;
    EXPECT_EQ((a * b).canonical(), expect);
    EXPECT_EQ((a + b).canonical(), (uint64_t(a.canonical()) + b.canonical()) % BabyBear::P);
    if (!a.is_zero()) EXPECT_EQ(a * a.inverse(), BabyBear::one());
  }
}

TEST(BabyBear, EdgeValues) {
  BabyBear pm1 = BabyBear::from_canonical(BabyBear::P - 1);
  EXPECT_EQ(pm1 + BabyBear::one(), BabyBear::zero());
  EXPECT_EQ(pm1 * pm1, BabyBear::one());
  EXPECT_EQ(BabyBear::zero() - BabyBear::one(), pm1);
  EXPECT_EQ(-BabyBear::zero(), BabyBear::zero());
  EXPECT_EQ(BabyBear::from_u64(uint64_t(BabyBear::P) * 5 + 7).canonical(), 7u);
}

TEST(BabyBear, CanonicalDecodeRejectsValuesAtOrAboveP) {
  BabyBear out{};
  EXPECT_TRUE(decode_canonical(0, out));
  EXPECT_TRUE(decode_canonical(BabyBear::P - 1, out));
  EXPECT_EQ(out.canonical(), BabyBear::P - 1);
  EXPECT_FALSE(decode_canonical(BabyBear::P, out));
  EXPECT_FALSE(decode_canonical(0xffffffffu, out));
  EXPECT_TRUE(decode_monty(BabyBear::P - 1, out));
  EXPECT_FALSE(decode_monty(BabyBear::P, out));
}

TEST(BabyBear4, FieldLawsAndInverse) {
  Rng rng(2);
  const BabyBear4 one = BabyBear4::one();
  for (int i = 0; i < 5000; ++i) {
    BabyBear4 a = rng.fe4(), b = rng.fe4(), c = rng.fe4();
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a * one, a);
    if (!a.is_zero()) EXPECT_EQ(a * a.inverse(), one);
  }
  // Sparse elements exercise each branch of the tower inverse.
  for (int k = 0; k < 4; ++k) {
    BabyBear4 e = BabyBear4::zero();
    e.c[k] = rng.fe();
    EXPECT_EQ(e * e.inverse(), one) << k;
  }
  EXPECT_TRUE(BabyBear4::zero().inverse().is_zero());
}

// The product sums two 64-bit products per reduction: it must equal the plain schoolbook formula
// (one reduction per product) on random words and on the largest ones, where the sums peak.
TEST(BabyBear4, ProductEqualsOneReductionPerTermSchoolbook) {
  Rng rng(41);
  auto w11 = [](BabyBear x) { return x * BabyBear::from_canonical(11); };
  auto schoolbook = [&](const BabyBear4& x, const BabyBear4& y) {
    const BabyBear* a = x.c;
    const BabyBear* b = y.c;
    return BabyBear4{{a[0] * b[0] + w11(a[1] * b[3] + a[2] * b[2] + a[3] * b[1]),
                      a[0] * b[1] + a[1] * b[0] + w11(a[2] * b[3] + a[3] * b[2]),
                      a[0] * b[2] + a[1] * b[1] + a[2] * b[0] + w11(a[3] * b[3]),
                      a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0]}};
  };
  const BabyBear top = BabyBear::from_monty(BabyBear::P - 1);  // the largest Montgomery word
  const BabyBear4 big{{top, top, top, top}};
  EXPECT_EQ(big * big, schoolbook(big, big));
  for (int i = 0; i < 20000; ++i) {
    BabyBear4 x = rng.fe4(), y = rng.fe4();
    if (i % 4 == 1) x.c[i % 3 + 1] = top;
    if (i % 8 == 3) y = big;
    const BabyBear4 z = x * y;
    ASSERT_EQ(z, schoolbook(x, y)) << i;
    for (const BabyBear& e : z.c) ASSERT_LT(e.v, BabyBear::P);
  }
}

TEST(BabyBear4, XToTheFourthIsEleven) {
  BabyBear4 x = {{BabyBear::zero(), BabyBear::one(), BabyBear::zero(), BabyBear::zero()}};
  BabyBear4 x4 = x * x * x * x;
  EXPECT_EQ(x4, BabyBear4::from_base(BabyBear::from_canonical(11)));
}

TEST(BabyBear4, ExtensionGeneratorsHaveStatedOrders) {
  // [0,0,1996171314,0] has order 2^28, [0,0,0,124907976] order 2^29 (spec §2).
  BabyBear4 g28 = {{BabyBear::zero(), BabyBear::zero(), BabyBear::from_canonical(1996171314), BabyBear::zero()}};
  BabyBear4 g29 = {{BabyBear::zero(), BabyBear::zero(), BabyBear::zero(), BabyBear::from_canonical(124907976)}};
  auto pow2 = [](BabyBear4 x, int k) {
    for (int i = 0; i < k; ++i) x = x.square();
    return x;
  };
  EXPECT_EQ(pow2(g28, 28), BabyBear4::one());
  EXPECT_NE(pow2(g28, 27), BabyBear4::one());
  EXPECT_EQ(pow2(g29, 29), BabyBear4::one());
  EXPECT_NE(pow2(g29, 28), BabyBear4::one());
}

}  // namespace
}  // namespace zkgpu

#include "zkgpu/field.hpp"

namespace zkgpu {
namespace {

template <class F, class Gen>
void check_batch_inverse(size_t n, Gen gen) {
  std::vector<F> xs(n);
  for (size_t i = 0; i < n; ++i) xs[i] = (i % 97 == 5) ? F::zero() : gen();  // zeros sprinkled in
  std::vector<F> inv = xs;
  batch_inverse(std::span<F>(inv));
  for (size_t i = 0; i < n; ++i) {
    if (xs[i].is_zero())
      ASSERT_TRUE(inv[i].is_zero()) << i;
    else
      ASSERT_EQ(inv[i], xs[i].inverse()) << "n " << n << " index " << i;
  }
}

TEST(BatchInverse, MatchesSingleInversesAroundChunkEdges) {
  test::Rng rng(3);
  for (size_t n :
       {size_t(0), size_t(1), size_t(2), size_t(97), size_t(4095), size_t(4096), size_t(4097), size_t(20000)}) {
    check_batch_inverse<BabyBear>(n, [&] { return rng.fe(); });
    check_batch_inverse<BabyBear4>(n, [&] { return rng.fe4(); });
  }
}

}  // namespace
}  // namespace zkgpu
