// The C ABI's Ed25519 batch against the C++ API and the vector files: the same verdicts byte for
// byte in every mode; wrong lengths are invalid items; a bad item never changes another's verdict.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "ed25519/ed25519_test_support.hpp"

namespace zkgpu::test {
namespace {

// The C ABI's verdicts for owned cases.
std::vector<uint8_t> capi_verdicts(const std::vector<SigCase>& cases, zkgpu_ed25519_mode mode,
                                   zkgpu_backend backend = ZKGPU_BACKEND_CPU) {
  std::vector<std::vector<uint8_t>> pks, sigs, msgs;
  for (const SigCase& c : cases) {
    pks.push_back(c.pk);
    sigs.push_back(c.sig);
    msgs.push_back(c.msg);
  }
  const ByteArrays pk(pks), sig(sigs), msg(msgs);
  std::vector<uint8_t> out(cases.size(), 7);
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch(pk.ptrs.data(), pk.lens.data(), sig.ptrs.data(), sig.lens.data(),
                                            msg.ptrs.data(), msg.lens.data(), cases.size(), mode, backend, out.data()));
  // The struct-array call reads the same items through its stride: the same verdicts, always.
  std::vector<zkgpu_ed25519_item> items;
  for (size_t i = 0; i < cases.size(); ++i)
    items.push_back({pk.ptrs[i], pk.lens[i], sig.ptrs[i], sig.lens[i], msg.ptrs[i], msg.lens[i]});
  std::vector<uint8_t> from_items(cases.size(), 5);
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_items(items.data(), items.size(), mode, backend, from_items.data()));
  EXPECT_EQ(from_items, out) << "zkgpu_ed25519_verify_batch_items";
  return out;
}

const zkgpu_ed25519_mode MODES[] = {ZKGPU_ED25519_OPENSSL, ZKGPU_ED25519_STRICT, ZKGPU_ED25519_ZIP215};

Ed25519Mode cxx_mode(zkgpu_ed25519_mode m) { return static_cast<Ed25519Mode>(m); }

TEST(CApiEd25519, SupercopVectorsEqualTheCxxApiInEveryMode) {
  const std::vector<SigCase> cases = supercop_cases();
  for (zkgpu_ed25519_mode m : MODES) {
    const std::vector<uint8_t> want = ed25519_verify_batch(items_of(cases), cxx_mode(m), Backend::Cpu);
    EXPECT_EQ(capi_verdicts(cases, m), want) << "mode " << m;
    EXPECT_EQ(want, std::vector<uint8_t>(cases.size(), 1));
  }
}

TEST(CApiEd25519, EdgeCaseVectorsEqualTheCxxApiInEveryMode) {
  const auto j = load_vectors("ed25519/edge_cases_labelled_by_semantics.json");
  std::vector<SigCase> cases;
  for (const auto& v : j) cases.push_back({unhex(v["pk"]), unhex(v["sig"]), unhex(v["msg"]), ""});
  ASSERT_FALSE(cases.empty());
  // Some cases have keys or signatures of wrong lengths, which the C++ batch refuses as a whole:
  // the reference is the C++ single verification, which judges them invalid as the C ABI does.
  size_t wrong_lengths = 0;
  for (const SigCase& c : cases) wrong_lengths += c.pk.size() != 32 || c.sig.size() != 64;
  EXPECT_GT(wrong_lengths, 0u);
  for (zkgpu_ed25519_mode m : MODES) {
    std::vector<uint8_t> want;
    for (const SigCase& c : cases) want.push_back(ed25519_verify(c.pk, c.sig, c.msg, cxx_mode(m)) ? 1 : 0);
    EXPECT_EQ(capi_verdicts(cases, m, ZKGPU_BACKEND_AUTO), want) << "mode " << m;
  }
}

TEST(CApiEd25519, WrongLengthsAreInvalidItemsThatChangeNoOtherVerdict) {
  Signer signer(11);
  std::vector<SigCase> cases;
  for (size_t i = 0; i < 48; ++i) cases.push_back(signer.sign(i % 7 * 13));
  for (size_t i = 0; i < cases.size(); i += 3) cases[i] = mutate(cases[i], signer.rng());
  std::vector<uint8_t> want;
  for (const SigCase& c : cases) want.push_back(ed25519_verify(c.pk, c.sig, c.msg) ? 1 : 0);
  // Every fourth item gets a key or signature of a wrong length (or none at all).
  for (size_t i = 1; i < cases.size(); i += 4) {
    switch (i % 3) {
      case 0: cases[i].pk.pop_back(); break;
      case 1: cases[i].sig.push_back(0); break;
      default: cases[i].sig.clear();
    }
    want[i] = 0;
  }
  for (zkgpu_ed25519_mode m : MODES) {
    const std::vector<uint8_t> got = capi_verdicts(cases, m);
    for (size_t i = 1; i < cases.size(); i += 4) EXPECT_EQ(got[i], 0) << "item " << i;
    if (m == ZKGPU_ED25519_OPENSSL) {
      EXPECT_EQ(got, want);
    }
    // Each verdict is the item's own: the same as verifying it alone.
    for (size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(got[i], capi_verdicts({cases[i]}, m)[0]) << "item " << i;
  }
}

TEST(CApiEd25519, NullPointersEmptyBatchesAndEnums) {
  Signer signer(12);
  const SigCase c = signer.sign(0);
  const uint8_t* pk = c.pk.data();
  const uint8_t* sig = c.sig.data();
  const uint8_t* msg = nullptr;  // the empty message may be NULL
  size_t pk_len = 32, sig_len = 64, msg_len = 0;
  uint8_t v = 9;
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch(&pk, &pk_len, &sig, &sig_len, &msg, &msg_len, 1, ZKGPU_ED25519_OPENSSL,
                                            ZKGPU_BACKEND_CPU, &v));
  EXPECT_EQ(v, 1);
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0,
                                            ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, nullptr));
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(nullptr, &pk_len, &sig, &sig_len, &msg, &msg_len, 1, ZKGPU_ED25519_OPENSSL,
                                             ZKGPU_BACKEND_CPU, &v),
                  ZKGPU_INVALID_ARGUMENT, "public_keys");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(&pk, &pk_len, &sig, &sig_len, &msg, nullptr, 1, ZKGPU_ED25519_OPENSSL,
                                             ZKGPU_BACKEND_CPU, &v),
                  ZKGPU_INVALID_ARGUMENT, "message_lens");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(&pk, &pk_len, &sig, &sig_len, &msg, &msg_len, 1, ZKGPU_ED25519_OPENSSL,
                                             ZKGPU_BACKEND_CPU, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "verdicts");
  msg_len = 3;  // a NULL message of 3 bytes is the caller's mistake, named by index
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(&pk, &pk_len, &sig, &sig_len, &msg, &msg_len, 1, ZKGPU_ED25519_OPENSSL,
                                             ZKGPU_BACKEND_CPU, &v),
                  ZKGPU_INVALID_ARGUMENT, "messages[0]");
  msg_len = 0;
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(&pk, &pk_len, &sig, &sig_len, &msg, &msg_len, 1, (zkgpu_ed25519_mode)3,
                                             ZKGPU_BACKEND_CPU, &v),
                  ZKGPU_INVALID_ARGUMENT, "mode 3");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(&pk, &pk_len, &sig, &sig_len, &msg, &msg_len, 1, ZKGPU_ED25519_OPENSSL,
                                             (zkgpu_backend)7, &v),
                  ZKGPU_INVALID_ARGUMENT, "backend 7");
  if (!zkgpu_cuda_usable()) {
    EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(&pk, &pk_len, &sig, &sig_len, &msg, &msg_len, 1, ZKGPU_ED25519_OPENSSL,
                                               ZKGPU_BACKEND_CUDA, &v),
                    ZKGPU_UNAVAILABLE);
  }
}

TEST(CApiEd25519, ItemStructsCheckTheirPointersAndMayAliasTheVerdicts) {
  Signer signer(13);
  std::vector<SigCase> cases;
  for (size_t i = 0; i < 9; ++i) cases.push_back(signer.sign(i * 5));
  cases[4] = mutate(cases[4], signer.rng());
  std::vector<zkgpu_ed25519_item> items;
  for (const SigCase& c : cases)
    items.push_back({c.pk.data(), c.pk.size(), c.sig.data(), c.sig.size(), c.msg.data(), c.msg.size()});
  const std::vector<uint8_t> want = capi_verdicts(cases, ZKGPU_ED25519_OPENSSL);
  EXPECT_EQ(std::count(want.begin(), want.end(), 1), 8);
  uint8_t v[9];
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_items(nullptr, 0, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, nullptr));
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_items(nullptr, 9, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, v),
                  ZKGPU_INVALID_ARGUMENT, "items");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_items(items.data(), 9, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "verdicts");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_items(items.data(), 9, ZKGPU_ED25519_ZIP215, (zkgpu_backend)7, v),
                  ZKGPU_INVALID_ARGUMENT, "backend 7");
  // A NULL with a nonzero length is named by field and index, and nothing is written.
  auto broken = items;
  broken[6].signature = nullptr;
  std::fill(std::begin(v), std::end(v), 3);
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_items(broken.data(), 9, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, v),
                  ZKGPU_INVALID_ARGUMENT, "signatures[6]");
  EXPECT_EQ(std::count(std::begin(v), std::end(v), 3), 9);
  broken = items;
  broken[8].message = nullptr;
  broken[8].message_len = 0;  // an empty message may be NULL
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_items(broken.data(), 9, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, v));
  EXPECT_EQ(v[8], ed25519_verify(cases[8].pk, cases[8].sig, {}) ? 1 : 0);
  // Verdicts written over the item structs themselves, or over an item's message, are computed
  // first and then copied: the same verdicts as a separate buffer.
  for (const bool over_structs : {true, false}) {
    auto aliased = items;
    std::vector<SigCase> own = cases;
    own[2].msg.resize(std::max<size_t>(own[2].msg.size(), 9));
    aliased[2].message = own[2].msg.data();
    aliased[2].message_len = own[2].msg.size();
    std::vector<uint8_t> want_aliased = want;
    want_aliased[2] = ed25519_verify(own[2].pk, own[2].sig, own[2].msg) ? 1 : 0;
    auto* out = over_structs ? reinterpret_cast<uint8_t*>(aliased.data()) + 8 : own[2].msg.data();
    EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_items(aliased.data(), 9, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, out));
    EXPECT_EQ(std::vector<uint8_t>(out, out + 9), want_aliased)
        << (over_structs ? "over the structs" : "over a message");
  }
}

// zkgpu_last_error is per thread: another thread's failure never shows in this one's message.
TEST(CApiEd25519, LastErrorIsPerThread) {
  uint8_t v = 0;
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 1,
                                             ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CPU, &v),
                  ZKGPU_INVALID_ARGUMENT, "public_keys");
  std::string other;
  std::thread t([&] {
    const zkgpu_status s = zkgpu_ed25519_verify_batch(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0,
                                                      ZKGPU_ED25519_OPENSSL, (zkgpu_backend)9, &v);
    other = std::string(zkgpu_status_name(s)) + ": " + zkgpu_last_error();
  });
  t.join();
  EXPECT_NE(other.find("backend 9"), std::string::npos) << other;
  EXPECT_NE(std::string(zkgpu_last_error()).find("public_keys"), std::string::npos) << zkgpu_last_error();
}

}  // namespace
}  // namespace zkgpu::test
