// ML-DSA batch API properties on random inputs: hedged and deterministic round trips with
// contexts, tampering, mixed batches with invalid items, and batch == one-by-one.
#include <gtest/gtest.h>

#include <cstdint>

#include "support/test_support.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {
namespace {

using Bytes = std::vector<uint8_t>;

class MlDsaApi : public ::testing::TestWithParam<int> {
 protected:
  MlDsaSet set() const { return *parse_mldsa_set(std::to_string(GetParam())); }
};

TEST_P(MlDsaApi, MixedBatchRoundTrip) {
  Rng rng(GetParam());
  const auto sz = mldsa_sizes(set());
  const size_t n = 12;
  Bytes pk(n * sz.pk), sk(n * sz.sk);
  mldsa_keygen_batch(set(), rng.bytes(n * 32), pk, sk, Backend::Cpu);
  std::vector<Bytes> msgs, ctxs, rnds;
  for (size_t i = 0; i < n; ++i) {
    msgs.push_back(rng.bytes(rng.u32() % 100));
    ctxs.push_back(rng.bytes(i == 5 ? 256 : rng.u32() % 20));  // item 5: context too long
    rnds.push_back(i % 2 ? rng.bytes(32) : Bytes{});           // odd items hedged
  }
  rnds[7] = Bytes(31);  // wrong rnd length
  std::vector<MlDsaSignItem> items;
  for (size_t i = 0; i < n; ++i) items.push_back({{&sk[i * sz.sk], sz.sk}, msgs[i], ctxs[i], rnds[i], false});
  Bytes sigs(n * sz.sig);
  std::vector<PqStatus> st(n);
  mldsa_sign_batch(set(), items, sigs, st, Backend::Cpu);
  std::vector<MlDsaVerifyItem> vitems;
  for (size_t i = 0; i < n; ++i) {
    const bool expect_ok = i != 5 && i != 7;
    EXPECT_EQ(st[i] == PqStatus::Ok, expect_ok) << i;
    // Deterministic items equal a one-item call; all accepted items verify.
    if (expect_ok && i % 2 == 0) {
      Bytes one(sz.sig);
      PqStatus s1;
      mldsa_sign_batch(set(), {&items[i], 1}, one, {&s1, 1}, Backend::Cpu);
      EXPECT_EQ(one, Bytes(&sigs[i * sz.sig], &sigs[(i + 1) * sz.sig])) << i;
    }
    vitems.push_back({{&pk[i * sz.pk], sz.pk}, msgs[i], ctxs[i], {&sigs[i * sz.sig], sz.sig}, false});
  }
  std::vector<uint8_t> ok(n);
  mldsa_verify_batch(set(), vitems, ok, Backend::Cpu);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(ok[i], (i != 5 && i != 7) ? 1 : 0) << i;
  // Tampering with the message, the context or the signature breaks verification.
  Bytes other_msg = msgs[0];
  other_msg.push_back(1);
  Bytes bad_sig(&sigs[0], &sigs[sz.sig]);
  bad_sig[sz.sig / 2] ^= 4;
  const Bytes ctx_x = {1, 2, 3};
  std::vector<MlDsaVerifyItem> bad = {
      {{&pk[0], sz.pk}, other_msg, ctxs[0], {&sigs[0], sz.sig}, false},
      {{&pk[0], sz.pk}, msgs[0], ctx_x, {&sigs[0], sz.sig}, false},
      {{&pk[0], sz.pk}, msgs[0], ctxs[0], bad_sig, false},
      {{&pk[sz.pk], sz.pk}, msgs[0], ctxs[0], {&sigs[0], sz.sig}, false},
      {{&pk[0], sz.pk - 1}, msgs[0], ctxs[0], {&sigs[0], sz.sig}, false},
  };
  std::vector<uint8_t> bad_ok(bad.size(), 7);
  mldsa_verify_batch(set(), bad, bad_ok, Backend::Cpu);
  EXPECT_EQ(bad_ok, std::vector<uint8_t>(bad.size(), 0));
}

// The options overloads give the Backend overloads' bytes; the CPU backend leaves a PhaseTimes and
// a sign profile alone, and so does Auto with a crossover no batch reaches.
TEST_P(MlDsaApi, OptionsOverloadsGiveTheSameBytes) {
  Rng rng(300 + GetParam());
  const auto sz = mldsa_sizes(set());
  const size_t n = 5;
  const Bytes seeds = rng.bytes(n * 32);
  Bytes pk(n * sz.pk), sk(n * sz.sk), sigs(n * sz.sig);
  mldsa_keygen_batch(set(), seeds, pk, sk, Backend::Cpu);
  std::vector<Bytes> msgs;
  std::vector<MlDsaSignItem> items;
  for (size_t i = 0; i < n; ++i) msgs.push_back(rng.bytes(10 + i));
  for (size_t i = 0; i < n; ++i) items.push_back({{&sk[i * sz.sk], sz.sk}, msgs[i], {}, {}, false});
  std::vector<PqStatus> st(n);
  mldsa_sign_batch(set(), items, sigs, st, Backend::Cpu);
  std::vector<MlDsaVerifyItem> vitems;
  for (size_t i = 0; i < n; ++i)
    vitems.push_back({{&pk[i * sz.pk], sz.pk}, msgs[i], {}, {&sigs[i * sz.sig], sz.sig}, false});
  for (const PqBatchOptions& o : {PqBatchOptions{.backend = Backend::Cpu},
                                  PqBatchOptions{.backend = Backend::Auto, .gpu_crossover = UINT64_MAX}}) {
    PhaseTimes times;
    MlDsaSignProfile profile;
    PqBatchOptions with = o;
    with.phase_times = &times;
    Bytes pk_o(n * sz.pk), sk_o(n * sz.sk), sigs_o(n * sz.sig);
    mldsa_keygen_batch(set(), seeds, pk_o, sk_o, with);
    std::vector<PqStatus> st_o(n);
    mldsa_sign_batch(set(), items, sigs_o, st_o, MlDsaSignOptions{with, &profile});
    std::vector<uint8_t> ok(n);
    mldsa_verify_batch(set(), vitems, ok, with);
    EXPECT_EQ(pk_o, pk);
    EXPECT_EQ(sk_o, sk);
    EXPECT_EQ(sigs_o, sigs);
    EXPECT_EQ(st_o, st);
    EXPECT_EQ(ok, std::vector<uint8_t>(n, 1));
    EXPECT_TRUE(times.phases.empty());
    EXPECT_EQ(profile.items, 0u);
    EXPECT_TRUE(profile.phase_cycles.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlDsaApi, ::testing::Values(44, 65, 87));

}  // namespace
}  // namespace zkgpu::test
