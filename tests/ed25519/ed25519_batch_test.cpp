// The batch API on the CPU backend: differential against OpenSSL on random valid and mutated
// signatures, isolation of bad items, empty batches, huge messages, wrong lengths, and the
// ZIP-215 random-linear-combination verifier against the single verdicts.
#include <algorithm>
#include <cstdint>

#include "ed25519/ed25519_test_support.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

using test::SigCase;

std::vector<SigCase> random_batch(size_t n, uint64_t salt, double bad_fraction, std::vector<uint8_t>* valid = nullptr) {
  test::Signer signer(salt);
  std::vector<SigCase> cases;
  for (size_t i = 0; i < n; ++i) {
    const size_t len = signer.rng().u32() % 4 == 0 ? signer.rng().u32() % 1000 : signer.rng().u32() % 140;
    SigCase c = signer.sign(len);
    const bool bad = (signer.rng().u32() % 1000) < bad_fraction * 1000;
    if (bad) c = test::mutate(std::move(c), signer.rng());
    if (valid) valid->push_back(bad ? 0 : 1);
    cases.push_back(std::move(c));
  }
  return cases;
}

TEST(Ed25519Batch, DifferentialAgainstOpenSslOnRandomAndMutatedSignatures) {
  std::vector<uint8_t> made_valid;
  const auto cases = random_batch(3000, 7, 0.5, &made_valid);
  const auto got = ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Backend::Cpu);
  size_t mutated = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    ASSERT_EQ(got[i], test::openssl_verify(cases[i]) ? 1 : 0) << "item " << i << " " << cases[i].name;
    ASSERT_EQ(got[i], made_valid[i]) << "item " << i << " " << cases[i].name;
    mutated += made_valid[i] == 0;
  }
  EXPECT_GT(mutated, 1000u);
}

// Non-canonical encodings: y >= p for A or R (the y mod p in {0, 1, ...} points) and
// S with bits above L; OpenSSL's verdict is the reference.
TEST(Ed25519Batch, DifferentialAgainstOpenSslOnNonCanonicalEncodings) {
  test::Signer signer(8);
  std::vector<SigCase> cases;
  for (int i = 0; i < 200; ++i) {
    SigCase c = signer.sign(32);
    std::vector<uint8_t> enc(32, 0xff);
    enc[0] = static_cast<uint8_t>(0xed + signer.rng().u32() % 19);  // p .. 2^255 - 1
    enc[31] = static_cast<uint8_t>(0x7f | ((signer.rng().u32() & 1) << 7));
    switch (i % 3) {
      case 0: c.pk = enc; break;
      case 1: std::copy(enc.begin(), enc.end(), c.sig.begin()); break;
      default: c.sig[63] |= static_cast<uint8_t>(0x10 << (signer.rng().u32() % 4)); break;
    }
    cases.push_back(std::move(c));
  }
  const auto got = ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Backend::Cpu);
  for (size_t i = 0; i < cases.size(); ++i) ASSERT_EQ(got[i], test::openssl_verify(cases[i]) ? 1 : 0) << "item " << i;
}

// Every edge case inside a batch of valid signatures, at random positions: each verdict equals
// the single verdict, in every mode (spec section 1.2 recipe).
TEST(Ed25519Batch, BadItemsNeverChangeOtherVerdicts) {
  const auto edge = test::load_vectors("ed25519/edge_cases_labelled_by_semantics.json");
  std::vector<SigCase> bad;
  for (const auto& v : edge)
    bad.push_back({test::unhex(v["pk"]), test::unhex(v["sig"]), test::unhex(v["msg"]), v["set"]});
  auto good = test::supercop_cases("ed25519/dalek_TESTVECTORS");
  test::Rng rng(9);
  for (size_t n : {1u, 63u, 64u, 4096u}) {
    std::vector<SigCase> batch;
    for (size_t i = 0; i < n; ++i)
      batch.push_back(rng.u32() % 3 == 0 ? bad[rng.u32() % bad.size()] : good[i % good.size()]);
    // Wrong-length signatures are errors for the batch API: keep them to the single-item tests.
    std::erase_if(batch, [](const SigCase& c) { return c.sig.size() != 64 || c.pk.size() != 32; });
    const auto items = test::items_of(batch);
    for (Ed25519Mode m : {Ed25519Mode::Openssl, Ed25519Mode::Strict, Ed25519Mode::Zip215}) {
      const auto got = ed25519_verify_batch(items, m, Backend::Cpu);
      for (size_t i = 0; i < batch.size(); ++i)
        ASSERT_EQ(got[i], ed25519_verify(batch[i].pk, batch[i].sig, batch[i].msg, m) ? 1 : 0)
            << "n " << n << " item " << i;
    }
  }
}

TEST(Ed25519Batch, EmptyBatchAndHugeMessage) {
  EXPECT_TRUE(ed25519_verify_batch({}, Ed25519Mode::Openssl, Backend::Cpu).empty());
  EXPECT_TRUE(ed25519_verify_batch({}, Ed25519Mode::Openssl, Backend::Auto).empty());
  test::Signer signer(10);
  std::vector<SigCase> cases = {signer.sign(1 << 20), signer.sign(0), signer.sign((64 << 10) + 1)};
  cases.push_back(cases[0]);
  cases.back().msg[(1 << 20) - 1] ^= 0x80;  // the last byte of a 1 MiB message counts
  const auto got = ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Backend::Cpu);
  EXPECT_EQ(got, (std::vector<uint8_t>{1, 1, 1, 0}));
}

TEST(Ed25519Batch, WrongLengthsAreErrorsNamingTheItem) {
  test::Signer signer(11);
  std::vector<SigCase> cases = {signer.sign(5), signer.sign(6)};
  cases[1].sig.pop_back();
  try {
    (void)ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Backend::Cpu);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("item 1"), std::string::npos) << e.what();
  }
  cases[1] = signer.sign(6);
  cases[0].pk.push_back(0);
  EXPECT_THROW((void)ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Backend::Cpu), Error);
  // Output span of the wrong size.
  cases[0] = signer.sign(5);
  std::vector<uint8_t> out(1);
  EXPECT_THROW(ed25519_verify_batch(test::items_of(cases), out, Ed25519Mode::Openssl, Backend::Cpu), Error);
  // The single-item function answers false instead.
  std::vector<uint8_t> short_sig(63), pk(32), empty;
  EXPECT_FALSE(ed25519_verify(pk, short_sig, empty));
  EXPECT_FALSE(ed25519_verify(empty, empty, empty));
}

// The options overloads: the crossover moves Auto between the backends (0: the GPU whenever one
// is usable; the largest value: always the CPU), never the verdicts; argument errors are the same.
TEST(Ed25519Batch, OptionsOverloadsGiveTheSameVerdicts) {
  test::Signer signer(12);
  std::vector<SigCase> cases;
  for (size_t i = 0; i < 40; ++i) cases.push_back(signer.sign(i * 7));
  cases[3].sig[5] ^= 1;
  cases[31].msg[0] ^= 1;
  const auto items = test::items_of(cases);
  for (Ed25519Mode m : {Ed25519Mode::Openssl, Ed25519Mode::Zip215}) {
    const auto expected = ed25519_verify_batch(items, m, Backend::Cpu);
    EXPECT_EQ(expected[3], 0);
    EXPECT_EQ(expected[31], 0);
    for (const Ed25519BatchOptions& o :
         {Ed25519BatchOptions{.backend = Backend::Cpu},
          Ed25519BatchOptions{.backend = Backend::Auto, .gpu_crossover = 0},
          Ed25519BatchOptions{.backend = Backend::Auto, .gpu_crossover = UINT64_MAX}, Ed25519BatchOptions{}}) {
      EXPECT_EQ(ed25519_verify_batch(items, m, o), expected) << o.gpu_crossover;
      std::vector<uint8_t> out(items.size(), 0xCD);
      ed25519_verify_batch(items, out, m, o);
      EXPECT_EQ(out, expected) << o.gpu_crossover;
    }
  }
  EXPECT_EQ(Ed25519BatchOptions{}.backend, Backend::Auto);
  EXPECT_EQ(Ed25519BatchOptions{}.gpu_crossover, ED25519_GPU_CROSSOVER_ITEMS);
  cases[0].sig.pop_back();
  EXPECT_THROW((void)ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Ed25519BatchOptions{}), Error);
}

TEST(Ed25519Batch, ModeNamesRoundTrip) {
  for (Ed25519Mode m : {Ed25519Mode::Openssl, Ed25519Mode::Strict, Ed25519Mode::Zip215})
    EXPECT_EQ(parse_ed25519_mode(to_string(m)), m);
  EXPECT_FALSE(parse_ed25519_mode("ref10").has_value());
}

// ZIP-215: the RLC batch check accepts all-valid batches, rejects a batch with any bad item, and
// the bisecting verifier reproduces the single verdicts, including on torsion-residue edge cases
// (which a cofactored batch equation treats exactly like the single check).
TEST(Ed25519Batch, Zip215RandomLinearCombinationEqualsSingleVerdicts) {
  const auto edge = test::load_vectors("ed25519/edge_cases_labelled_by_semantics.json");
  std::vector<SigCase> edge_cases;
  for (const auto& v : edge) {
    SigCase c{test::unhex(v["pk"]), test::unhex(v["sig"]), test::unhex(v["msg"]), v["set"]};
    if (c.pk.size() == 32 && c.sig.size() == 64) edge_cases.push_back(std::move(c));
  }
  auto good = test::supercop_cases("ed25519/dalek_TESTVECTORS");
  EXPECT_TRUE(ed25519_batch_equation_zip215(test::items_of(good), 1));
  EXPECT_TRUE(ed25519_batch_equation_zip215({}, 1));

  // Zip215-valid edge cases (torsion components included) pass the batch equation together.
  std::vector<SigCase> zip_valid;
  for (const auto& c : edge_cases)
    if (ed25519_verify(c.pk, c.sig, c.msg, Ed25519Mode::Zip215)) zip_valid.push_back(c);
  ASSERT_GT(zip_valid.size(), 100u);
  EXPECT_TRUE(ed25519_batch_equation_zip215(test::items_of(zip_valid), 2));

  test::Rng rng(12);
  for (size_t n : {1u, 63u, 64u, 700u}) {
    std::vector<SigCase> batch;
    for (size_t i = 0; i < n; ++i)
      batch.push_back(rng.u32() % 8 == 0 ? edge_cases[rng.u32() % edge_cases.size()] : good[rng.u32() % good.size()]);
    const auto items = test::items_of(batch);
    std::vector<uint8_t> rlc(n, 0xAB);
    ed25519_verify_batch_zip215_rlc(items, rlc, 100 + n);
    std::vector<uint8_t> single(n);
    for (size_t i = 0; i < n; ++i)
      single[i] = ed25519_verify(batch[i].pk, batch[i].sig, batch[i].msg, Ed25519Mode::Zip215) ? 1 : 0;
    EXPECT_EQ(rlc, single) << "n " << n;
    EXPECT_EQ(ed25519_verify_batch(items, Ed25519Mode::Zip215, Backend::Cpu), single) << "n " << n;
    const bool all = std::all_of(single.begin(), single.end(), [](uint8_t v) { return v == 1; });
    EXPECT_EQ(ed25519_batch_equation_zip215(items, 200 + n), all) << "n " << n;
  }
  // One mutated signature among valid ones fails the equation and is named.
  auto batch = good;
  batch[77] = test::mutate(batch[77], rng);
  EXPECT_FALSE(ed25519_batch_equation_zip215(test::items_of(batch), 3));
  std::vector<uint8_t> out(batch.size());
  ed25519_verify_batch_zip215_rlc(test::items_of(batch), out, std::nullopt);  // OS randomness path
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], i == 77 ? 0 : 1) << i;
}

}  // namespace
}  // namespace zkgpu
