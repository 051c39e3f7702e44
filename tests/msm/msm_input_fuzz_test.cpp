// Runs the fuzz harness of the BLS12-377 decoders (tests/fuzz/msm_input_fuzz.hpp) over mutated
// valid inputs and random bytes, so its invariants are checked in every CI run.
#include <gtest/gtest.h>

#include "bls12_377/bls_test_support.hpp"
#include "fuzz/msm_input_fuzz.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

TEST(Bls12377InputFuzz, MutatedValidInputsNeverCrash) {
  Rng rng(50);
  G1Affine p = mul_g(random_scalar(rng));
  std::string line = to_hex(p.x) + ":" + to_hex(p.y) + ":" + to_hex(random_scalar(rng));
  auto bytes = [](const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); };
  EXPECT_EQ(fuzz::msm_input_one(bytes(line)), 1);
  auto comp = serialize_compressed(p);
  auto unc = serialize_uncompressed(p);
  std::vector<uint8_t> enc(unc.begin(), unc.end());
  std::vector<uint8_t> c(comp.begin(), comp.end());
  EXPECT_GE(fuzz::msm_input_one(c), 1);
  EXPECT_GE(fuzz::msm_input_one(enc), 1);
  const char alphabet[] = "0123456789abcdefx:infty \r\t";
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> m = i % 3 == 0 ? bytes(line) : i % 3 == 1 ? c : enc;
    int edits = 1 + rng.u32() % 4;
    for (int e = 0; e < edits && !m.empty(); ++e) {
      size_t pos = rng.u32() % m.size();
      switch (rng.u32() % 4) {
        case 0: m[pos] = static_cast<uint8_t>(alphabet[rng.u32() % (sizeof alphabet - 1)]); break;
        case 1: m[pos] ^= static_cast<uint8_t>(1u << (rng.u32() % 8)); break;
        case 2: m.erase(m.begin() + static_cast<long>(pos)); break;
        default: m.insert(m.begin() + static_cast<long>(pos), static_cast<uint8_t>(rng.u32())); break;
      }
    }
    (void)fuzz::msm_input_one(m);
  }
  for (int i = 0; i < 500; ++i) {
    std::vector<uint8_t> m(rng.u32() % 200);
    for (auto& b : m) b = static_cast<uint8_t>(rng.u32());
    (void)fuzz::msm_input_one(m);
  }
}

}  // namespace
}  // namespace zkgpu::test
