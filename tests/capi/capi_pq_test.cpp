// The C ABI's ML-KEM and ML-DSA batches: Wycheproof known answers, the same bytes and statuses as
// the C++ API, per-item rejection that leaves the other items alone, and the call's own errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "support/hex.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/mlkem.hpp"

namespace zkgpu::test {
namespace {

constexpr auto CPU = ZKGPU_BACKEND_CPU;

// A parameter set as the C ABI and the C++ API name it, and the vector files' name.
template <class CSet, class CxxSet>
struct SetPair {
  CSet c;
  CxxSet cxx;
  const char* name;
};
using KemSet = SetPair<zkgpu_mlkem_set, MlKemSet>;
using DsaSet = SetPair<zkgpu_mldsa_set, MlDsaSet>;
const KemSet KEM_SETS[] = {{ZKGPU_MLKEM_512, MlKemSet::MlKem512, "512"},
                           {ZKGPU_MLKEM_768, MlKemSet::MlKem768, "768"},
                           {ZKGPU_MLKEM_1024, MlKemSet::MlKem1024, "1024"}};

TEST(CApiMlKem, WycheproofKeyGenKnownAnswers) {
  for (const KemSet& s : KEM_SETS) {
    const auto j = load_vectors(std::string("mlkem/wycheproof_mlkem_") + s.name + "_keygen_seed_test.json");
    zkgpu_mlkem_sizes sz;
    EXPECT_CAPI_OK(zkgpu_mlkem_sizes_of(s.c, &sz));
    size_t checked = 0;
    for (const auto& g : j["testGroups"])
      for (const auto& t : g["tests"]) {
        if (t["result"].get<std::string>() != "valid") continue;  // get<>: GCC 12 warns falsely on json == literal
        const std::vector<uint8_t> seed = from_hex(t["seed"]);
        std::vector<uint8_t> ek(sz.encapsulation_key), dk(sz.decapsulation_key);
        EXPECT_CAPI_OK(zkgpu_mlkem_keygen_batch(s.c, seed.data(), 1, CPU, ek.data(), dk.data()));
        EXPECT_EQ(to_hex(ek.data(), ek.size()), t["ek"].get<std::string>()) << "tcId " << t["tcId"];
        EXPECT_EQ(to_hex(dk.data(), dk.size()), t["dk"].get<std::string>()) << "tcId " << t["tcId"];
        ++checked;
      }
    EXPECT_GT(checked, 0u) << s.name;
  }
}

TEST(CApiMlKem, BatchesEqualTheCxxApiAndBadItemsStayAlone) {
  Rng rng(41);
  const size_t n = 9;
  for (const KemSet& s : KEM_SETS) {
    const MlKemSizes sz = mlkem_sizes(s.cxx);
    const std::vector<uint8_t> seeds = rng.bytes(n * 64), m = rng.bytes(n * 32);
    std::vector<uint8_t> ek(n * sz.ek), dk(n * sz.dk), ek2 = ek, dk2 = dk;
    mlkem_keygen_batch(s.cxx, seeds, ek, dk, Backend::Cpu);
    EXPECT_CAPI_OK(zkgpu_mlkem_keygen_batch(s.c, seeds.data(), n, CPU, ek2.data(), dk2.data()));
    EXPECT_EQ(ek2, ek);
    EXPECT_EQ(dk2, dk);
    // Item 4's ek fails the modulus check (a coefficient of 0xfff >= q), item 6's dk its H(ek).
    for (size_t b = 0; b < 3; ++b) ek[4 * sz.ek + b] = 0xff;
    dk[6 * sz.dk + sz.dk - 64] ^= 1;
    std::vector<uint8_t> ct(n * sz.ct), key(n * 32), ct2 = ct, key2 = key, st2(n, 9);
    std::vector<PqStatus> st(n);
    mlkem_encaps_batch(s.cxx, ek, m, ct, key, st, Backend::Cpu);
    EXPECT_CAPI_OK(zkgpu_mlkem_encaps_batch(s.c, ek.data(), m.data(), n, CPU, ct2.data(), key2.data(), st2.data()));
    EXPECT_EQ(ct2, ct);
    EXPECT_EQ(key2, key);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(st2[i], i == 4 ? ZKGPU_PQ_INVALID_INPUT : ZKGPU_PQ_OK) << i;
    std::vector<uint8_t> dec(n * 32), dec2(n * 32);
    mlkem_decaps_batch(s.cxx, dk, ct, dec, st, Backend::Cpu);
    EXPECT_CAPI_OK(zkgpu_mlkem_decaps_batch(s.c, dk.data(), ct.data(), n, CPU, dec2.data(), st2.data()));
    EXPECT_EQ(dec2, dec);
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(st2[i], i == 6 ? ZKGPU_PQ_INVALID_INPUT : ZKGPU_PQ_OK) << i;
      if (i != 4 && i != 6) {
        EXPECT_TRUE(std::equal(dec2.begin() + i * 32, dec2.begin() + i * 32 + 32, key.begin() + i * 32)) << i;
      }
    }
  }
}

TEST(CApiMlKem, CallErrors) {
  zkgpu_mlkem_sizes sz;
  EXPECT_CAPI_ERR(zkgpu_mlkem_sizes_of((zkgpu_mlkem_set)3, &sz), ZKGPU_INVALID_ARGUMENT, "set 3");
  EXPECT_CAPI_OK(zkgpu_mlkem_sizes_of(ZKGPU_MLKEM_512, &sz));
  std::vector<uint8_t> seeds(128), ek(2 * sz.encapsulation_key), dk(2 * sz.decapsulation_key), ct(2 * sz.ciphertext),
      key(64), st(2);
  EXPECT_CAPI_ERR(zkgpu_mlkem_keygen_batch(ZKGPU_MLKEM_512, nullptr, 2, CPU, ek.data(), dk.data()),
                  ZKGPU_INVALID_ARGUMENT, "seeds");
  EXPECT_CAPI_ERR(zkgpu_mlkem_keygen_batch(ZKGPU_MLKEM_512, seeds.data(), 2, (zkgpu_backend)5, ek.data(), dk.data()),
                  ZKGPU_INVALID_ARGUMENT, "backend 5");
  // dk written over the second half of ek: overlapping outputs.
  EXPECT_CAPI_ERR(zkgpu_mlkem_keygen_batch(ZKGPU_MLKEM_512, seeds.data(), 1, CPU, ek.data(), ek.data() + 10),
                  ZKGPU_INVALID_ARGUMENT, "overlaps");
  EXPECT_CAPI_ERR(zkgpu_mlkem_encaps_random_batch(ZKGPU_MLKEM_512, ek.data(), 2, CPU, ct.data(), key.data(), nullptr),
                  ZKGPU_INVALID_ARGUMENT, "status");
  EXPECT_CAPI_ERR(zkgpu_mlkem_decaps_batch(ZKGPU_MLKEM_512, dk.data(), ct.data(), 2, CPU, ct.data(), st.data()),
                  ZKGPU_INVALID_ARGUMENT, "overlaps");
  EXPECT_CAPI_ERR(zkgpu_mlkem_encaps_batch(ZKGPU_MLKEM_512, ek.data(), seeds.data(), SIZE_MAX / 100, CPU, ct.data(),
                                           key.data(), st.data()),
                  ZKGPU_INVALID_ARGUMENT, "overflows");
  EXPECT_CAPI_OK(zkgpu_mlkem_decaps_batch(ZKGPU_MLKEM_512, nullptr, nullptr, 0, CPU, nullptr, nullptr));
}

const DsaSet DSA_SETS[] = {{ZKGPU_MLDSA_44, MlDsaSet::MlDsa44, "44"},
                           {ZKGPU_MLDSA_65, MlDsaSet::MlDsa65, "65"},
                           {ZKGPU_MLDSA_87, MlDsaSet::MlDsa87, "87"}};

TEST(CApiMlDsa, WycheproofSeedKnownAnswers) {
  for (const DsaSet& s : DSA_SETS) {
    const auto j = load_vectors(std::string("mldsa/wycheproof_mldsa_") + s.name + "_sign_seed_test.json");
    zkgpu_mldsa_sizes sz;
    EXPECT_CAPI_OK(zkgpu_mldsa_sizes_of(s.c, &sz));
    size_t checked = 0;
    for (const auto& g : j["testGroups"]) {
      // Groups of malformed keys (no 32-byte seed) are the C++ Wycheproof test's business.
      if (!g.value("privateSeed", nlohmann::json()).is_string() || !g.value("publicKey", nlohmann::json()).is_string())
        continue;
      const std::vector<uint8_t> seed = from_hex(g["privateSeed"]);
      if (seed.size() != 32) continue;
      std::vector<uint8_t> pk(sz.public_key), sk(sz.secret_key);
      EXPECT_CAPI_OK(zkgpu_mldsa_keygen_batch(s.c, seed.data(), 1, CPU, pk.data(), sk.data()));
      EXPECT_EQ(to_hex(pk.data(), pk.size()), g["publicKey"].get<std::string>());
      for (const auto& t : g["tests"]) {
        if (t["result"].get<std::string>() != "valid" || !t.contains("msg")) continue;
        const std::vector<uint8_t> msg = from_hex(t["msg"]);
        const std::vector<uint8_t> ctx = t.contains("ctx") ? from_hex(t["ctx"]) : std::vector<uint8_t>{};
        const std::vector<uint8_t> rnd = t.contains("rnd") ? from_hex(t["rnd"]) : std::vector<uint8_t>{};
        const uint8_t* skp = sk.data();
        const uint8_t* mp = msg.data();
        const uint8_t* cp = ctx.data();
        const uint8_t* rp = rnd.data();
        const size_t skl = sk.size(), ml = msg.size(), cl = ctx.size(), rl = rnd.size();
        std::vector<uint8_t> sig(sz.signature), sig_mu(sz.signature);
        uint8_t st = 9, ok = 9;
        EXPECT_CAPI_OK(
            zkgpu_mldsa_sign_batch(s.c, &skp, &skl, &mp, &ml, &cp, &cl, &rp, &rl, 1, 0, CPU, sig.data(), &st));
        EXPECT_EQ(st, ZKGPU_PQ_OK);
        EXPECT_EQ(to_hex(sig.data(), sig.size()), t["sig"].get<std::string>()) << s.name << " tcId " << t["tcId"];
        if (t.contains("mu")) {  // the external-mu interface signs mu itself to the same bytes
          const std::vector<uint8_t> mu = from_hex(t["mu"]);
          const uint8_t* mup = mu.data();
          const size_t mul = mu.size();
          EXPECT_CAPI_OK(zkgpu_mldsa_sign_batch(s.c, &skp, &skl, &mup, &mul, nullptr, nullptr, &rp, &rl, 1, 1, CPU,
                                                sig_mu.data(), &st));
          EXPECT_EQ(sig_mu, sig);
        }
        const uint8_t* pkp = pk.data();
        const uint8_t* sp = sig.data();
        const size_t pkl = pk.size(), sl = sig.size();
        EXPECT_CAPI_OK(zkgpu_mldsa_verify_batch(s.c, &pkp, &pkl, &mp, &ml, &cp, &cl, &sp, &sl, 1, 0, CPU, &ok));
        EXPECT_EQ(ok, 1);
        ++checked;
      }
    }
    EXPECT_GT(checked, 0u) << s.name;
  }
}

TEST(CApiMlDsa, BatchesEqualTheCxxApiAndBadItemsStayAlone) {
  Rng rng(42);
  const size_t n = 6;
  for (const DsaSet& s : DSA_SETS) {
    const MlDsaSizes sz = mldsa_sizes(s.cxx);
    const std::vector<uint8_t> seeds = rng.bytes(n * 32);
    std::vector<uint8_t> pk(n * sz.pk), sk(n * sz.sk);
    EXPECT_CAPI_OK(zkgpu_mldsa_keygen_batch(s.c, seeds.data(), n, CPU, pk.data(), sk.data()));
    std::vector<std::vector<uint8_t>> sks, msgs, ctxs, rnds, pks;
    for (size_t i = 0; i < n; ++i) {
      sks.emplace_back(sk.begin() + i * sz.sk, sk.begin() + (i + 1) * sz.sk);
      pks.emplace_back(pk.begin() + i * sz.pk, pk.begin() + (i + 1) * sz.pk);
      msgs.push_back(rng.bytes(i * 17));
      ctxs.push_back(rng.bytes(i));
      rnds.push_back(i % 2 ? rng.bytes(32) : std::vector<uint8_t>{});
    }
    sks[2].pop_back();                       // a short key: an invalid item
    ctxs[3] = std::vector<uint8_t>(256, 1);  // a context over 255 bytes: an invalid item
    rnds[4].resize(16);                      // a short rnd: an invalid item
    std::vector<MlDsaSignItem> items;
    for (size_t i = 0; i < n; ++i) items.push_back({sks[i], msgs[i], ctxs[i], rnds[i], false});
    std::vector<uint8_t> want(n * sz.sig), got(n * sz.sig, 0xaa), st2(n, 9);
    std::vector<PqStatus> st(n);
    mldsa_sign_batch(s.cxx, items, want, st, Backend::Cpu);
    const ByteArrays a(sks), b(msgs), c(ctxs), d(rnds);
    EXPECT_CAPI_OK(zkgpu_mldsa_sign_batch(s.c, a.ptrs.data(), a.lens.data(), b.ptrs.data(), b.lens.data(),
                                          c.ptrs.data(), c.lens.data(), d.ptrs.data(), d.lens.data(), n, 0, CPU,
                                          got.data(), st2.data()));
    EXPECT_EQ(got, want);
    for (size_t i = 0; i < n; ++i)
      EXPECT_EQ(st2[i], (i >= 2 && i <= 4) ? ZKGPU_PQ_INVALID_INPUT : ZKGPU_PQ_OK) << s.name << " item " << i;
    std::vector<std::vector<uint8_t>> sigs;
    for (size_t i = 0; i < n; ++i) sigs.emplace_back(got.begin() + i * sz.sig, got.begin() + (i + 1) * sz.sig);
    const ByteArrays e(pks), f(sigs);
    std::vector<uint8_t> ok(n, 9);
    EXPECT_CAPI_OK(zkgpu_mldsa_verify_batch(s.c, e.ptrs.data(), e.lens.data(), b.ptrs.data(), b.lens.data(),
                                            c.ptrs.data(), c.lens.data(), f.ptrs.data(), f.lens.data(), n, 0, CPU,
                                            ok.data()));
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(ok[i], (i >= 2 && i <= 4) ? 0 : 1) << s.name << " item " << i;
  }
}

TEST(CApiMlDsa, CallErrors) {
  std::vector<uint8_t> sk(4896), sig(4627), msg(4);
  const uint8_t* skp = sk.data();
  const uint8_t* mp = msg.data();
  const uint8_t* sigp = sig.data();
  const uint8_t* inside = sig.data() + 100;
  const size_t skl = sk.size(), ml = msg.size(), sigl = sig.size();
  uint8_t st = 0;
  EXPECT_CAPI_ERR(zkgpu_mldsa_sign_batch((zkgpu_mldsa_set)7, &skp, &skl, &mp, &ml, nullptr, nullptr, nullptr, nullptr,
                                         1, 0, CPU, sig.data(), &st),
                  ZKGPU_INVALID_ARGUMENT, "set 7");
  EXPECT_CAPI_ERR(zkgpu_mldsa_sign_batch(ZKGPU_MLDSA_87, &skp, &skl, &mp, &ml, nullptr, nullptr, nullptr, nullptr, 1, 2,
                                         CPU, sig.data(), &st),
                  ZKGPU_INVALID_ARGUMENT, "external_mu");
  EXPECT_CAPI_ERR(zkgpu_mldsa_sign_batch(ZKGPU_MLDSA_87, &skp, nullptr, &mp, &ml, nullptr, nullptr, nullptr, nullptr, 1,
                                         0, CPU, sig.data(), &st),
                  ZKGPU_INVALID_ARGUMENT, "secret_keys lengths");
  // Only one of an optional pair given.
  EXPECT_CAPI_ERR(zkgpu_mldsa_sign_batch(ZKGPU_MLDSA_87, &skp, &skl, &mp, &ml, &mp, nullptr, nullptr, nullptr, 1, 0,
                                         CPU, sig.data(), &st),
                  ZKGPU_INVALID_ARGUMENT, "contexts lengths");
  // A message inside the signature buffer would be overwritten while it is read.
  EXPECT_CAPI_ERR(zkgpu_mldsa_sign_batch(ZKGPU_MLDSA_87, &skp, &skl, &inside, &ml, nullptr, nullptr, nullptr, nullptr,
                                         1, 0, CPU, sig.data(), &st),
                  ZKGPU_INVALID_ARGUMENT, "overlaps");
  const uint8_t* null_msg = nullptr;
  EXPECT_CAPI_ERR(zkgpu_mldsa_verify_batch(ZKGPU_MLDSA_87, &skp, &skl, &null_msg, &ml, nullptr, nullptr, &sigp, &sigl,
                                           1, 0, CPU, &st),
                  ZKGPU_INVALID_ARGUMENT, "messages[0]");
  EXPECT_CAPI_OK(zkgpu_mldsa_verify_batch(ZKGPU_MLDSA_44, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                          nullptr, 0, 0, CPU, nullptr));
}

// The PQ device-pointer variants: the host-side checks (enums, flags, NULL buffers, contexts
// without offsets, n + 1 overflowing) are ZKGPU_INVALID_ARGUMENT on any machine, before any
// pointer is dereferenced; capi_pq_gpu_test.cpp runs them on a GPU.
TEST(CApiPqDevice, HostSideChecksWithOrWithoutAGpu) {
  uint8_t* p = reinterpret_cast<uint8_t*>(uintptr_t{0x1000});
  const uint64_t* off = reinterpret_cast<const uint64_t*>(uintptr_t{0x2000});
  EXPECT_CAPI_ERR(zkgpu_mlkem_keygen_batch_device((zkgpu_mlkem_set)3, p, 1, p, p, nullptr), ZKGPU_INVALID_ARGUMENT,
                  "set 3");
  EXPECT_CAPI_ERR(zkgpu_mlkem_encaps_batch_device(ZKGPU_MLKEM_768, p, nullptr, 2, p, p, p, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "m");
  EXPECT_CAPI_ERR(zkgpu_mlkem_encaps_random_batch_device(ZKGPU_MLKEM_512, p, 2, p, p, nullptr, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "status");
  EXPECT_CAPI_ERR(zkgpu_mlkem_decaps_batch_device(ZKGPU_MLKEM_1024, p, p, SIZE_MAX / 8, p, p, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "overflows");
  EXPECT_CAPI_ERR(zkgpu_mldsa_keygen_batch_device((zkgpu_mldsa_set)9, p, 1, p, p, nullptr), ZKGPU_INVALID_ARGUMENT,
                  "set 9");
  EXPECT_CAPI_ERR(
      zkgpu_mldsa_sign_batch_device(ZKGPU_MLDSA_65, p, p, off, 10, nullptr, nullptr, 0, nullptr, 1, 2, p, p, nullptr),
      ZKGPU_INVALID_ARGUMENT, "external_mu");
  EXPECT_CAPI_ERR(zkgpu_mldsa_sign_batch_device(ZKGPU_MLDSA_65, p, p, nullptr, 10, nullptr, nullptr, 0, nullptr, 1, 0,
                                                p, p, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "message_offsets");
  EXPECT_CAPI_ERR(zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_44, p, p, p, off, 10, p, nullptr, 5, 1, 0, p, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "context_offsets");
  EXPECT_CAPI_ERR(zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_44, p, p, p, off, 10, nullptr, off, 5, 1, 0, p, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "contexts");
  EXPECT_CAPI_ERR(
      zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_87, p, p, p, off, 10, nullptr, nullptr, 0, 1, 0, nullptr, nullptr),
      ZKGPU_INVALID_ARGUMENT, "verdicts");
  EXPECT_CAPI_ERR(
      zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_87, p, p, p, off, 10, nullptr, nullptr, 0, SIZE_MAX, 0, p, nullptr),
      ZKGPU_INVALID_ARGUMENT);
}

TEST(CApiPqDevice, WellFormedCallsWithoutAGpuAreUnavailable) {
  if (zkgpu_cuda_usable()) GTEST_SKIP() << "a GPU is usable here (CApiPqGpu covers these calls)";
  uint8_t* p = reinterpret_cast<uint8_t*>(uintptr_t{0x1000});
  uint8_t* out = reinterpret_cast<uint8_t*>(uintptr_t{0x100000});
  const uint64_t* off = reinterpret_cast<const uint64_t*>(uintptr_t{0x2000});
  EXPECT_CAPI_ERR(zkgpu_mlkem_keygen_batch_device(ZKGPU_MLKEM_768, p, 3, out, out + 0x10000, nullptr),
                  ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(
      zkgpu_mlkem_encaps_batch_device(ZKGPU_MLKEM_512, p, p + 0x4000, 3, out, out + 0x10000, out + 0x20000, nullptr),
      ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(
      zkgpu_mlkem_encaps_random_batch_device(ZKGPU_MLKEM_512, p, 3, out, out + 0x10000, out + 0x20000, nullptr),
      ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_mlkem_decaps_batch_device(ZKGPU_MLKEM_1024, p, p + 0x4000, 3, out, out + 0x100, nullptr),
                  ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_mldsa_keygen_batch_device(ZKGPU_MLDSA_44, p, 3, out, out + 0x10000, nullptr),
                  ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_mldsa_sign_batch_device(ZKGPU_MLDSA_65, p, p, off, 10, nullptr, off, 0, nullptr, 1, 0, out,
                                                out + 0x10000, nullptr),
                  ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_87, p, p + 0x1000, p, off, 10, nullptr, nullptr, 0, 1, 1,
                                                  out, nullptr),
                  ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_mldsa_verify_batch_device(ZKGPU_MLDSA_87, nullptr, nullptr, nullptr, nullptr, 0, nullptr,
                                                  nullptr, 0, 0, 0, nullptr, nullptr),
                  ZKGPU_UNAVAILABLE);
}

}  // namespace
}  // namespace zkgpu::test
