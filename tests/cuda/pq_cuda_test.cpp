// ML-KEM / ML-DSA CUDA batches equal the CPU backend byte for byte (mixed batches with invalid
// items included) and pass the Wycheproof known answers on the device. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/hex.hpp"
#include "support/test_support.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/mlkem.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {
namespace {

using Bytes = std::vector<uint8_t>;


class MlKemCuda : public ::testing::TestWithParam<int> {};

TEST_P(MlKemCuda, MixedBatchEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  const auto sz = mlkem_sizes(set);
  Rng rng(GetParam());
  const size_t n = 1000;  // not a multiple of the block size
  const Bytes seeds = rng.bytes(n * 64);
  Bytes ek_c(n * sz.ek), dk_c(n * sz.dk), ek_g(n * sz.ek), dk_g(n * sz.dk);
  mlkem_keygen_batch(set, seeds, ek_c, dk_c, Backend::Cpu);
  mlkem_keygen_batch(set, seeds, ek_g, dk_g, Backend::Cuda);
  ASSERT_EQ(ek_c, ek_g);
  ASSERT_EQ(dk_c, dk_g);
  for (size_t i = 0; i < n; i += 7) ek_c[i * sz.ek + 1] |= 0xf0, ek_c[i * sz.ek + 2] = 0xff;  // value >= q
  for (size_t i = 0; i < n; i += 11) dk_c[i * sz.dk + sz.dk - 40] ^= 1;                        // bad H(ek)
  const Bytes m = rng.bytes(n * 32);
  Bytes c_c(n * sz.ct), k_c(n * 32), c_g(n * sz.ct, 1), k_g(n * 32, 1);
  std::vector<PqStatus> st_c(n), st_g(n);
  mlkem_encaps_batch(set, ek_c, m, c_c, k_c, st_c, Backend::Cpu);
  mlkem_encaps_batch(set, ek_c, m, c_g, k_g, st_g, Backend::Cuda);
  EXPECT_EQ(st_c, st_g);
  EXPECT_EQ(c_c, c_g);
  EXPECT_EQ(k_c, k_g);
  // Decapsulation on the GPU is disabled (it disagreed with the CPU on the H200): an explicit
  // request must be refused, never answered with another key.
  for (size_t i = 0; i < n; i += 5) c_c[i * sz.ct + 3] ^= 0x10;
  try {
    mlkem_decaps_batch(set, dk_c, c_c, k_g, st_g, Backend::Cuda);
    ADD_FAILURE() << "mlkem decaps on the GPU should be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable);
  }
}

TEST_P(MlKemCuda, WycheproofEncapsOnDevice) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  const auto sz = mlkem_sizes(set);
  const auto f = load_vectors("mlkem/wycheproof_mlkem_" + std::to_string(GetParam()) + "_encaps_test.json");
  Bytes ek, m;
  std::vector<nlohmann::json> tests;
  for (const auto& g : f["testGroups"])
    for (const auto& t : g["tests"]) {
      const Bytes e = from_hex(t["ek"]);
      if (e.size() != sz.ek) continue;  // wrong lengths never reach a backend
      ek.insert(ek.end(), e.begin(), e.end());
      const Bytes mm = from_hex(t["m"]);
      m.insert(m.end(), mm.begin(), mm.end());
      tests.push_back(t);
    }
  const size_t n = tests.size();
  Bytes c(n * sz.ct), k(n * 32);
  std::vector<PqStatus> st(n);
  mlkem_encaps_batch(set, ek, m, c, k, st, Backend::Cuda);
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE("tcId " + std::to_string(tests[i]["tcId"].get<int>()));
    const bool valid = tests[i]["result"] == "valid";
    ASSERT_EQ(st[i] == PqStatus::Ok, valid);
    if (valid) {
      EXPECT_EQ(to_hex(&c[i * sz.ct], sz.ct), tests[i]["c"].get<std::string>());
      EXPECT_EQ(to_hex(&k[i * 32], 32), tests[i]["K"].get<std::string>());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlKemCuda, ::testing::Values(512, 768, 1024));

class MlDsaCuda : public ::testing::TestWithParam<int> {};

TEST_P(MlDsaCuda, MixedBatchEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto sz = mldsa_sizes(set);
  Rng rng(GetParam());
  const size_t n = 300;
  const Bytes seeds = rng.bytes(n * 32);
  Bytes pk_c(n * sz.pk), sk_c(n * sz.sk), pk_g(n * sz.pk), sk_g(n * sz.sk);
  mldsa_keygen_batch(set, seeds, pk_c, sk_c, Backend::Cpu);
  mldsa_keygen_batch(set, seeds, pk_g, sk_g, Backend::Cuda);
  ASSERT_EQ(pk_c, pk_g);
  ASSERT_EQ(sk_c, sk_g);
  std::vector<Bytes> msgs, ctxs, rnds;
  for (size_t i = 0; i < n; ++i) {
    msgs.push_back(rng.bytes(rng.u32() % 300));
    ctxs.push_back(rng.bytes(i % 13 == 0 ? 256 : rng.u32() % 40));  // some contexts too long
    rnds.push_back(i % 2 ? rng.bytes(32) : Bytes{});
  }
  std::vector<MlDsaSignItem> items;
  for (size_t i = 0; i < n; ++i) items.push_back({{&sk_c[i * sz.sk], sz.sk}, msgs[i], ctxs[i], rnds[i], false});
  Bytes sig_c(n * sz.sig), sig_g(n * sz.sig, 1);
  std::vector<PqStatus> st_c(n), st_g(n);
  mldsa_sign_batch(set, items, sig_c, st_c, Backend::Cpu);
  mldsa_sign_batch(set, items, sig_g, st_g, Backend::Cuda);
  EXPECT_EQ(st_c, st_g);
  EXPECT_EQ(sig_c, sig_g);
  for (size_t i = 0; i < n; i += 3) sig_c[i * sz.sig + 40] ^= 1;  // some signatures broken
  std::vector<MlDsaVerifyItem> v;
  for (size_t i = 0; i < n; ++i) v.push_back({{&pk_c[i * sz.pk], sz.pk}, msgs[i], ctxs[i], {&sig_c[i * sz.sig], sz.sig}, false});
  std::vector<uint8_t> ok_c(n), ok_g(n, 7);
  mldsa_verify_batch(set, v, ok_c, Backend::Cpu);
  mldsa_verify_batch(set, v, ok_g, Backend::Cuda);
  EXPECT_EQ(ok_c, ok_g);
}

TEST_P(MlDsaCuda, WycheproofVerifyOnDevice) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto f = load_vectors("mldsa/wycheproof_mldsa_" + std::to_string(GetParam()) + "_verify_test.json");
  std::vector<Bytes> keep;  // owns the bytes the views point to
  std::vector<MlDsaVerifyItem> items;
  std::vector<uint8_t> expect;
  keep.reserve(4 * 1000);
  for (const auto& g : f["testGroups"])
    for (const auto& t : g["tests"]) {
      keep.push_back(from_hex(g["publicKey"]));
      const Bytes& pk = keep.back();
      keep.push_back(from_hex(t["msg"]));
      const Bytes& msg = keep.back();
      keep.push_back(t.contains("ctx") ? from_hex(t["ctx"]) : Bytes{});
      const Bytes& ctx = keep.back();
      keep.push_back(from_hex(t["sig"]));
      items.push_back({pk, msg, ctx, keep.back(), false});
      expect.push_back(t["result"] == "valid" ? 1 : 0);
    }
  std::vector<uint8_t> ok(items.size());
  mldsa_verify_batch(set, items, ok, Backend::Cuda);
  EXPECT_EQ(ok, expect);
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlDsaCuda, ::testing::Values(44, 65, 87));

}  // namespace
}  // namespace zkgpu::test
