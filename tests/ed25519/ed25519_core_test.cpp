// The core arithmetic (include/zkgpu/core/ed25519) on its own: scalar reduction against a bitwise
// reference, field laws at the limb-bound edges, point laws, and the base table.
#include <cstring>

#include "zkgpu/core/ed25519/fe25519_10.hpp"
#include "zkgpu/core/ed25519/verify.hpp"
#include "ed25519/cpu/verify_cpu.hpp"
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
    if (!fe_is_zero(a)) {
      EXPECT_TRUE(fe_equal(fe_mul(fe_invert(a), a), fe_one()));
    }
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
  using F = cpu::HostFe;
  const GePrecomp<F>* t = cpu::base_table();
  // [L]B = O through the double-scalar multiplication ([L - 1]B + [1]B).
  auto lm1 = test::group_order_le();
  lm1[0] -= 1;
  uint8_t one[32] = {1};
  const GeP3<F> q = ge_double_scalarmult_vartime(one, ge_base<F>(), lm1.data(), t);
  EXPECT_TRUE(ge_p2_is_identity(ge_p3_to_p2(q)));
  // B encodes as 5866...66 (RFC 8032).
  uint8_t enc[32];
  ge_p2_tobytes(enc, ge_p3_to_p2(ge_base<F>()));
  EXPECT_EQ(enc[0], 0x58);
  for (int i = 1; i < 32; ++i) EXPECT_EQ(enc[i], 0x66);
  GeP3<F> decoded;
  ASSERT_TRUE(ge_frombytes(decoded, enc, {true, true}));
  EXPECT_FALSE(ge_has_small_order(decoded));
  // The identity (y = 1) has small order; so does (0, -1).
  uint8_t id[32] = {1};
  ASSERT_TRUE(ge_frombytes(decoded, id, {true, true}));
  EXPECT_TRUE(ge_has_small_order(decoded));
}

// The GPU's 10-limb field gives the 51-bit field's values, also on sums (the widest inputs).
TEST(Ed25519Core, TenLimbFieldEqualsFiftyOneBitField) {
  test::Rng rng(23);
  auto random_fe = [&] {
    Fe a;
    for (auto& l : a.v) l = rng.u32() % 4 == 0 ? FE_MASK51 : rng.gen() & FE_MASK51;  // often all-ones limbs
    return a;
  };
  auto same = [](const Fe10& x, const Fe& y) {
    uint8_t a[32], b[32];
    fe_tobytes(a, x);
    fe_tobytes(b, y);
    return std::memcmp(a, b, 32) == 0;
  };
  for (int i = 0; i < 20000; ++i) {
    const Fe a = random_fe(), b = random_fe(), c = random_fe();
    const Fe10 a10 = fe_from51<Fe10>(a), b10 = fe_from51<Fe10>(b), c10 = fe_from51<Fe10>(c);
    ASSERT_TRUE(same(a10, a));
    ASSERT_TRUE(same(fe_mul(a10, b10), fe_mul(a, b))) << i;
    ASSERT_TRUE(same(fe_sq(a10), fe_sq(a))) << i;
    ASSERT_TRUE(same(fe_mul(fe_add(a10, b10), fe_add(c10, a10)), fe_mul(fe_add(a, b), fe_add(c, a)))) << i;
    ASSERT_TRUE(same(fe_sub(fe_add(a10, b10), fe_add(c10, c10)), fe_sub(fe_add(a, b), fe_add(c, c)))) << i;
    ASSERT_TRUE(same(fe_neg(a10), fe_neg(a))) << i;
  }
  // The widest inputs the bounds allow: every limb of a sum at its maximum.
  Fe10 wide;
  for (int i = 0; i < 10; ++i) wide.v[i] = (i & 1) ? (1u << 26) + (1u << 18) : (1u << 27) - 1;
  const Fe wide51 = fe_to51(wide);
  EXPECT_TRUE(same(fe_sq(wide), fe_mul(wide51, wide51)));
  EXPECT_TRUE(same(fe_mul(wide, wide), fe_mul(wide51, wide51)));
  const Fe x = random_fe();
  EXPECT_TRUE(same(fe_invert(fe_from51<Fe10>(x)), fe_invert(x)));
  EXPECT_TRUE(same(fe_pow22523(fe_from51<Fe10>(x)), fe_pow22523(x)));
}

// The whole verifier over the GPU's field, run on the host with both double-scalar methods (the
// CPU's sliding windows and the GPU kernels' fixed windows): every labelled edge case and the
// SUPERCOP answers in every mode, so the device arithmetic is checked without a GPU.
// A product policy that computes pairs in the other order (as lanes that finish out of order).
struct ReversedPair : SerialMul<Fe10> {
  template <class T, class Fn>
  void pair(T out[2], const Fn& fn) const {
    out[1] = fn(1);
    out[0] = fn(0);
  }
};

// Both verifier orders of work: ed25519_verify (the CPU's) and ed25519_verify_decoding_r (the
// GPU kernels').
template <class Table>
void expect_verifier_matches_labels(Table table) {
  const auto j = test::load_vectors("ed25519/edge_cases_labelled_by_semantics.json");
  const std::pair<VerifyMode, const char*> cols[] = {{VerifyMode::Openssl, "go_openssl_boringssl_dalek_verify"},
                                                     {VerifyMode::Strict, "dalek_verify_strict"},
                                                     {VerifyMode::Zip215, "zip215_zebra_consensus"}};
  size_t checked = 0;
  for (const auto& v : j) {
    const auto pk = test::unhex(v["pk"]), sig = test::unhex(v["sig"]), msg = test::unhex(v["msg"]);
    if (pk.size() != 32 || sig.size() != 64) continue;
    for (const auto& [m, col] : cols) {
      const bool want = v["results"][col].template get<bool>();
      ASSERT_EQ(ed25519_verify(m, pk.data(), sig.data(), msg.data(), msg.size(), table), want)
          << v["set"] << " " << v["id"] << " " << col;
      ASSERT_EQ(ed25519_verify_decoding_r(m, pk.data(), sig.data(), msg.data(), msg.size(), table), want)
          << v["set"] << " " << v["id"] << " " << col << " (decoding R)";
      ASSERT_EQ(ed25519_verify_decoding_r(m, pk.data(), sig.data(), msg.data(), msg.size(), table, ReversedPair{}),
                want)
          << v["set"] << " " << v["id"] << " " << col << " (decoding R, reversed pair)";
      ++checked;
    }
  }
  EXPECT_GT(checked, 3000u);
  for (const auto& c : test::supercop_cases()) {
    ASSERT_TRUE(ed25519_verify(VerifyMode::Openssl, c.pk.data(), c.sig.data(), c.msg.data(), c.msg.size(), table))
        << c.name;
    ASSERT_TRUE(
        ed25519_verify_decoding_r(VerifyMode::Openssl, c.pk.data(), c.sig.data(), c.msg.data(), c.msg.size(), table))
        << c.name;
  }
}

TEST(Ed25519Core, VerifierOverTenLimbFieldMatchesLabels) {
  GePrecomp<Fe10> odd[BASE_TABLE_SIZE];
  ed25519_base_table(odd);
  expect_verifier_matches_labels(static_cast<const GePrecomp<Fe10>*>(odd));
  GePrecomp<Fe10> multiples[BASE_MULTIPLES_SIZE];
  ed25519_base_multiples(multiples);
  expect_verifier_matches_labels(FixedBaseTable<Fe10>{multiples});
}

// The fixed windows' digits recompose to the scalar, at the edges of their ranges.
TEST(Ed25519Core, FixedWindowDigitsRecompose) {
  test::Rng rng(25);
  auto check = [](const uint8_t s[32]) {
    int8_t e16[64];
    int16_t e256[32];
    scalar_radix16(e16, s);
    scalar_radix256(e256, s);
    // Recompose both into little-endian bytes with a signed running carry.
    uint8_t r16[32], r256[32];
    int carry = 0;
    for (int i = 0; i < 32; ++i) {
      ASSERT_GE(e16[2 * i], -8);
      ASSERT_LE(e16[2 * i + 1], i == 31 ? 8 : 7);
      const int v = e16[2 * i] + 16 * e16[2 * i + 1] + carry;
      r16[i] = static_cast<uint8_t>(v & 0xff);
      carry = (v - (v & 0xff)) / 256;
    }
    ASSERT_EQ(carry, 0);
    for (int i = 0; i < 32; ++i) {
      ASSERT_GE(e256[i], -128);
      ASSERT_LE(e256[i], i == 31 ? 128 : 127);
      const int v = e256[i] + carry;
      r256[i] = static_cast<uint8_t>(v & 0xff);
      carry = (v - (v & 0xff)) / 256;
    }
    ASSERT_EQ(carry, 0);
    ASSERT_EQ(std::memcmp(r16, s, 32), 0);
    ASSERT_EQ(std::memcmp(r256, s, 32), 0);
  };
  uint8_t s[32] = {};
  check(s);
  std::memset(s, 0xff, 32);
  s[31] = 0x7f;  // 2^255 - 1, the largest input
  check(s);
  std::memset(s, 0x88, 32);  // every nibble and byte at the carry boundary
  s[31] = 0x78;
  check(s);
  std::memset(s, 0x80, 32);
  s[31] = 0x70;
  check(s);
  for (int n = 0; n < 2000; ++n) {
    for (auto& x : s) x = static_cast<uint8_t>(rng.u32());
    s[31] &= 0x7f;
    check(s);
  }
}

// Fixed windows give the point sliding windows give, also for the extreme scalars.
TEST(Ed25519Core, FixedWindowsEqualSlidingWindows) {
  GePrecomp<Fe10> odd[BASE_TABLE_SIZE], multiples[BASE_MULTIPLES_SIZE];
  ed25519_base_table(odd);
  ed25519_base_multiples(multiples);
  test::Rng rng(26);
  GeP3<Fe10> p = ge_base<Fe10>();
  for (int n = 0; n < 300; ++n) {
    uint8_t a[32], b[32];
    for (auto& x : a) x = static_cast<uint8_t>(rng.u32());
    for (auto& x : b) x = static_cast<uint8_t>(rng.u32());
    a[31] &= 0x7f;
    b[31] &= 0x7f;
    if (n == 0) std::memset(a, 0, 32);
    if (n == 1) std::memset(b, 0, 32);
    if (n == 2) std::memset(a, 0, 32), std::memset(b, 0, 32);
    if (n == 3) std::memset(a, 0xff, 32), std::memset(b, 0xff, 32), a[31] = b[31] = 0x7f;
    uint8_t e1[32], e2[32];
    ge_p2_tobytes(e1, ge_p3_to_p2(ge_double_scalarmult_vartime(a, p, b, static_cast<const GePrecomp<Fe10>*>(odd))));
    ge_p2_tobytes(e2, ge_p3_to_p2(ge_double_scalarmult(a, p, b, FixedBaseTable<Fe10>{multiples})));
    ASSERT_EQ(std::memcmp(e1, e2, 32), 0) << n;
    p = ge_p1p1_to_p3(ge_add_cached(p, ge_p3_to_cached(ge_base<Fe10>()), false));  // next point: (n + 2) B
    if (n == 5) p = ge_identity<Fe10>();
  }
}

// A product policy other than the serial one (squares as products, operands swapped, like the
// GPU lanes' generic product) gives the same points: the formulas depend only on o[i] = a[i] b[i].
struct SwappedMul {
  template <int N>
  void mul(Fe10* o, const Fe10* a, const Fe10* b) const {
    for (int i = N - 1; i >= 0; --i) o[i] = fe_mul(b[i], a[i]);
  }
  template <int N>
  void sq(Fe10* o, const Fe10* a) const {
    for (int i = 0; i < N; ++i) o[i] = fe_mul(a[i], a[i]);
  }
};

TEST(Ed25519Core, ProductPolicyDoesNotChangeResults) {
  GePrecomp<Fe10> table[BASE_TABLE_SIZE], multiples[BASE_MULTIPLES_SIZE];
  ed25519_base_table(table);
  ed25519_base_multiples(multiples);
  test::Rng rng(24);
  for (const auto& c : test::supercop_cases("ed25519/dalek_TESTVECTORS")) {
    GeP3<Fe10> a, r;
    ASSERT_TRUE(ed25519_precheck(VerifyMode::Openssl, c.pk.data(), c.sig.data(), a, r));
    uint8_t k[32];
    for (auto& x : k) x = static_cast<uint8_t>(rng.u32());
    k[31] &= 0x7f;
    uint8_t e1[32], e2[32];
    ge_p2_tobytes(e1, ge_p3_to_p2(ge_double_scalarmult_vartime(k, a, c.sig.data() + 32, table)));
    ge_p2_tobytes(e2, ge_p3_to_p2(ge_double_scalarmult_vartime(k, a, c.sig.data() + 32, table, SwappedMul{})));
    ASSERT_EQ(std::memcmp(e1, e2, 32), 0) << c.name;
    ge_p2_tobytes(
        e2, ge_p3_to_p2(ge_double_scalarmult(k, a, c.sig.data() + 32, FixedBaseTable<Fe10>{multiples}, SwappedMul{})));
    ASSERT_EQ(std::memcmp(e1, e2, 32), 0) << c.name;
    EXPECT_TRUE(ed25519_verify(VerifyMode::Openssl, c.pk.data(), c.sig.data(), c.msg.data(), c.msg.size(), table,
                               SwappedMul{}));
  }
}

}  // namespace
}  // namespace zkgpu
