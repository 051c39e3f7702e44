// The core arithmetic (src/core/ed25519) on its own: scalar reduction against a bitwise
// reference, field laws at the limb-bound edges, point laws, and the base table.
#include <cstring>

#include "core/ed25519/verify.hpp"
#include "ed25519/cpu.hpp"
#include "ed25519/ed25519_test_support.hpp"

namespace zkgpu {
namespace {

using namespace ed25519;

// r = 2r + bit with one conditional subtraction: slow and obviously right.
Scalar reduce_bitwise(const uint8_t* s, int len) {
  const Scalar l = scalar_l();
  Scalar r{{0, 0, 0, 0}};
  for (int byte = len - 1; byte >= 0; --byte)
    for (int bit = 7; bit >= 0; --bit) {
      r.w[3] = (r.w[3] << 1) | (r.w[2] >> 63);
      r.w[2] = (r.w[2] << 1) | (r.w[1] >> 63);
      r.w[1] = (r.w[1] << 1) | (r.w[0] >> 63);
      r.w[0] = (r.w[0] << 1) | ((s[byte] >> bit) & 1);
      if (scalar_geq(r, l)) r = scalar_sub_raw(r, l);
    }
  return r;
}

TEST(Ed25519Core, ScalarReductionMatchesBitwiseReference) {
  test::Rng rng(21);
  std::vector<std::vector<uint8_t>> inputs = {std::vector<uint8_t>(64, 0xff), std::vector<uint8_t>(64, 0),
                                              test::group_order_le(), std::vector<uint8_t>(32, 0xff)};
  auto lm1 = test::group_order_le();
  lm1[0] -= 1;
  inputs.push_back(lm1);
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> v(1 + rng.u32() % 64);
    for (auto& b : v) b = static_cast<uint8_t>(rng.u32() % 4 == 0 ? 0xff : rng.u32());
    inputs.push_back(v);
  }
  for (const auto& v : inputs) {
    const Scalar a = scalar_reduce_bytes(v.data(), static_cast<int>(v.size()));
    const Scalar b = reduce_bitwise(v.data(), static_cast<int>(v.size()));
    ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "length " << v.size();
  }
  const auto l = test::group_order_le();
  EXPECT_FALSE(scalar_is_canonical(l.data()));
  EXPECT_TRUE(scalar_is_canonical(lm1.data()));
}

TEST(Ed25519Core, FieldLawsAtLimbBounds) {
  test::Rng rng(22);
  auto random_fe = [&] {
    Fe a;
    for (auto& l : a.v) l = rng.gen() & FE_MASK51;
    return a;
  };
  for (int i = 0; i < 2000; ++i) {
    const Fe a = random_fe(), b = random_fe(), c = random_fe();
    // Sums (the widest limbs fed to a product) behave as their values.
    EXPECT_TRUE(fe_equal(fe_mul(fe_add(a, b), c), fe_add(fe_mul(a, c), fe_mul(b, c))));
    EXPECT_TRUE(fe_equal(fe_sq(fe_add(a, b)), fe_mul(fe_add(a, b), fe_add(a, b))));
    EXPECT_TRUE(fe_equal(fe_sub(fe_add(a, b), b), a));
    EXPECT_TRUE(fe_equal(fe_sub(a, fe_add(b, c)), fe_sub(fe_sub(a, b), c)));
    if (!fe_is_zero(a)) EXPECT_TRUE(fe_equal(fe_mul(fe_invert(a), a), fe_one()));
  }
  EXPECT_TRUE(fe_equal(fe_sq(fe_sqrtm1()), fe_neg(fe_one())));
  // 2^255 - 19 + 5 decodes (leniently) as 5 and encodes canonically.
  uint8_t pe[32];
  std::memset(pe, 0xff, 32);
  pe[0] = 0xed + 5;
  pe[31] = 0x7f;
  uint8_t out[32];
  fe_tobytes(out, fe_frombytes(pe));
  EXPECT_EQ(out[0], 5);
  for (int i = 1; i < 32; ++i) EXPECT_EQ(out[i], 0);
}

TEST(Ed25519Core, BaseTableAndScalarMultiplication) {
  const GePrecomp* t = cpu::base_table();
  // [L]B = O through the double-scalar multiplication ([L - 1]B + [1]B).
  auto lm1 = test::group_order_le();
  lm1[0] -= 1;
  uint8_t one[32] = {1};
  const GeP3 q = ge_double_scalarmult_vartime(one, ge_base(), lm1.data(), t);
  EXPECT_TRUE(ge_p2_is_identity(ge_p3_to_p2(q)));
  // B encodes as 5866...66 (RFC 8032).
  uint8_t enc[32];
  ge_p2_tobytes(enc, ge_p3_to_p2(ge_base()));
  EXPECT_EQ(enc[0], 0x58);
  for (int i = 1; i < 32; ++i) EXPECT_EQ(enc[i], 0x66);
  GeP3 decoded;
  ASSERT_TRUE(ge_frombytes(decoded, enc, {true, true}));
  EXPECT_FALSE(ge_has_small_order(decoded));
  // The identity (y = 1) has small order; so does (0, -1).
  uint8_t id[32] = {1};
  ASSERT_TRUE(ge_frombytes(decoded, id, {true, true}));
  EXPECT_TRUE(ge_has_small_order(decoded));
}

}  // namespace
}  // namespace zkgpu
