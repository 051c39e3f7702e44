// The C ABI's WHIR calls: proofs byte-identical to the C++ API's proof file, verification against
// the verifier's own parameters, claims and root, every corruption, truncation and mismatch a
// rejection with a reason, and the caller's own mistakes errors.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "whir/whir_test_support.hpp"

namespace zkgpu::test {
namespace {

constexpr auto CANON = ZKGPU_BABYBEAR_CANONICAL;
constexpr auto MONT = ZKGPU_BABYBEAR_MONTGOMERY;

zkgpu_whir_params c_params(unsigned n, unsigned fold, zkgpu_whir_soundness s, unsigned security, unsigned pow) {
  zkgpu_whir_params p;
  EXPECT_CAPI_OK(zkgpu_whir_params_init(&p, n));
  p.folding_factor = fold;
  p.soundness = s;
  p.security_level = security;
  p.pow_bits = pow;
  return p;
}

// The C layout of claims: points (claim-major, 4 words per coordinate) and values.
struct CClaims {
  std::vector<uint32_t> points, values;
  CClaims(const std::vector<Claim>& cs, zkgpu_babybear_repr repr) {
    auto word = [&](BabyBear x) { return repr == CANON ? x.canonical() : x.v; };
    for (const Claim& c : cs) {
      for (const BabyBear4& x : c.point)
        for (BabyBear e : x.c) points.push_back(word(e));
      for (BabyBear e : c.value.c) values.push_back(word(e));
    }
  }
};

struct Proved {
  std::vector<uint8_t> file;
  std::vector<uint32_t> root;
};

Proved c_prove(const zkgpu_whir_params& p, const std::vector<BabyBear>& evals, const CClaims& cl, size_t n_claims,
               zkgpu_babybear_repr repr) {
  const std::vector<uint32_t> words = repr == CANON ? canonical_words(evals) : monty_words(evals);
  zkgpu_whir_proof* proof = nullptr;
  Proved out;
  EXPECT_CAPI_OK(zkgpu_whir_prove(&p, words.data(), words.size(), cl.points.data(), cl.values.data(), n_claims, repr,
                                  ZKGPU_BACKEND_CPU, &proof));
  if (!proof) return out;
  size_t bytes = 0;
  EXPECT_CAPI_OK(zkgpu_whir_proof_size(proof, &bytes));
  out.file.resize(bytes);
  EXPECT_CAPI_OK(zkgpu_whir_proof_write(proof, out.file.data(), bytes));
  out.root.resize(8);
  EXPECT_CAPI_OK(zkgpu_whir_proof_root(proof, repr, out.root.data()));
  zkgpu_whir_proof_free(proof);
  return out;
}

// The verdict and its reason.
std::pair<bool, std::string> c_verify(const zkgpu_whir_params& p, const CClaims& cl, size_t n_claims,
                                      const uint32_t* root, std::span<const uint8_t> file,
                                      zkgpu_babybear_repr repr = CANON) {
  uint8_t accepted = 9;
  char reason[512];
  EXPECT_CAPI_OK(zkgpu_whir_verify(&p, cl.points.data(), cl.values.data(), n_claims, root, repr, file.data(),
                                   file.size(), &accepted, reason, sizeof reason));
  EXPECT_TRUE(accepted == 0 || accepted == 1);
  EXPECT_EQ(accepted == 1, reason[0] == '\0') << reason;
  return {accepted == 1, reason};
}

struct Fixture {
  zkgpu_whir_params p;
  whir::WhirConfig cfg;
  std::vector<BabyBear> evals;
  std::vector<Claim> claims;
  Fixture(unsigned n, unsigned fold, zkgpu_whir_soundness s, unsigned security, unsigned pow, uint64_t salt)
      : p(c_params(n, fold, s, security, pow)),
        cfg(whir::WhirConfig::derive(
            make_params(n, FoldingFactor::constant(fold), 1, static_cast<Soundness>(s), security, pow))) {
    Rng rng(salt);
    evals = random_field(rng, size_t{1} << n);
    claims = random_claims(rng, evals, n, 3);
  }
};

TEST(CApiWhir, ProofFileEqualsTheCxxApiAndVerifies) {
  const Fixture f(10, 3, ZKGPU_WHIR_CAPACITY_BOUND, 60, 12, 21);
  const std::vector<uint8_t> want =
      whir::write_proof_file(f.cfg, f.claims, whir::prove(f.cfg, f.evals, f.claims, Backend::Cpu));
  for (auto repr : {CANON, MONT}) {
    const CClaims cl(f.claims, repr);
    const Proved got = c_prove(f.p, f.evals, cl, 3, repr);
    EXPECT_EQ(got.file, want);
    const auto [ok, why] = c_verify(f.p, cl, 3, got.root.data(), got.file, repr);
    EXPECT_TRUE(ok) << why;
  }
  zkgpu_whir_config c;
  EXPECT_CAPI_OK(zkgpu_whir_derive(&f.p, &c));
  EXPECT_EQ(c.n_rounds, f.cfg.n_rounds);
  EXPECT_EQ(c.commitment_ood_samples, f.cfg.commitment_ood_samples);
  EXPECT_EQ(c.max_derived_pow_bits, f.cfg.max_derived_pow_bits());
  uint64_t bound = 0;
  EXPECT_CAPI_OK(zkgpu_whir_max_proof_size(&f.p, 3, &bound));
  EXPECT_EQ(bound, whir::max_proof_file_size(f.cfg, 3));
  EXPECT_LE(want.size(), bound);
}

TEST(CApiWhir, AnotherStatementIsRejectedWithItsReason) {
  const Fixture f(9, 2, ZKGPU_WHIR_JOHNSON_BOUND, 40, 8, 22);
  const CClaims cl(f.claims, CANON);
  const Proved pr = c_prove(f.p, f.evals, cl, 3, CANON);
  std::vector<uint32_t> root = pr.root;
  root[2] = (root[2] + 1) % BabyBear::P;
  EXPECT_NE(c_verify(f.p, cl, 3, root.data(), pr.file).second.find("root"), std::string::npos);
  // Two of the three claims: the count differs.
  EXPECT_NE(c_verify(f.p, cl, 2, pr.root.data(), pr.file).second.find("claim"), std::string::npos);
  // A true claim the proof is not about.
  Rng rng(23);
  const CClaims other(random_claims(rng, f.evals, 9, 3), CANON);
  EXPECT_NE(c_verify(f.p, other, 3, pr.root.data(), pr.file).second.find("claim 0"), std::string::npos);
  // The verifier's parameters, not the file's: a file of other parameters is rejected, named.
  zkgpu_whir_params stronger = f.p;
  stronger.security_level = 41;
  EXPECT_NE(c_verify(stronger, cl, 3, pr.root.data(), pr.file).second.find("security"), std::string::npos);
}

TEST(CApiWhir, EveryByteCorruptionAndTruncationIsRejected) {
  // Security 10 and no PoW budget keep every PoW at 0 bits, so no byte of the file is unchecked
  // (as whir_prove_test's EverySingleByteCorruptionIsRejectedWithoutPow).
  const Fixture f(9, 2, ZKGPU_WHIR_CAPACITY_BOUND, 10, 0, 24);
  const CClaims cl(f.claims, CANON);
  const Proved pr = c_prove(f.p, f.evals, cl, 3, CANON);
  ASSERT_FALSE(pr.file.empty());
  std::vector<uint8_t> file = pr.file;
  size_t accepted = 0;
  for (size_t i = 0; i < file.size(); ++i) {
    file[i] ^= 0x01;
    accepted += c_verify(f.p, cl, 3, pr.root.data(), file).first ? 1 : 0;
    file[i] ^= 0x01;
  }
  EXPECT_EQ(accepted, 0u);
  for (size_t len = 0; len < file.size(); len += (len < 64 ? 1 : 61)) {
    const auto [ok, why] = c_verify(f.p, cl, 3, pr.root.data(), {file.data(), len});
    EXPECT_FALSE(ok) << len;
    EXPECT_NE(why.find("malformed"), std::string::npos) << why;
  }
  file.push_back(0);
  EXPECT_FALSE(c_verify(f.p, cl, 3, nullptr, file).first);
  EXPECT_TRUE(c_verify(f.p, cl, 3, nullptr, pr.file).first);  // the untouched file, without a pinned root
}

TEST(CApiWhir, CallerMistakesAreErrors) {
  const Fixture f(8, 2, ZKGPU_WHIR_CAPACITY_BOUND, 10, 0, 25);
  CClaims cl(f.claims, CANON);
  const std::vector<uint32_t> evals = canonical_words(f.evals);
  const Proved pr = c_prove(f.p, f.evals, cl, 3, CANON);
  zkgpu_whir_proof* proof = nullptr;
  uint8_t ok = 0;
  char reason[8];
  auto prove = [&](const zkgpu_whir_params* p, size_t n_evals, size_t n_claims) {
    return zkgpu_whir_prove(p, evals.data(), n_evals, cl.points.data(), cl.values.data(), n_claims, CANON,
                            ZKGPU_BACKEND_CPU, &proof);
  };
  EXPECT_CAPI_ERR(prove(nullptr, 256, 3), ZKGPU_INVALID_ARGUMENT, "params");
  EXPECT_CAPI_ERR(prove(&f.p, 255, 3), ZKGPU_INVALID_ARGUMENT, "num_evals");
  EXPECT_CAPI_ERR(prove(&f.p, 256, 0), ZKGPU_INVALID_ARGUMENT, "num_claims");
  zkgpu_whir_params bad = f.p;
  bad.soundness = (zkgpu_whir_soundness)3;
  EXPECT_CAPI_ERR(prove(&bad, 256, 3), ZKGPU_INVALID_ARGUMENT, "soundness 3");
  bad = f.p;
  bad.folding_from_second_round = 2;
  EXPECT_CAPI_ERR(prove(&bad, 256, 3), ZKGPU_INVALID_ARGUMENT, "folding_from_second_round");
  bad = f.p;
  bad.rs_reduction = -2;
  EXPECT_CAPI_ERR(prove(&bad, 256, 3), ZKGPU_INVALID_ARGUMENT, "rs_reduction");
  bad = f.p;
  bad.folding_factor = 9;  // fold > n: derive() says why
  EXPECT_CAPI_ERR(prove(&bad, 256, 3), ZKGPU_INVALID_ARGUMENT, "fold");
  EXPECT_EQ(proof, nullptr);
  cl.values[5] = BabyBear::P;
  EXPECT_CAPI_ERR(prove(&f.p, 256, 3), ZKGPU_INVALID_ARGUMENT, "values[5]");
  EXPECT_CAPI_ERR(zkgpu_whir_verify(&f.p, cl.points.data(), cl.values.data(), 3, nullptr, CANON, pr.file.data(),
                                    pr.file.size(), &ok, nullptr, 0),
                  ZKGPU_INVALID_ARGUMENT, "values[5]");
  cl.values[5] = 0;
  EXPECT_CAPI_ERR(
      zkgpu_whir_verify(&f.p, cl.points.data(), cl.values.data(), 3, nullptr, CANON, nullptr, 10, &ok, nullptr, 0),
      ZKGPU_INVALID_ARGUMENT, "proof");
  EXPECT_CAPI_ERR(zkgpu_whir_verify(&f.p, cl.points.data(), cl.values.data(), 3, nullptr, CANON, pr.file.data(),
                                    pr.file.size(), &ok, nullptr, 8),
                  ZKGPU_INVALID_ARGUMENT, "reason");
  // The reason is cut to the buffer and NUL-terminated (claim 1's value changed above).
  EXPECT_CAPI_OK(zkgpu_whir_verify(&f.p, cl.points.data(), cl.values.data(), 3, nullptr, CANON, pr.file.data(),
                                   pr.file.size(), &ok, reason, sizeof reason));
  EXPECT_EQ(ok, 0);
  EXPECT_EQ(std::strlen(reason), sizeof reason - 1);
  EXPECT_CAPI_ERR(zkgpu_whir_proof_write(nullptr, reinterpret_cast<uint8_t*>(reason), 8), ZKGPU_INVALID_ARGUMENT,
                  "proof");
  EXPECT_CAPI_ERR(zkgpu_whir_derive(&f.p, nullptr), ZKGPU_INVALID_ARGUMENT, "config");
}

TEST(CApiWhir, ProofHandleChecksItsBuffer) {
  const Fixture f(8, 2, ZKGPU_WHIR_CAPACITY_BOUND, 10, 0, 26);
  const CClaims cl(f.claims, CANON);
  const std::vector<uint32_t> evals = canonical_words(f.evals);
  zkgpu_whir_proof* proof = nullptr;
  ASSERT_TRUE(status_is(zkgpu_whir_prove(&f.p, evals.data(), evals.size(), cl.points.data(), cl.values.data(), 3, CANON,
                                         ZKGPU_BACKEND_AUTO, &proof),
                        ZKGPU_OK));
  size_t bytes = 0;
  EXPECT_CAPI_OK(zkgpu_whir_proof_size(proof, &bytes));
  std::vector<uint8_t> buf(bytes + 3, 0xee);
  EXPECT_CAPI_ERR(zkgpu_whir_proof_write(proof, buf.data(), bytes - 1), ZKGPU_INVALID_ARGUMENT, "out_len");
  EXPECT_CAPI_OK(zkgpu_whir_proof_write(proof, buf.data(), buf.size()));
  EXPECT_EQ(buf[bytes], 0xee);  // nothing past the proof is written
  EXPECT_CAPI_ERR(zkgpu_whir_proof_root(proof, (zkgpu_babybear_repr)2, reinterpret_cast<uint32_t*>(buf.data())),
                  ZKGPU_INVALID_ARGUMENT, "repr 2");
  zkgpu_whir_proof_free(proof);
}

}  // namespace
}  // namespace zkgpu::test
