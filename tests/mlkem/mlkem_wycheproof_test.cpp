// Every Wycheproof ML-KEM vector (C2SP/wycheproof, see tests/vectors/mlkem/PROVENANCE.md) for the
// three parameter sets: keygen from seed, encaps with injected m (including keys not reduced mod q
// and wrong lengths), decaps (implicit rejection, strcmp cases) and the expanded-dk checks.
#include <gtest/gtest.h>

#include "mlkem/mlkem_support.hpp"
#include "support/hex.hpp"
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

class MlKemWycheproof : public ::testing::TestWithParam<int> {
 protected:
  MlKemSet set() const { return *parse_mlkem_set(std::to_string(GetParam())); }
  nlohmann::json load(const char* kind) const {
    return load_vectors("mlkem/wycheproof_mlkem_" + std::to_string(GetParam()) + "_" + kind + ".json");
  }
};

int run_all(const nlohmann::json& file, const std::function<void(const nlohmann::json&)>& body) {
  int n = 0;
  for (const auto& g : file["testGroups"])
    for (const auto& t : g["tests"]) {
      SCOPED_TRACE("tcId " + std::to_string(t["tcId"].get<int>()));
      body(t);
      ++n;
    }
  return n;
}

TEST_P(MlKemWycheproof, KeygenSeed) {
  const auto f = load("keygen_seed_test");
  const int n = run_all(f, [&](const nlohmann::json& t) {
    const auto kp = kem_keygen(set(), from_hex(t["seed"]));
    ASSERT_TRUE(kp);
    EXPECT_EQ(to_hex(kp->first), t["ek"].get<std::string>());
    EXPECT_EQ(to_hex(kp->second), t["dk"].get<std::string>());
  });
  EXPECT_EQ(n, f["numberOfTests"].get<int>());
}

TEST_P(MlKemWycheproof, SeedThenDecaps) {
  const auto f = load("test");
  const int n = run_all(f, [&](const nlohmann::json& t) {
    const bool valid = t["result"] == "valid";
    const auto kp = kem_keygen(set(), from_hex(t["seed"]));
    std::optional<Bytes> k;
    if (kp) {
      if (t.contains("ek")) {
        EXPECT_EQ(to_hex(kp->first), t["ek"].get<std::string>());
      }
      k = kem_decaps(set(), kp->second, from_hex(t["c"]));
    }
    ASSERT_EQ(k.has_value(), valid);
    if (valid) {
      EXPECT_EQ(to_hex(*k), t["K"].get<std::string>());
    }
  });
  EXPECT_EQ(n, f["numberOfTests"].get<int>());
}

TEST_P(MlKemWycheproof, Encaps) {
  const auto f = load("encaps_test");
  const int n = run_all(f, [&](const nlohmann::json& t) {
    const bool valid = t["result"] == "valid";
    const auto r = kem_encaps(set(), from_hex(t["ek"]), from_hex(t["m"]));
    ASSERT_EQ(r.has_value(), valid);
    if (valid) {
      EXPECT_EQ(to_hex(r->first), t["c"].get<std::string>());
      EXPECT_EQ(to_hex(r->second), t["K"].get<std::string>());
    }
  });
  EXPECT_EQ(n, f["numberOfTests"].get<int>());
}

TEST_P(MlKemWycheproof, SemiExpandedDecaps) {
  const auto f = load("semi_expanded_decaps_test");
  const int n = run_all(f, [&](const nlohmann::json& t) {
    const bool valid = t["result"] == "valid";
    const auto k = kem_decaps(set(), from_hex(t["dk"]), from_hex(t["c"]));
    ASSERT_EQ(k.has_value(), valid);
    if (valid) {
      EXPECT_EQ(to_hex(*k), t["K"].get<std::string>());
    }
  });
  EXPECT_EQ(n, f["numberOfTests"].get<int>());
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlKemWycheproof, ::testing::Values(512, 768, 1024));

}  // namespace
}  // namespace zkgpu::test
