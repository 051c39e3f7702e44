// Known answers in every mode: RFC 8032 section 7.1, the 1024 SUPERCOP answers, dalek's
// TESTVECTORS, Wycheproof, and the 1077 edge cases (speccheck, CCTV, Wycheproof) labelled with the
// verdict of each rule set. Also the core SHA-512 against OpenSSL.
#include <openssl/sha.h>

#include <map>

#include "zkgpu/core/ed25519/sha512.hpp"
#include "ed25519/ed25519_test_support.hpp"
#include "runtime/names.hpp"

namespace zkgpu {
namespace {

using test::SigCase;
using test::unhex;

constexpr Ed25519Mode ALL_MODES[] = {Ed25519Mode::Openssl, Ed25519Mode::Strict, Ed25519Mode::Zip215};

// The vector file's verdict column for each mode.
constexpr EnumName<Ed25519Mode> LABEL_COLUMNS[] = {{Ed25519Mode::Openssl, "go_openssl_boringssl_dalek_verify"},
                                                   {Ed25519Mode::Strict, "dalek_verify_strict"},
                                                   {Ed25519Mode::Zip215, "zip215_zebra_consensus"}};
const char* label_column(Ed25519Mode m) { return name_of(LABEL_COLUMNS, m); }

TEST(Ed25519Sha512, MatchesOpenSslOnEveryLengthAroundBlockEdges) {
  test::Rng rng(41);
  std::vector<uint8_t> msg(1200);
  for (auto& b : msg) b = static_cast<uint8_t>(rng.u32());
  for (size_t len = 0; len <= msg.size(); len += (len < 300 ? 1 : 37)) {
    uint8_t ours[64], ref[64];
    ed25519::sha512(msg.data(), len, ours);
    SHA512(msg.data(), len, ref);
    ASSERT_EQ(std::memcmp(ours, ref, 64), 0) << "length " << len;
    // Incremental updates in odd pieces give the same digest.
    ed25519::Sha512 h;
    h.init();
    for (size_t off = 0; off < len;) {
      const size_t piece = std::min<size_t>(len - off, 1 + rng.u32() % 200);
      h.update(msg.data() + off, piece);
      off += piece;
    }
    h.final(ours);
    ASSERT_EQ(std::memcmp(ours, ref, 64), 0) << "incremental, length " << len;
  }
}

TEST(Ed25519Vectors, Rfc8032Section71AllModesAllBackends) {
  const auto j = test::load_vectors("ed25519/rfc8032_7.1_ed25519.json");
  std::vector<SigCase> cases;
  for (const auto& v : j["vectors"])
    cases.push_back({unhex(v["public_key"]), unhex(v["signature"]), unhex(v["message"]), v["name"]});
  ASSERT_EQ(cases.size(), 5u);
  const auto items = test::items_of(cases);
  for (Ed25519Mode m : ALL_MODES) {
    for (size_t i = 0; i < cases.size(); ++i)
      EXPECT_TRUE(ed25519_verify(cases[i].pk, cases[i].sig, cases[i].msg, m)) << cases[i].name << " " << to_string(m);
    EXPECT_EQ(ed25519_verify_batch(items, m, Backend::Cpu), std::vector<uint8_t>(cases.size(), 1));
    // A flipped message bit fails.
    auto bad = cases[1];
    bad.msg[0] ^= 1;
    EXPECT_FALSE(ed25519_verify(bad.pk, bad.sig, bad.msg, m));
  }
}

TEST(Ed25519Vectors, Supercop1024KnownAnswersAllModes) {
  auto cases = test::supercop_cases();
  ASSERT_EQ(cases.size(), 1024u);
  const auto items = test::items_of(cases);
  for (Ed25519Mode m : ALL_MODES) {
    const auto got = ed25519_verify_batch(items, m, Backend::Cpu);
    for (size_t i = 0; i < cases.size(); ++i) ASSERT_EQ(got[i], 1) << cases[i].name << " " << to_string(m);
  }
}

TEST(Ed25519Vectors, DalekTestvectorsAllModes) {
  auto cases = test::supercop_cases("ed25519/dalek_TESTVECTORS");
  ASSERT_EQ(cases.size(), 128u);
  for (Ed25519Mode m : ALL_MODES)
    EXPECT_EQ(ed25519_verify_batch(test::items_of(cases), m, Backend::Cpu), std::vector<uint8_t>(128, 1));
}

// Wycheproof expects strict RFC behaviour: the Openssl and Strict modes agree with every verdict;
// Zip215 disagrees on exactly one, the identity encoded with the sign bit set as R (spec 1.1).
TEST(Ed25519Vectors, Wycheproof) {
  const auto j = test::load_vectors("ed25519/wycheproof_ed25519_test.json");
  std::vector<SigCase> cases;
  std::vector<uint8_t> expect;
  for (const auto& g : j["testGroups"]) {
    const auto pk = unhex(g["publicKey"]["pk"]);
    for (const auto& t : g["tests"]) {
      cases.push_back({pk, unhex(t["sig"]), unhex(t["msg"]), "tcId " + std::to_string(t["tcId"].get<int>())});
      expect.push_back(t["result"] == "valid" ? 1 : 0);
    }
  }
  ASSERT_EQ(cases.size(), 151u);
  const auto items = test::items_of(cases);  // some signatures have the wrong length: per-item false
  for (Ed25519Mode m : ALL_MODES) {
    std::vector<std::string> disagree;
    for (size_t i = 0; i < cases.size(); ++i)
      if (ed25519_verify(cases[i].pk, cases[i].sig, cases[i].msg, m) != (expect[i] == 1))
        disagree.push_back(cases[i].name);
    if (m == Ed25519Mode::Zip215) {
      ASSERT_EQ(disagree.size(), 1u) << ::testing::PrintToString(disagree);
      const auto& c =
          *std::find_if(cases.begin(), cases.end(), [&](const SigCase& s) { return s.name == disagree[0]; });
      EXPECT_EQ(c.sig.size(), 64u);
      EXPECT_EQ(test::unhex("0100000000000000000000000000000000000000000000000000000000000080"),
                std::vector<uint8_t>(c.sig.begin(), c.sig.begin() + 32));
    } else {
      EXPECT_TRUE(disagree.empty()) << to_string(m) << ": " << ::testing::PrintToString(disagree);
    }
  }
}

std::vector<std::pair<SigCase, nlohmann::json>> labelled_cases() {
  const auto j = test::load_vectors("ed25519/edge_cases_labelled_by_semantics.json");
  std::vector<std::pair<SigCase, nlohmann::json>> out;
  for (const auto& v : j) {
    SigCase c{unhex(v["pk"]), unhex(v["sig"]), unhex(v["msg"]),
              v["set"].get<std::string>() + " " + std::to_string(v["id"].get<int>())};
    out.emplace_back(std::move(c), v["results"]);
  }
  return out;
}

TEST(Ed25519Vectors, EdgeCasesLabelledBySemanticsEveryMode) {
  const auto cases = labelled_cases();
  ASSERT_EQ(cases.size(), 1077u);
  for (Ed25519Mode m : ALL_MODES) {
    std::vector<std::string> wrong;
    for (const auto& [c, labels] : cases) {
      if (c.pk.size() != 32 || c.sig.size() != 64) {  // Wycheproof's truncated signatures: rejected everywhere
        if (labels[label_column(m)].get<bool>()) wrong.push_back(c.name + " (bad length but labelled valid)");
        continue;
      }
      if (ed25519_verify(c.pk, c.sig, c.msg, m) != labels[label_column(m)].get<bool>()) wrong.push_back(c.name);
    }
    EXPECT_TRUE(wrong.empty()) << to_string(m) << ": " << wrong.size() << " wrong: " << ::testing::PrintToString(wrong);
  }
}

// The batch path (threads, CPU backend) gives the single verdicts on the same edge cases.
TEST(Ed25519Vectors, EdgeCasesBatchEqualsSingle) {
  std::vector<SigCase> cases;
  for (auto& [c, labels] : labelled_cases())
    if (c.pk.size() == 32 && c.sig.size() == 64) cases.push_back(c);
  const auto items = test::items_of(cases);
  for (Ed25519Mode m : ALL_MODES) {
    const auto got = ed25519_verify_batch(items, m, Backend::Cpu);
    for (size_t i = 0; i < cases.size(); ++i)
      ASSERT_EQ(got[i], ed25519_verify(cases[i].pk, cases[i].sig, cases[i].msg, m) ? 1 : 0) << cases[i].name;
  }
}

// The 12 speccheck cases give each mode's row of spec section 1.1.
TEST(Ed25519Vectors, SpeccheckRowsAndLibsodiumCasesCovered) {
  const auto spec = test::load_vectors("ed25519/speccheck_cases.json");
  const std::map<Ed25519Mode, std::string> rows = {{Ed25519Mode::Openssl, "VVVVXXXXXXXV"},
                                                   {Ed25519Mode::Strict, "XXXVXXXXXXXX"},
                                                   {Ed25519Mode::Zip215, "VVVVVVXXXVVV"}};
  ASSERT_EQ(spec.size(), 12u);
  for (const auto& [m, row] : rows) {
    std::string got;
    for (const auto& v : spec) {
      const auto pk = unhex(v["pub_key"]), sig = unhex(v["signature"]), msg = unhex(v["message"]);
      got += ed25519_verify(pk, sig, msg, m) ? 'V' : 'X';
    }
    EXPECT_EQ(got, row) << to_string(m);
  }
  // libsodium's sign2 vectors are the speccheck cases except one (index 7: speccheck 7 with a
  // different S >= L); each mode gives the speccheck row's verdict, and rejects the extra one.
  const auto sodium = test::load_vectors("ed25519/libsodium_sign2_vectors.json");
  ASSERT_EQ(sodium["vectors"].size(), 12u);
  for (const auto& v : sodium["vectors"]) {
    const auto pk = unhex(v["pk"]), sig = unhex(v["sig"]), msg = unhex(v["msg"]);
    int match = -1;
    for (size_t i = 0; i < spec.size(); ++i)
      if (unhex(spec[i]["pub_key"]) == pk && unhex(spec[i]["signature"]) == sig && unhex(spec[i]["message"]) == msg)
        match = static_cast<int>(i);
    for (const auto& [m, row] : rows) {
      const bool want = match >= 0 ? row[static_cast<size_t>(match)] == 'V' : false;
      EXPECT_EQ(ed25519_verify(pk, sig, msg, m), want) << "libsodium vector " << v["index"] << " " << to_string(m);
    }
    if (match < 0) {
      EXPECT_EQ(v["index"], 7);
    }
  }
}

}  // namespace
}  // namespace zkgpu
