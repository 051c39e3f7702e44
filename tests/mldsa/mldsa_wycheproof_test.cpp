// Every Wycheproof ML-DSA vector (C2SP/wycheproof, see tests/vectors/mldsa/PROVENANCE.md) for the
// three parameter sets: signing from the seed and from the expanded key (deterministic, hedged,
// with contexts, external mu, malformed keys) and verification (hint encoding, norms, lengths,
// contexts).
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "support/hex.hpp"
#include "support/test_support.hpp"
#include "zkgpu/mldsa.hpp"

namespace zkgpu::test {
namespace {

using Bytes = std::vector<uint8_t>;

class MlDsaWycheproof : public ::testing::TestWithParam<int> {
 protected:
  MlDsaSet set() const { return *parse_mldsa_set(std::to_string(GetParam())); }
  nlohmann::json load(const char* kind) const {
    return load_vectors("mldsa/wycheproof_mldsa_" + std::to_string(GetParam()) + "_" + kind + ".json");
  }
  std::optional<Bytes> sign(const Bytes& sk, const Bytes& msg, const Bytes& ctx, const Bytes& rnd, bool ext) const {
    Bytes sig(mldsa_sizes(set()).sig, 0xee);
    PqStatus st;
    const MlDsaSignItem item{sk, msg, ctx, rnd, ext};
    mldsa_sign_batch(set(), {&item, 1}, sig, {&st, 1}, Backend::Cpu);
    if (st != PqStatus::Ok) {
      EXPECT_EQ(sig, Bytes(sig.size(), 0)) << "a rejected item's signature slot is zeroed";
      return std::nullopt;
    }
    return sig;
  }
  bool verify(const Bytes& pk, const Bytes& msg, const Bytes& ctx, const Bytes& sig, bool ext = false) const {
    uint8_t ok = 7;
    const MlDsaVerifyItem item{pk, msg, ctx, sig, ext};
    mldsa_verify_batch(set(), {&item, 1}, {&ok, 1}, Backend::Cpu);
    EXPECT_LE(ok, 1);
    return ok == 1;
  }
  // Runs the signing tests of one file against the expanded key of each group (from the seed
  // when `seeded`). Returns the number of tests seen.
  int run_sign_file(const nlohmann::json& f, bool seeded) const {
    int n = 0;
    for (const auto& g : f["testGroups"]) {
      std::optional<Bytes> sk;
      Bytes pk;
      if (seeded) {
        const Bytes seed = from_hex(g["privateSeed"]);
        if (seed.size() == MlDsaSizes::seed) {
          const auto sz = mldsa_sizes(set());
          sk.emplace(sz.sk);
          pk.resize(sz.pk);
          mldsa_keygen_batch(set(), seed, pk, *sk, Backend::Cpu);
          if (g.contains("publicKey") && g["publicKey"].is_string()) {
            EXPECT_EQ(to_hex(pk), g["publicKey"].get<std::string>());
          }
        }
      } else {
        sk = from_hex(g["privateKey"]);
      }
      for (const auto& t : g["tests"]) {
        SCOPED_TRACE("tcId " + std::to_string(t["tcId"].get<int>()));
        ++n;
        const bool valid = t["result"] == "valid";
        const Bytes ctx = t.contains("ctx") ? from_hex(t["ctx"]) : Bytes{};
        const Bytes rnd = t.contains("rnd") ? from_hex(t["rnd"]) : Bytes{};
        std::optional<Bytes> sig;
        if (sk) {
          if (t.contains("msg")) {
            sig = sign(*sk, from_hex(t["msg"]), ctx, rnd, false);
          } else {
            sig = sign(*sk, from_hex(t["mu"]), {}, rnd, true);
          }
        }
        EXPECT_EQ(sig.has_value(), valid);
        if (!valid || !sig) continue;
        EXPECT_EQ(to_hex(*sig), t["sig"].get<std::string>());
        // The external-mu interface gives the same signature for the same mu.
        if (t.contains("msg") && t.contains("mu")) {
          const auto sig_mu = sign(*sk, from_hex(t["mu"]), {}, rnd, true);
          EXPECT_TRUE(sig_mu);
          if (sig_mu) {
            EXPECT_EQ(*sig_mu, *sig);
          }
        }
        if (!pk.empty() && t.contains("msg")) {
          EXPECT_TRUE(verify(pk, from_hex(t["msg"]), ctx, *sig));
        }
        if (!pk.empty() && t.contains("mu")) {
          EXPECT_TRUE(verify(pk, from_hex(t["mu"]), {}, *sig, true));
        }
      }
    }
    return n;
  }
};

TEST_P(MlDsaWycheproof, SignFromSeed) {
  const auto f = load("sign_seed_test");
  EXPECT_EQ(run_sign_file(f, true), f["numberOfTests"].get<int>());
}

TEST_P(MlDsaWycheproof, SignFromExpandedKey) {
  const auto f = load("sign_noseed_test");
  EXPECT_EQ(run_sign_file(f, false), f["numberOfTests"].get<int>());
}

TEST_P(MlDsaWycheproof, Verify) {
  const auto f = load("verify_test");
  int n = 0;
  for (const auto& g : f["testGroups"]) {
    const Bytes pk = from_hex(g["publicKey"]);
    for (const auto& t : g["tests"]) {
      SCOPED_TRACE("tcId " + std::to_string(t["tcId"].get<int>()));
      ++n;
      const Bytes ctx = t.contains("ctx") ? from_hex(t["ctx"]) : Bytes{};
      EXPECT_EQ(verify(pk, from_hex(t["msg"]), ctx, from_hex(t["sig"])), t["result"] == "valid");
    }
  }
  EXPECT_EQ(n, f["numberOfTests"].get<int>());
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlDsaWycheproof, ::testing::Values(44, 65, 87));

}  // namespace
}  // namespace zkgpu::test
