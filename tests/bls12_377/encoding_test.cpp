#include <gtest/gtest.h>

#include "bls12_377/bls_test_support.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

std::string hex_bytes(std::span<const uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t v : b) s += {d[v >> 4], d[v & 15]};
  return s;
}

// Expected bytes computed independently (Python big integers) from the arkworks rules: x
// little-endian, bit 7 of the last byte set because the generator's y exceeds (p-1)/2.
TEST(Bls12377Encoding, GeneratorKnownAnswer) {
  G1Affine g = G1Affine::generator();
  EXPECT_EQ(hex_bytes(serialize_compressed(g)),
            "efe91bb26eb1b9ea4e39cdff121548d55ccb37bdc8828218bb419daa2c1e958554ff87bf2562fcc8670a74fede488880");
  EXPECT_EQ(hex_bytes(serialize_uncompressed(g)),
            "efe91bb26eb1b9ea4e39cdff121548d55ccb37bdc8828218bb419daa2c1e958554ff87bf2562fcc8670a74fede488800"
            "a68e9c5555de82fd1a59a934363dfec20523b84fd42a186dd9523eca48b37fbdc4eeaf305d4f671fff2e10c5694a9181");
  auto inf = serialize_compressed(G1Affine::identity());
  EXPECT_EQ(inf[47], 0x40);
}

TEST(Bls12377Encoding, RoundTrips) {
  Rng rng(20);
  std::vector<G1Affine> pts = {G1Affine::identity(), G1Affine::generator(), G1Affine::generator().neg()};
  for (int i = 0; i < 10; ++i) pts.push_back(mul_g(random_scalar(rng)));
  for (const G1Affine& p : pts) {
    std::string err;
    G1Affine q;
    auto c = serialize_compressed(p);
    ASSERT_TRUE(deserialize_compressed(c, q, err)) << err;
    EXPECT_EQ(q, p);
    auto u = serialize_uncompressed(p);
    ASSERT_TRUE(deserialize_uncompressed(u, q, err)) << err;
    EXPECT_EQ(q, p);
  }
}

TEST(Bls12377Encoding, RejectsBadInput) {
  std::string err;
  G1Affine q;
  auto c = serialize_compressed(G1Affine::generator());
  auto bad = c;
  bad[47] |= 0x40;  // both flags
  EXPECT_FALSE(deserialize_compressed(bad, q, err));
  bad = c;
  for (int i = 0; i < 47; ++i) bad[i] = 0xff;  // x >= p
  bad[47] = 0x3f;
  EXPECT_FALSE(deserialize_compressed(bad, q, err));
  EXPECT_NE(err.find("not below p"), std::string::npos);
  // x with no curve point: search a small x whose x^3 + 1 is a non-square.
  for (uint64_t x = 2;; ++x) {
    Fp r;
    Fp fx = Fp::from_u64(x);
    if (fp_sqrt(fx.square() * fx + Fp::one(), r)) continue;
    std::array<uint8_t, 48> enc{};
    enc[0] = static_cast<uint8_t>(x);
    EXPECT_FALSE(deserialize_compressed(enc, q, err));
    break;
  }
  // On the curve but outside G1.
  Rng rng(21);
  for (;;) {
    Fp x = random_fp(rng), y;
    if (!fp_sqrt(x.square() * x + Fp::one(), y)) continue;
    G1Affine p{x, y, false};
    EXPECT_FALSE(deserialize_compressed(serialize_compressed(p), q, err));
    EXPECT_FALSE(deserialize_uncompressed(serialize_uncompressed(p), q, err));
    EXPECT_NE(err.find("subgroup"), std::string::npos);
    break;
  }
  // Off the curve (uncompressed).
  auto u = serialize_uncompressed(G1Affine::generator());
  u[48] ^= 1;
  EXPECT_FALSE(deserialize_uncompressed(u, q, err));
  // Infinity flag with a nonzero coordinate.
  std::array<uint8_t, 48> inf{};
  inf[0] = 1;
  inf[47] = 0x40;
  EXPECT_FALSE(deserialize_compressed(inf, q, err));
}

}  // namespace
}  // namespace zkgpu::test
