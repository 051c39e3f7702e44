// FIPS 202 known answers (200-byte message 0..199, values from Python's hashlib) and the
// incremental sponge against the one-shot functions.
#include <gtest/gtest.h>

#include <vector>

#include "zkgpu/core/keccak/keccak.hpp"
#include "support/hex.hpp"
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

std::vector<uint8_t> msg200() {
  std::vector<uint8_t> m(200);
  for (int i = 0; i < 200; ++i) m[i] = uint8_t(i);
  return m;
}

TEST(Keccak, Sha3EmptyAndShake128Empty) {
  uint8_t h[32];
  keccak::sha3_256(h, nullptr, 0);
  EXPECT_EQ(to_hex(h, 32), "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
  keccak::shake128(h, 32, nullptr, 0);
  EXPECT_EQ(to_hex(h, 32), "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26");
}

TEST(Keccak, KnownAnswersMultiBlock) {
  const auto m = msg200();
  uint8_t h256[32], h512[64];
  keccak::sha3_256(h256, m.data(), m.size());
  keccak::sha3_512(h512, m.data(), m.size());
  EXPECT_EQ(to_hex(h256, 32), "5f728f63bf5ee48c77f453c0490398fa645b8d4c4e56be9a41cfec344d6ca899");
  EXPECT_EQ(to_hex(h512, 64),
            "ea5d05f19348dd589793354793a15f37a73b4c0bb4e750b9a00757dfce2f8b65a64191bb9b137de00feef6474cfd47abf7880efbc5"
            "1614a5715df12cfe0caee3");
  std::vector<uint8_t> s128(400), s256(300);
  keccak::shake128(s128.data(), s128.size(), m.data(), m.size());
  keccak::shake256(s256.data(), s256.size(), m.data(), m.size());
  EXPECT_EQ(to_hex(s128),
            "0c4234ca1e31801ae606f8b8d8e0665c66f42a21d601c2681858a92c79ad5d69e143c3b1393dd894e7abd5621b0d877f3573a34245"
            "e6b911f671081664a5fa53f778886cb56bdba60b2e8d21bd5b68b2f03f7db45fab8bec05d586922735967393f6c99991150acb1dcb"
            "fe12e54793975742408b347feedeabfeb77f9bbc70f3b14024309f530cc8919ed69e58b9b8ece0cf40db1b7a33d1329885e9ca4004"
            "b1fba4bad349b3f98d635b9775fc9cb1027c1e431756302e109614ff269d8415f43b504fbdff98605f9bf8a5ac0120f6e2403cc38f"
            "c07c6dfe2575f52f208cdf030b9fbdc20ecf6cbff7ff8e22744c70b25e3fa55eca18d67f3767f095f03856264588cf1fd09f29da75"
            "9c2e849b1f345feebde0f271a418c12e126fbe086095b9433e06a84f609a0c91793cc7379342c5822870da2c37ea464a0ad2d77867"
            "8a33d40bc054dfe5f39fcf3dae74a1e11e5c62dfab35b73cd2ecf088cc55d9724862c7641051d76a524264402261d3d8f601fee6ee"
            "2f71a7379d317fde494491ec873fa6be71b2cf3888ff169e5a98c7fa85");
  EXPECT_EQ(to_hex(s256),
            "4ee1ca03272b05d3bfb1e1c79a967f823b9fc5e4bb3987b1ba9e9cb5afb07a5ee3a07fbd457a94364964a841e7f466e5a022e21ab7"
            "f673c18ba98cdb1d5aecfae62268b068f1e4bf9ee9853bcce08dcd491c629aa218b60d3d453e83a554eb176cfef9729e99ff3a8127"
            "c49e3c3cf19ad26018ed796fedce98c5f867ec2bacbdb8012cc52b76e6d24a80fa3692d02a03634b34b2fb336232e4c027dca0cc4b"
            "d03a01f1cec8c35ad0e51687fad4e18ebc23a75851d466979d59db7391b61702a7fc85a1162bdbaaeab699499162f551da8b0c839f"
            "88ff96b8dd79015606526ab78fd1c101660de85653340f3d1dac2a22bcf1a2bef88d742de9006c2d5b6d8acd586b6bee76f85cccbf"
            "94e387c53c23e716c670c4db23c67901358ae64f3f0ccedfa05b29e84e1a11a635bfe7");
}

// Any split of the input into absorb calls and of the output into squeeze calls gives the same
// stream (the samplers rely on squeezing a few bytes at a time).
TEST(Keccak, IncrementalEqualsOneShot) {
  const auto m = msg200();
  std::vector<uint8_t> expect(500);
  keccak::shake128(expect.data(), expect.size(), m.data(), m.size());
  Rng rng(1);
  for (int trial = 0; trial < 50; ++trial) {
    keccak::Sponge s = keccak::shake128();
    size_t off = 0;
    while (off < m.size()) {
      const size_t take = std::min<size_t>(rng.u32() % 180, m.size() - off);
      s.absorb(m.data() + off, take);
      off += take;
    }
    std::vector<uint8_t> out(500);
    off = 0;
    while (off < out.size()) {
      const size_t take = std::min<size_t>(rng.u32() % 200, out.size() - off);
      s.squeeze(out.data() + off, take);
      off += take;
    }
    ASSERT_EQ(out, expect) << "trial " << trial;
  }
}

}  // namespace
}  // namespace zkgpu::test
