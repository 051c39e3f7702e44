// KoalaBear and its quartic extension against the pinned constants of Plonky3's koala-bear crate
// (tests/vectors/koalabear, docs/specs/fields-curves.md §1.1-1.3): Montgomery constants, the
// two-adic generators, and field and extension arithmetic against plain integer arithmetic mod p.
#include <cstdint>

#include "support/test_support.hpp"
#include "zkgpu/core/field/koalabear.hpp"
#include "zkgpu/core/field/koalabear_ext4.hpp"

namespace zkgpu {
namespace {

using K = KoalaBear;
constexpr uint64_t P = K::P;

uint64_t mulmod(uint64_t a, uint64_t b) { return a * b % P; }
uint64_t powmod(uint64_t a, uint64_t e) {
  uint64_t r = 1;
  for (a %= P; e; e >>= 1, a = mulmod(a, a))
    if (e & 1) r = mulmod(r, a);
  return r;
}

TEST(KoalaBear, ConstantsAreThePinnedOnes) {
  const auto j = test::load_vectors("koalabear/koalabear_field_constants.json");
  EXPECT_EQ(j["p"].get<uint64_t>(), P);
  EXPECT_EQ(j["two_adicity"].get<unsigned>(), K::TWO_ADICITY);
  EXPECT_EQ(j["multiplicative_generator (MONTY_GEN)"].get<uint32_t>(), K::GENERATOR);
  EXPECT_EQ(K::R_MOD_P, (uint64_t{1} << 32) % P);
  EXPECT_EQ(K::R2_MOD_P, mulmod((uint64_t{1} << 32) % P, (uint64_t{1} << 32) % P));
  EXPECT_EQ(K::one().canonical(), 1u);
  EXPECT_EQ(K::SBOX_DEGREE, 3u);
  const auto gens = j["two_adic_generators_canonical"];
  ASSERT_EQ(gens.size(), K::TWO_ADICITY + 1);
  for (unsigned k = 0; k <= K::TWO_ADICITY; ++k) {
    const K g = K::two_adic_generator(k);
    EXPECT_EQ(g.canonical(), gens[k].get<uint32_t>()) << "k " << k;
    if (k > 0) EXPECT_EQ(g.pow(uint64_t{1} << (k - 1)).canonical(), P - 1) << "order of g_" << k << " is not 2^" << k;
  }
  EXPECT_EQ(K::two_adic_generator(K::TWO_ADICITY).canonical(), powmod(K::GENERATOR, (P - 1) >> K::TWO_ADICITY));
}

TEST(KoalaBear, ArithmeticEqualsIntegersModP) {
  test::Rng rng(71);
  for (int it = 0; it < 200000; ++it) {
    const uint64_t a = it < 3 ? (it == 0 ? 0 : P - it) : rng.u32() % P, b = rng.u32() % P;
    const K x = K::from_canonical(static_cast<uint32_t>(a)), y = K::from_canonical(static_cast<uint32_t>(b));
    ASSERT_EQ((x + y).canonical(), (a + b) % P);
    ASSERT_EQ((x - y).canonical(), (a + P - b) % P);
    ASSERT_EQ((x * y).canonical(), mulmod(a, b));
    ASSERT_EQ((-x).canonical(), (P - a) % P);
    ASSERT_EQ(x.halve().dbl(), x);
    ASSERT_EQ(x.sbox().canonical(), powmod(a, 3));
    ASSERT_LT((x * y).v, K::P);
    if (a) ASSERT_EQ((x * x.inverse()).canonical(), 1u);
  }
  K out{};
  EXPECT_FALSE(decode_canonical(K::P, out));
  EXPECT_TRUE(decode_canonical(K::P - 1, out));
  EXPECT_EQ(out.canonical(), K::P - 1);
  EXPECT_FALSE(decode_monty(K::P, out));
}

// Plain schoolbook product mod X^4 - 3, on canonical integers.
void naive_mul(const uint64_t (&a)[4], const uint64_t (&b)[4], uint64_t (&d)[4]) {
  uint64_t t[7] = {};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) t[i + j] = (t[i + j] + mulmod(a[i], b[j])) % P;
  for (int k = 0; k < 4; ++k) d[k] = (t[k] + (k + 4 < 7 ? mulmod(3, t[k + 4]) : 0)) % P;
}

TEST(KoalaBear4, ProductAndInverseEqualTheSchoolbookModXFourMinusThree) {
  const auto j = test::load_vectors("koalabear/koalabear_field_constants.json");
  ASSERT_EQ(j["extension_deg4"]["W"].get<uint32_t>(), KoalaBear4::W);
  test::Rng rng(72);
  for (int it = 0; it < 20000; ++it) {
    uint64_t a[4], b[4], d[4];
    KoalaBear4 x, y;
    for (int i = 0; i < 4; ++i) {
      a[i] = rng.u32() % P, b[i] = it == 0 ? 0 : rng.u32() % P;
      x.c[i] = K::from_canonical(static_cast<uint32_t>(a[i]));
      y.c[i] = K::from_canonical(static_cast<uint32_t>(b[i]));
    }
    naive_mul(a, b, d);
    const KoalaBear4 z = x * y;
    for (int i = 0; i < 4; ++i) ASSERT_EQ(z.c[i].canonical(), d[i]) << "coefficient " << i << ", iteration " << it;
    if (!x.is_zero()) ASSERT_EQ(x * x.inverse(), KoalaBear4::one()) << "iteration " << it;
  }
  EXPECT_TRUE(KoalaBear4::zero().inverse().is_zero());
}

}  // namespace
}  // namespace zkgpu
