// ML-KEM / ML-DSA CUDA batches equal the CPU backend byte for byte (mixed batches with invalid
// items included) and pass the Wycheproof known answers on the device. Skipped without a GPU.
// Small mode (ZKGPU_TEST_SMALL=1): every parameter set and operation, with 2049 items where a test
// needs several chunks (chunks hold at least 2048 items; the smallest batch that takes two).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "zkgpu/core/mldsa/dsa.hpp"
#if ZKGPU_HAVE_CUDA
#include "pq/pq_cuda.hpp"
#endif
#include "support/hex.hpp"
#include "support/test_support.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/mlkem.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {
namespace {

using Bytes = std::vector<uint8_t>;

class MlKemGpu : public ::testing::TestWithParam<int> {};

// Items are built in classes, by index: i % 7 == 0 has an ek with a value >= q (encaps rejects it,
// so decaps sees an all-zero c), i % 11 == 0 a dk whose H(ek) is wrong (decaps rejects it),
// i % 5 == 0 a flipped ciphertext bit (implicit rejection). Everything else is honest.
struct KemBatch {
  size_t n;
  MlKemSizes sz;
  Bytes ek, dk, m, c, k;
  std::vector<PqStatus> st;
};

KemBatch make_kem_batch(MlKemSet set, size_t n, Rng& rng) {
  KemBatch b{n, mlkem_sizes(set), {}, {}, {}, {}, {}, {}};
  const Bytes seeds = rng.bytes(n * 64);
  b.ek.resize(n * b.sz.ek);
  b.dk.resize(n * b.sz.dk);
  mlkem_keygen_batch(set, seeds, b.ek, b.dk, Backend::Cpu);
  for (size_t i = 0; i < n; i += 7) b.ek[i * b.sz.ek + 1] |= 0xf0, b.ek[i * b.sz.ek + 2] = 0xff;
  for (size_t i = 0; i < n; i += 11) b.dk[i * b.sz.dk + b.sz.dk - 40] ^= 1;
  b.m = rng.bytes(n * 32);
  b.c.resize(n * b.sz.ct);
  b.k.resize(n * 32);
  b.st.resize(n);
  mlkem_encaps_batch(set, b.ek, b.m, b.c, b.k, b.st, Backend::Cpu);
  for (size_t i = 0; i < n; i += 5) b.c[i * b.sz.ct + 3] ^= 0x10;
  return b;
}

// Key generation on the GPU (hash, xof and warp kernels) equals the CPU for sizes around the block
// and warp sizes and ones that take several chunks of the pipeline, into poisoned outputs.
TEST_P(MlKemGpu, KeygenEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  const auto sz = mlkem_sizes(set);
  Rng rng(GetParam() + 7);
  for (size_t n : sized<size_t>({1, 63, 64, 65, 1000, 4097}, {1, 63, 64, 65, 2049})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Bytes seeds = rng.bytes(n * 64);
    Bytes ek_c(n * sz.ek), dk_c(n * sz.dk), ek_g(n * sz.ek, 0xa5), dk_g(n * sz.dk, 0xa5);
    mlkem_keygen_batch(set, seeds, ek_c, dk_c, Backend::Cpu);
    mlkem_keygen_batch(set, seeds, ek_g, dk_g, Backend::Cuda);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
      const bool ek_same =
          std::equal(ek_c.begin() + i * sz.ek, ek_c.begin() + (i + 1) * sz.ek, ek_g.begin() + i * sz.ek);
      const bool dk_same =
          std::equal(dk_c.begin() + i * sz.dk, dk_c.begin() + (i + 1) * sz.dk, dk_g.begin() + i * sz.dk);
      if ((!ek_same || !dk_same) && ++bad <= 4)
        ADD_FAILURE() << "keygen item " << i << ": ek " << (ek_same ? "same" : "differs") << ", dk "
                      << (dk_same ? "same" : "differs");
    }
    EXPECT_EQ(bad, 0u);
  }
}

// After release_gpu_caches() the pipelines allocate their buffers again and give the same bytes.
TEST_P(MlKemGpu, KeygenAfterReleasingGpuCachesIsUnchanged) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  const auto sz = mlkem_sizes(set);
  Rng rng(GetParam() + 8);
  const size_t n = 65;
  const Bytes seeds = rng.bytes(n * 64);
  Bytes ek_c(n * sz.ek), dk_c(n * sz.dk);
  mlkem_keygen_batch(set, seeds, ek_c, dk_c, Backend::Cpu);
  for (int round = 0; round < 2; ++round) {
    Bytes ek_g(n * sz.ek, 0xa5), dk_g(n * sz.dk, 0xa5);
    mlkem_keygen_batch(set, seeds, ek_g, dk_g, Backend::Cuda);
    EXPECT_EQ(ek_g, ek_c) << "round " << round;
    EXPECT_EQ(dk_g, dk_c) << "round " << round;
    release_gpu_caches();
  }
}

// Encapsulation on the GPU equals the CPU (c, K and the status) for the same sizes, with invalid
// encapsulation keys (a value >= q) mixed in, into poisoned outputs.
TEST_P(MlKemGpu, EncapsEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  const auto sz = mlkem_sizes(set);
  Rng rng(GetParam() + 5);
  for (size_t n : sized<size_t>({1, 63, 64, 65, 1000, 4097}, {1, 63, 64, 65, 2049})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Bytes seeds = rng.bytes(n * 64);
    Bytes ek(n * sz.ek), dk(n * sz.dk);
    mlkem_keygen_batch(set, seeds, ek, dk, Backend::Cpu);
    for (size_t i = 0; i < n; i += 7) ek[i * sz.ek + 385] = 0xff, ek[i * sz.ek + 386] |= 0x0f;  // value >= q
    const Bytes m = rng.bytes(n * 32);
    Bytes c_c(n * sz.ct), k_c(n * 32), c_g(n * sz.ct, 0xa5), k_g(n * 32, 0xa5);
    std::vector<PqStatus> st_c(n), st_g(n, PqStatus::Ok);
    mlkem_encaps_batch(set, ek, m, c_c, k_c, st_c, Backend::Cpu);
    mlkem_encaps_batch(set, ek, m, c_g, k_g, st_g, Backend::Cuda);
    EXPECT_EQ(st_c, st_g);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
      const bool c_same = std::equal(c_c.begin() + i * sz.ct, c_c.begin() + (i + 1) * sz.ct, c_g.begin() + i * sz.ct);
      const bool k_same = std::equal(k_c.begin() + i * 32, k_c.begin() + (i + 1) * 32, k_g.begin() + i * 32);
      if ((!c_same || !k_same) && ++bad <= 4)
        ADD_FAILURE() << "encaps item " << i << " (bad ek: " << (i % 7 == 0) << "): c " << (c_same ? "same" : "differs")
                      << ", K " << (k_same ? "same" : "differs");
    }
    EXPECT_EQ(bad, 0u);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(st_c[i] == PqStatus::Ok, i % 7 != 0) << "item " << i;
  }
}

// Decapsulation on the GPU equals the CPU on honest, tampered (implicit rejection) and invalid
// items, for batch sizes around the block size and not powers of two, into poisoned outputs.
TEST_P(MlKemGpu, DecapsEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  Rng rng(GetParam() + 1);
  for (size_t n : sized<size_t>({1, 63, 64, 65, 1000, 4097}, {1, 63, 64, 65, 2049})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const KemBatch b = make_kem_batch(set, n, rng);
    Bytes k_c(n * 32), k_g(n * 32, 0xa5);
    std::vector<PqStatus> st_c(n), st_g(n, PqStatus::Ok);
    mlkem_decaps_batch(set, b.dk, b.c, k_c, st_c, Backend::Cpu);
    mlkem_decaps_batch(set, b.dk, b.c, k_g, st_g, Backend::Cuda);
    EXPECT_EQ(st_c, st_g);
    size_t mismatches = 0, honest = 0;
    for (size_t i = 0; i < n; ++i) {
      const bool same = std::equal(k_c.begin() + i * 32, k_c.begin() + (i + 1) * 32, k_g.begin() + i * 32);
      if (!same && ++mismatches <= 8)
        ADD_FAILURE() << "decaps key of item " << i << " differs (bad ek: " << (i % 7 == 0)
                      << ", bad dk hash: " << (i % 11 == 0) << ", altered c: " << (i % 5 == 0) << ")";
      // Honest items must give back the encapsulated key (the CPU result is checked too).
      if (i % 7 && i % 11 && i % 5) {
        ++honest;
        EXPECT_TRUE(std::equal(b.k.begin() + i * 32, b.k.begin() + (i + 1) * 32, k_g.begin() + i * 32)) << "item " << i;
      }
    }
    EXPECT_EQ(mismatches, 0u);
    if (n >= 1000) {
      EXPECT_GT(honest, n / 3);
    }
  }
}

TEST_P(MlKemGpu, WycheproofEncapsOnDevice) {
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

// The names of `times`' phases, which must be `per_chunk` repeated for `chunks` chunks, with
// device times of at least 0 and a wall time.
void expect_chunk_phases(const PhaseTimes& times, const std::vector<std::string>& per_chunk, size_t chunks) {
  std::vector<std::string> names, expected;
  for (const auto& [name, ms] : times.phases) {
    names.push_back(name);
    EXPECT_GE(ms, 0.0) << name;
  }
  for (size_t c = 0; c < chunks; ++c) expected.insert(expected.end(), per_chunk.begin(), per_chunk.end());
  EXPECT_EQ(names, expected);
  EXPECT_GT(times.wall_ms, 0.0);
}

// PqBatchOptions on the GPU: the bytes stay the CPU's, every chunk reports its phases (2049 items:
// two chunks), and the crossover moves Auto: 0 sends one item to the GPU (which reports phases),
// the largest value keeps a large batch on the CPU (which reports none).
TEST_P(MlKemGpu, PhaseTimesAndCrossoverOptions) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  Rng rng(GetParam() + 11);
  const size_t n = 2049;
  const KemBatch b = make_kem_batch(set, n, rng);
  const Bytes seeds = rng.bytes(n * 64);
  Bytes ek_c(n * b.sz.ek), dk_c(n * b.sz.dk), ek_g(n * b.sz.ek, 0xa5), dk_g(n * b.sz.dk, 0xa5);
  mlkem_keygen_batch(set, seeds, ek_c, dk_c, Backend::Cpu);
  PhaseTimes keygen;
  mlkem_keygen_batch(set, seeds, ek_g, dk_g, PqBatchOptions{.backend = Backend::Cuda, .phase_times = &keygen});
  EXPECT_EQ(ek_g, ek_c);
  EXPECT_EQ(dk_g, dk_c);
  expect_chunk_phases(keygen, {"pack", "upload", "hash", "xof", "keygen", "finish", "download"}, 2);

  Bytes c_g(n * b.sz.ct, 0xa5), k_g(n * 32, 0xa5);
  std::vector<PqStatus> st_g(n);
  PhaseTimes encaps;
  mlkem_encaps_batch(set, b.ek, b.m, c_g, k_g, st_g, PqBatchOptions{.backend = Backend::Cuda, .phase_times = &encaps});
  expect_chunk_phases(encaps, {"pack", "upload", "hash", "xof", "encrypt", "download"}, 2);
  Bytes c_c(n * b.sz.ct), k_c(n * 32);
  std::vector<PqStatus> st_c(n);
  mlkem_encaps_batch(set, b.ek, b.m, c_c, k_c, st_c, Backend::Cpu);
  EXPECT_EQ(c_g, c_c);
  EXPECT_EQ(k_g, k_c);
  EXPECT_EQ(st_g, st_c);

  Bytes key_c(n * 32), key_g(n * 32, 0xa5);
  std::vector<PqStatus> ds_c(n), ds_g(n);
  mlkem_decaps_batch(set, b.dk, b.c, key_c, ds_c, Backend::Cpu);
  PhaseTimes decaps;
  mlkem_decaps_batch(set, b.dk, b.c, key_g, ds_g, PqBatchOptions{.backend = Backend::Cuda, .phase_times = &decaps});
  EXPECT_EQ(key_g, key_c);
  EXPECT_EQ(ds_g, ds_c);
  expect_chunk_phases(decaps, {"pack", "upload", "decrypt", "hash", "xof", "reencrypt", "final", "download"}, 2);

  PhaseTimes one, none;
  Bytes key1(32, 0xa5), key_n(n * 32, 0xa5);
  std::vector<PqStatus> s1(1), s_n(n);
  // Item 1: an honest key and ciphertext.
  mlkem_decaps_batch(set, std::span<const uint8_t>(b.dk).subspan(b.sz.dk, b.sz.dk),
                     std::span<const uint8_t>(b.c).subspan(b.sz.ct, b.sz.ct), key1, s1,
                     PqBatchOptions{.gpu_crossover = 0, .phase_times = &one});
  EXPECT_EQ(s1[0], PqStatus::Ok);
  EXPECT_EQ(key1, Bytes(key_c.begin() + 32, key_c.begin() + 64));
  expect_chunk_phases(one, {"pack", "upload", "decrypt", "hash", "xof", "reencrypt", "final", "download"}, 1);
  mlkem_decaps_batch(set, b.dk, b.c, key_n, s_n, PqBatchOptions{.gpu_crossover = UINT64_MAX, .phase_times = &none});
  EXPECT_EQ(key_n, key_c);
  EXPECT_TRUE(none.phases.empty());
}

// How many chunks a GPU call ran: one "pack" phase per chunk.
size_t chunks_of(const PhaseTimes& t) {
  return size_t(std::count_if(t.phases.begin(), t.phases.end(), [](const auto& p) { return p.first == "pack"; }));
}

// The error code of f(), or nothing.
template <class F>
std::optional<ErrorCode> error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return std::nullopt;
}

// A device-memory budget of 3 MiB (1 MiB per stream, a few hundred items a chunk) splits the batch
// into many more chunks than the unlimited call's one and gives its bytes on fresh random inputs
// (invalid items included); a budget too small for one item is Error(OutOfMemory).
TEST_P(MlKemGpu, SmallMemoryBudgetGivesTheSameBytes) {
  ZKGPU_REQUIRE_GPU();
  const MlKemSet set = *parse_mlkem_set(std::to_string(GetParam()));
  Rng rng(GetParam() + 13);
  const size_t n = 1500;
  const KemBatch b = make_kem_batch(set, n, rng);
  const Bytes seeds = rng.bytes(n * 64);
  const uint64_t budget = uint64_t{3} << 20;
  auto with = [&](uint64_t bytes, PhaseTimes* t) {
    return PqBatchOptions{.backend = Backend::Cuda, .phase_times = t, .gpu_memory_budget = bytes};
  };
  PhaseTimes t0, t1;
  Bytes ek0(n * b.sz.ek, 0xa5), dk0(n * b.sz.dk, 0xa5), ek1(n * b.sz.ek, 0x5a), dk1(n * b.sz.dk, 0x5a);
  mlkem_keygen_batch(set, seeds, ek0, dk0, with(0, &t0));
  mlkem_keygen_batch(set, seeds, ek1, dk1, with(budget, &t1));
  EXPECT_EQ(ek1, ek0);
  EXPECT_EQ(dk1, dk0);
  EXPECT_EQ(chunks_of(t0), 1u);
  EXPECT_GE(chunks_of(t1), 3u);

  Bytes c0(n * b.sz.ct, 0xa5), k0(n * 32, 0xa5), c1(n * b.sz.ct, 0x5a), k1(n * 32, 0x5a);
  std::vector<PqStatus> s0(n), s1(n);
  PhaseTimes e1;
  mlkem_encaps_batch(set, b.ek, b.m, c0, k0, s0, with(0, nullptr));
  mlkem_encaps_batch(set, b.ek, b.m, c1, k1, s1, with(budget, &e1));
  EXPECT_EQ(c1, c0);
  EXPECT_EQ(k1, k0);
  EXPECT_EQ(s1, s0);
  Bytes c_c(n * b.sz.ct), k_c(n * 32);
  std::vector<PqStatus> s_c(n);
  mlkem_encaps_batch(set, b.ek, b.m, c_c, k_c, s_c, Backend::Cpu);
  EXPECT_EQ(c0, c_c);
  EXPECT_EQ(s0, s_c);
  EXPECT_GE(chunks_of(e1), 3u);

  Bytes key0(n * 32, 0xa5), key1(n * 32, 0x5a);
  std::vector<PqStatus> d0(n), d1(n);
  PhaseTimes x1;
  mlkem_decaps_batch(set, b.dk, b.c, key0, d0, with(0, nullptr));
  mlkem_decaps_batch(set, b.dk, b.c, key1, d1, with(budget, &x1));
  EXPECT_EQ(key1, key0);
  EXPECT_EQ(d1, d0);
  EXPECT_GE(chunks_of(x1), 3u);
  Bytes key_c(n * 32);
  std::vector<PqStatus> d_c(n);
  mlkem_decaps_batch(set, b.dk, b.c, key_c, d_c, Backend::Cpu);
  EXPECT_EQ(key0, key_c);

  EXPECT_EQ(error_of([&] { mlkem_decaps_batch(set, b.dk, b.c, key1, d1, with(1000, nullptr)); }),
            ErrorCode::OutOfMemory);
  mlkem_decaps_batch(set, b.dk, b.c, key1, d1, with(budget, nullptr));  // still usable
  EXPECT_EQ(key1, key0);
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlKemGpu, ::testing::Values(512, 768, 1024));

class MlDsaGpu : public ::testing::TestWithParam<int> {};

// Signs `items` on the CPU and on the GPU (into a poisoned output) and compares statuses and every
// signature; `describe(i)` names item i in the first few failures. Returns the CPU statuses.
template <class Describe>
std::vector<PqStatus> sign_both_and_compare(MlDsaSet set, const std::vector<MlDsaSignItem>& items, uint8_t poison,
                                            Describe&& describe) {
  const size_t n = items.size(), sig = mldsa_sizes(set).sig;
  Bytes sig_c(n * sig), sig_g(n * sig, poison);
  std::vector<PqStatus> st_c(n), st_g(n, PqStatus::Ok);
  for (size_t i = 0; i < n; i += 2) st_g[i] = PqStatus::InvalidInput;
  mldsa_sign_batch(set, items, sig_c, st_c, Backend::Cpu);
  mldsa_sign_batch(set, items, sig_g, st_g, Backend::Cuda);
  EXPECT_EQ(st_c, st_g);
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i)
    if (!std::equal(sig_c.begin() + i * sig, sig_c.begin() + (i + 1) * sig, sig_g.begin() + i * sig) &&
        ++mismatches <= 5)
      ADD_FAILURE() << "signature of item " << i << " differs (" << describe(i) << ")";
  EXPECT_EQ(mismatches, 0u);
  return st_c;
}

TEST_P(MlDsaGpu, MixedBatchEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto sz = mldsa_sizes(set);
  Rng rng(GetParam());
  const size_t n = sized<size_t>(300, 65);
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
  for (size_t i = 0; i < n; ++i)
    v.push_back({{&pk_c[i * sz.pk], sz.pk}, msgs[i], ctxs[i], {&sig_c[i * sz.sig], sz.sig}, false});
  std::vector<uint8_t> ok_c(n), ok_g(n, 7);
  mldsa_verify_batch(set, v, ok_c, Backend::Cpu);
  mldsa_verify_batch(set, v, ok_g, Backend::Cuda);
  EXPECT_EQ(ok_c, ok_g);
}

// Signing on the GPU equals the CPU byte for byte for several batch sizes (a warp per item,
// one warp per block), hedged and deterministic, into a poisoned output, with malformed expanded keys
// (an s1 coefficient below -eta) rejected on both.
TEST_P(MlDsaGpu, SignEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto sz = mldsa_sizes(set);
  Rng rng(GetParam() + 4);
  for (size_t n : sized<size_t>({1, 5, 33, 130, 2500}, {1, 5, 33, 130, 2049})) {  // 2500, 2049: two chunks
    SCOPED_TRACE("n = " + std::to_string(n));
    const Bytes seeds = rng.bytes(n * 32);
    Bytes pk(n * sz.pk), sk(n * sz.sk);
    mldsa_keygen_batch(set, seeds, pk, sk, Backend::Cpu);
    for (size_t i = 3; i < n; i += 17) sk[i * sz.sk + 128] = 0xff;  // first s1 coefficients out of range
    std::vector<Bytes> msgs, rnds;
    std::vector<MlDsaSignItem> items;
    for (size_t i = 0; i < n; ++i) {
      msgs.push_back(rng.bytes(i % 70));
      rnds.push_back(i % 3 ? rng.bytes(32) : Bytes{});
    }
    for (size_t i = 0; i < n; ++i) items.push_back({{&sk[i * sz.sk], sz.sk}, msgs[i], {}, rnds[i], false});
    const auto st_c =
        sign_both_and_compare(set, items, 0xa5, [&](size_t i) { return "msg " + std::to_string(msgs[i].size()); });
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(st_c[i] == PqStatus::Ok, i < 3 || (i - 3) % 17 != 0) << "item " << i;
  }
}

// The signing kernel computes mu on the device with a sponge spread over the warp: contexts of 0 to
// 255 bytes, messages that take one to several SHAKE256 blocks together with tr (absorbed 136
// bytes at a time), and external mu, hedged and deterministic, equal the CPU. 13000 items make
// chunks larger than the resident warps, so warps sign several items one after another in the
// same slot of device memory. Small mode keeps the 13000: a chunk is a sixth of the batch (at
// least 2048 items) and must exceed the resident warps (2112 on an H200), which no test hook
// changes.
TEST_P(MlDsaGpu, SignContextsExternalMuEqualCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto sz = mldsa_sizes(set);
  Rng rng(GetParam() + 9);
  // 13000 items: a chunk (a sixth of the batch) exceeds the persistent kernel's resident warps
  // (132 SMs x 16 on an H200), so warps sign several items in turn. Small mode reaches that path
  // at 130 items by capping the kernel at 4 blocks (one warp each), through the backend entry.
  for (size_t n : {size_t(7), sized<size_t>(13000, 130)}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Bytes seeds = rng.bytes(n * 32);
    Bytes pk(n * sz.pk), sk(n * sz.sk);
    mldsa_keygen_batch(set, seeds, pk, sk, Backend::Cpu);
    std::vector<Bytes> msgs, ctxs, rnds;
    std::vector<MlDsaSignItem> items;
    for (size_t i = 0; i < n; ++i) {
      const bool ext = i % 4 == 3;
      // message + context lengths around the 136-byte blocks (tr and two bytes come first: 66)
      const size_t msg_len = ext ? 64 : i % 9 == 0 ? 70 + rng.u32() % 400 : i % 9 == 1 ? 136 - 66 : rng.u32() % 80;
      const size_t ctx_len = ext || i % 7 == 1 ? 0 : i % 5 == 0 ? 255 : rng.u32() % 40;
      msgs.push_back(rng.bytes(msg_len));
      ctxs.push_back(rng.bytes(ctx_len));
      rnds.push_back(i % 3 ? rng.bytes(32) : Bytes{});
    }
    for (size_t i = 0; i < n; ++i) items.push_back({{&sk[i * sz.sk], sz.sk}, msgs[i], ctxs[i], rnds[i], i % 4 == 3});
    const auto st_c = sign_both_and_compare(set, items, 0x5a, [&](size_t i) {
      return "ctx " + std::to_string(ctxs[i].size()) + ", msg " + std::to_string(msgs[i].size()) +
             (i % 4 == 3 ? ", external mu" : "");
    });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(st_c[i], PqStatus::Ok) << "item " << i;
#if ZKGPU_HAVE_CUDA
    if (small_mode() && n > 7) {
      Bytes sig_c(n * sz.sig), sig_g(n * sz.sig, 0x5a), ok(n, 1);
      std::vector<PqStatus> st(n);
      mldsa_sign_batch(set, items, sig_c, st, Backend::Cpu);
      cuda::mldsa_sign_items(GetParam(), items, sig_g.data(), ok.data(), {.max_blocks = 4});
      EXPECT_EQ(ok, Bytes(n, 1));
      EXPECT_EQ(sig_g, sig_c) << "4 blocks, each warp signing several items";
    }
#endif
  }
}

// Verification on the GPU equals the CPU for batch sizes around the kernels' shapes (2 items per
// block in the warp kernel), on honest signatures and on each way one can fail: c~, z out of range,
// a non-canonical hint encoding, z inside the range but wrong, a changed public key.
TEST_P(MlDsaGpu, VerifyEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto sz = mldsa_sizes(set);
  const size_t ctilde = GetParam() == 44 ? 32 : GetParam() == 65 ? 48 : 64;
  const size_t omega = GetParam() == 44 ? 80 : GetParam() == 65 ? 55 : 75;
  Rng rng(GetParam() + 3);
  for (size_t n : sized<size_t>({1, 2, 3, 33, 257, 2500}, {1, 2, 3, 33, 257, 2049})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Bytes seeds = rng.bytes(n * 32);
    Bytes pk(n * sz.pk), sk(n * sz.sk), sig(n * sz.sig);
    mldsa_keygen_batch(set, seeds, pk, sk, Backend::Cpu);
    std::vector<Bytes> msgs;
    std::vector<MlDsaSignItem> items;
    for (size_t i = 0; i < n; ++i) msgs.push_back(rng.bytes(i % 50));
    for (size_t i = 0; i < n; ++i) items.push_back({{&sk[i * sz.sk], sz.sk}, msgs[i], {}, {}, false});
    std::vector<PqStatus> st(n);
    mldsa_sign_batch(set, items, sig, st, Backend::Cpu);
    for (size_t i = 0; i < n; ++i) {
      uint8_t* s = &sig[i * sz.sig];
      switch (i % 6) {
        case 1: s[5] ^= 0x40; break;                                   // c~
        case 2: s[ctilde] = s[ctilde + 1] = s[ctilde + 2] = 0; break;  // z_0 = gamma1: out of range
        case 3: s[sz.sig - 1] = uint8_t(omega + 1); break;             // hint end index > omega
        case 4: s[ctilde + 100] ^= 0x01; break;                        // z changed, still in range
        case 5: pk[i * sz.pk + 40] ^= 0x08; break;                     // t1 changed
        default: break;                                                // honest
      }
    }
    // Every fifth item hands in mu itself (external mu), computed as the signer did.
    std::vector<Bytes> mus(n);
    std::vector<MlDsaVerifyItem> v;
    for (size_t i = 0; i < n; ++i) {
      const bool ext = i % 5 == 0;
      if (ext) {
        const uint8_t* tr = &sk[i * sz.sk + 64];  // tr = H(pk) is stored in the expanded key
        mus[i].resize(64);
        mldsa::compute_mu(mus[i].data(), tr, nullptr, 0, msgs[i].data(), msgs[i].size());
      }
      v.push_back({{&pk[i * sz.pk], sz.pk}, ext ? mus[i] : msgs[i], {}, {&sig[i * sz.sig], sz.sig}, ext});
    }
    std::vector<uint8_t> ok_c(n), ok_g(n, 7);
    mldsa_verify_batch(set, v, ok_c, Backend::Cpu);
    mldsa_verify_batch(set, v, ok_g, Backend::Cuda);
    EXPECT_EQ(ok_c, ok_g);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(ok_c[i], i % 6 == 0 ? 1 : 0) << "item " << i;
  }
}

TEST_P(MlDsaGpu, WycheproofVerifyOnDevice) {
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

// Phase times of every ML-DSA operation on the GPU and the sign profile: the bytes stay the CPU's,
// the profile counts every item signed, at least one attempt each, and the cycles of every phase.
TEST_P(MlDsaGpu, PhaseTimesAndSignProfile) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto sz = mldsa_sizes(set);
  Rng rng(GetParam() + 12);
  const size_t n = 300;  // one chunk
  const Bytes seeds = rng.bytes(n * 32);
  Bytes pk(n * sz.pk), sk(n * sz.sk), pk_g(n * sz.pk, 0xa5), sk_g(n * sz.sk, 0xa5);
  mldsa_keygen_batch(set, seeds, pk, sk, Backend::Cpu);
  PhaseTimes keygen;
  mldsa_keygen_batch(set, seeds, pk_g, sk_g, PqBatchOptions{.backend = Backend::Cuda, .phase_times = &keygen});
  EXPECT_EQ(pk_g, pk);
  EXPECT_EQ(sk_g, sk);
  expect_chunk_phases(keygen, {"pack", "upload", "keygen", "download"}, 1);

  std::vector<Bytes> msgs;
  std::vector<MlDsaSignItem> items;
  for (size_t i = 0; i < n; ++i) msgs.push_back(rng.bytes(i % 90));
  for (size_t i = 0; i < n; ++i) items.push_back({{&sk[i * sz.sk], sz.sk}, msgs[i], {}, {}, false});
  Bytes sig_c(n * sz.sig), sig_g(n * sz.sig, 0xa5);
  std::vector<PqStatus> st_c(n), st_g(n);
  mldsa_sign_batch(set, items, sig_c, st_c, Backend::Cpu);
  PhaseTimes sign;
  MlDsaSignProfile profile;
  MlDsaSignOptions so;
  so.backend = Backend::Cuda;
  so.phase_times = &sign;
  so.sign_profile = &profile;
  mldsa_sign_batch(set, items, sig_g, st_g, so);
  EXPECT_EQ(sig_g, sig_c);
  EXPECT_EQ(st_g, st_c);
  expect_chunk_phases(sign, {"pack", "upload", "sign", "download"}, 1);
  EXPECT_EQ(profile.items, n);
  EXPECT_GE(profile.attempts, n);
  const std::vector<std::string> phases = {"key+mu", "expandA", "masks", "w=Ay", "c~", "ball+ntt", "z+hint"};
  ASSERT_EQ(profile.phase_cycles.size(), phases.size());
  for (size_t p = 0; p < phases.size(); ++p) {
    EXPECT_EQ(profile.phase_cycles[p].first, phases[p]);
    EXPECT_GT(profile.phase_cycles[p].second, 0u) << phases[p];
  }
  // A second call adds to the profile.
  const uint64_t attempts = profile.attempts;
  mldsa_sign_batch(set, items, sig_g, st_g, so);
  EXPECT_EQ(profile.items, 2 * n);
  EXPECT_EQ(profile.attempts, 2 * attempts);  // signing is deterministic: the same attempts again

  std::vector<MlDsaVerifyItem> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back({{&pk[i * sz.pk], sz.pk}, msgs[i], {}, {&sig_c[i * sz.sig], sz.sig}, false});
  std::vector<uint8_t> ok(n, 7);
  PhaseTimes verify;
  mldsa_verify_batch(set, v, ok, PqBatchOptions{.backend = Backend::Cuda, .phase_times = &verify});
  EXPECT_EQ(ok, std::vector<uint8_t>(n, 1));
  expect_chunk_phases(verify, {"pack", "upload", "prepare", "core", "finish", "download"}, 1);
}

// The same for ML-DSA: keygen, signing (messages of many lengths) and verification under a 1.5 MiB
// budget (half a MiB per stream) give the unlimited calls' bytes in several chunks; 1000 bytes is
// Error(OutOfMemory).
TEST_P(MlDsaGpu, SmallMemoryBudgetGivesTheSameBytes) {
  ZKGPU_REQUIRE_GPU();
  const MlDsaSet set = *parse_mldsa_set(std::to_string(GetParam()));
  const auto sz = mldsa_sizes(set);
  Rng rng(GetParam() + 14);
  const size_t n = 400;
  const uint64_t budget = uint64_t{3} << 19;
  auto with = [&](uint64_t bytes, PhaseTimes* t) {
    return PqBatchOptions{.backend = Backend::Cuda, .phase_times = t, .gpu_memory_budget = bytes};
  };
  const Bytes seeds = rng.bytes(n * 32);
  Bytes pk0(n * sz.pk, 0xa5), sk0(n * sz.sk, 0xa5), pk1(n * sz.pk, 0x5a), sk1(n * sz.sk, 0x5a);
  PhaseTimes g0, g1;
  mldsa_keygen_batch(set, seeds, pk0, sk0, with(0, &g0));
  mldsa_keygen_batch(set, seeds, pk1, sk1, with(budget, &g1));
  EXPECT_EQ(pk1, pk0);
  EXPECT_EQ(sk1, sk0);
  EXPECT_EQ(chunks_of(g0), 1u);
  EXPECT_GE(chunks_of(g1), 3u);

  std::vector<Bytes> msgs;
  for (size_t i = 0; i < n; ++i) msgs.push_back(rng.bytes(rng.u32() % 3000));
  std::vector<MlDsaSignItem> items;
  for (size_t i = 0; i < n; ++i) items.push_back({{&sk0[i * sz.sk], sz.sk}, msgs[i], {}, {}, false});
  Bytes sig0(n * sz.sig, 0xa5), sig1(n * sz.sig, 0x5a);
  std::vector<PqStatus> st0(n), st1(n);
  MlDsaSignOptions so;
  so.backend = Backend::Cuda;
  mldsa_sign_batch(set, items, sig0, st0, so);
  PhaseTimes s1;
  so.phase_times = &s1;
  so.gpu_memory_budget = budget;
  mldsa_sign_batch(set, items, sig1, st1, so);
  EXPECT_EQ(sig1, sig0);
  EXPECT_EQ(st1, st0);
  EXPECT_GE(chunks_of(s1), 3u);

  std::vector<MlDsaVerifyItem> v;
  for (size_t i = 0; i < n; ++i) {
    v.push_back({{&pk0[i * sz.pk], sz.pk}, msgs[i], {}, {&sig0[i * sz.sig], sz.sig}, false});
    if (i % 7 == 3) v.back().msg = {};  // a wrong message: rejected
  }
  std::vector<uint8_t> ok0(n, 7), ok1(n, 9), ok_c(n, 5);
  PhaseTimes v1;
  mldsa_verify_batch(set, v, ok0, with(0, nullptr));
  mldsa_verify_batch(set, v, ok1, with(budget, &v1));
  mldsa_verify_batch(set, v, ok_c, Backend::Cpu);
  EXPECT_EQ(ok1, ok0);
  EXPECT_EQ(ok0, ok_c);
  EXPECT_GE(chunks_of(v1), 3u);

  EXPECT_EQ(error_of([&] { mldsa_verify_batch(set, v, ok1, with(1000, nullptr)); }), ErrorCode::OutOfMemory);
  EXPECT_EQ(error_of([&] { mldsa_keygen_batch(set, seeds, pk1, sk1, with(1000, nullptr)); }), ErrorCode::OutOfMemory);
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlDsaGpu, ::testing::Values(44, 65, 87));

}  // namespace
}  // namespace zkgpu::test
