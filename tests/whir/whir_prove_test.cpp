// WHIR prover/verifier round trips, soundness checks and the proof-file parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>

#include "support/test_support.hpp"
#include "whir/whir_test_support.hpp"
#include "whir/poly.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

using test::make_params;
using test::random_claims;
using test::random_instance;
using test::Rng;

// Prove, verify, serialize, parse, verify again; returns the file.
std::vector<uint8_t> round_trip(const ProtocolParameters& p, uint64_t salt, size_t n_claims = 2) {
  Rng rng(salt);
  const auto [cfg, evals, claims] = random_instance(rng, p, n_claims);
  const Proof proof = prove(cfg, evals, claims, Backend::Cpu);
  const VerifyResult r = verify(cfg, claims, proof);
  EXPECT_TRUE(r.accepted) << r.reason;
  std::vector<uint8_t> file = write_proof_file(cfg, claims, proof);
  const ProofFile back = read_proof_file(file, cfg);
  const WhirConfig cfg2 = WhirConfig::derive(back.params);
  const VerifyResult r2 = verify(cfg2, back.claims, back.proof);
  EXPECT_TRUE(r2.accepted) << r2.reason;
  EXPECT_EQ(write_proof_file(cfg2, back.claims, back.proof), file);
  // A wrong claimed value is rejected.
  {
    std::vector<Claim> bad = claims;
    bad[0].value += BabyBear4::one();
    EXPECT_FALSE(verify(cfg, bad, proof).accepted);
  }
  return file;
}

BabyBear4 ef_pow(BabyBear4 z, size_t e) {
  BabyBear4 acc = BabyBear4::one();
  for (; e; e >>= 1, z = z.square())
    if (e & 1) acc *= z;
  return acc;
}

TEST(WhirPoly, WeightIdentities) {
  Rng rng(11);
  for (unsigned m : {1u, 3u, 6u, 14u}) {
    SCOPED_TRACE(m);
    const std::vector<BabyBear> t = rng.fes(size_t(1) << m);
    std::vector<BabyBear4> tef(t.size());
    for (size_t i = 0; i < t.size(); ++i) tef[i] = BabyBear4::from_base(t[i]);
    // <T, select(z, .)> = sum_j T[j] z^j (the committed univariate polynomial).
    const BabyBear zb = rng.fe();
    std::vector<BabyBear4> w(t.size(), BabyBear4::zero());
    const BabyBear4 coeff = rng.fe4();
    poly::add_select_weights(w, std::span<const BabyBear>(&zb, 1), std::span<const BabyBear4>(&coeff, 1));
    BabyBear4 dot = BabyBear4::zero();
    for (size_t j = 0; j < t.size(); ++j) dot += w[j] * t[j];
    EXPECT_EQ(dot, coeff * poly::horner(tef, BabyBear4::from_base(zb)));
    // select(z, .) at hypercube point j (x_0 = MSB) is z^j; eq(P, .) at j is the table entry.
    const BabyBear4 z = rng.fe4();
    std::vector<BabyBear4> p(m);
    for (auto& x : p) x = rng.fe4();
    std::vector<BabyBear4> eqw(t.size(), BabyBear4::zero());
    poly::add_eq_weights(eqw, p, BabyBear4::one());
    for (size_t j : {size_t(0), t.size() / 3, t.size() - 1}) {
      std::vector<BabyBear4> bits(m);
      for (unsigned i = 0; i < m; ++i) bits[i] = ((j >> (m - 1 - i)) & 1) ? BabyBear4::one() : BabyBear4::zero();
      EXPECT_EQ(poly::select_eval(z, bits), ef_pow(z, j));
      EXPECT_EQ(poly::eq_eval(p, bits), eqw[j]);
      EXPECT_EQ(evaluate_multilinear(t, bits), tef[j]);
    }
    // f^(P) = <T, eq(P, .)>, and the OOD answer is f^ at expand(z, m).
    BabyBear4 ip = BabyBear4::zero();
    for (size_t j = 0; j < t.size(); ++j) ip += eqw[j] * t[j];
    EXPECT_EQ(evaluate_multilinear(t, p), ip);
    const auto ex = poly::expand_from_univariate(z, m);
    EXPECT_EQ(ex.back(), z);
    EXPECT_EQ(ex.front(), ef_pow(z, size_t(1) << (m - 1)));
    // Binding the first k variables of T with r, then evaluating the rest at s, is f^(r ++ s).
    std::vector<BabyBear4> folded = poly::fold(t, p[0]);
    for (unsigned i = 1; i < m; ++i) poly::fold_in_place(folded, p[i]);
    EXPECT_EQ(folded[0], ip);
    // The sumcheck message: h(0) + h(1) is the claim <W, T>.
    auto [h0, h2] = poly::sumcheck_coeffs(t, eqw);
    BabyBear4 h1 = BabyBear4::zero();
    for (size_t j = t.size() / 2; j < t.size(); ++j) h1 += eqw[j] * t[j];
    EXPECT_EQ(h0 + h1, ip);
    (void)h2;
  }
}

// The folded row of a committed codeword is g'(w^i): checked end to end by the round trips below
// (every select constraint uses it), and directly here for a base-field table.
TEST(WhirPoly, FoldedRowIsTheFoldedPolynomialAtTheDomainPoint) {
  Rng rng(12);
  const unsigned m = 8, k = 3;
  const std::vector<BabyBear> t = rng.fes(size_t(1) << m);
  std::vector<BabyBear4> r(k);
  for (auto& x : r) x = rng.fe4();
  std::vector<BabyBear4> folded = poly::fold(t, r[0]);
  for (unsigned i = 1; i < k; ++i) poly::fold_in_place(folded, r[i]);
  const size_t rows = size_t(1) << (m - k);
  const BabyBear w = BabyBear::two_adic_generator(m - k + 1).pow(5);  // any domain point
  std::vector<BabyBear> fibre(size_t(1) << k);
  for (size_t c = 0; c < fibre.size(); ++c) {
    BabyBear acc = BabyBear::zero();
    for (size_t j = rows; j-- > 0;) acc = acc * w + t[c * rows + j];  // f_c(w)
    fibre[c] = acc;
  }
  EXPECT_EQ(evaluate_multilinear(fibre, r), poly::horner(folded, BabyBear4::from_base(w)));
}

TEST(WhirProve, RoundTripsSmallConfigurations) {
  size_t count = 0;
  for (unsigned n = 1; n <= 12; ++n)
    for (unsigned k = 1; k <= std::min(6u, n); ++k)
      for (unsigned rate = 1; rate <= 3; ++rate) {
        const Soundness s = static_cast<Soundness>((n + k + rate) % 3);
        SCOPED_TRACE("n" + std::to_string(n) + " k" + std::to_string(k) + " r" + std::to_string(rate) + " " +
                     to_string(s));
        ProtocolParameters p = make_params(n, FoldingFactor::constant(k), rate, s, 32, 8);
        WhirConfig cfg;
        try {
          cfg = WhirConfig::derive(p);
        } catch (const Error& e) {
          continue;  // e.g. a fold that overshoots n; covered by the parameter tests
        }
        round_trip(p, n * 100 + k * 10 + rate, 1 + (n + k) % 3);
        ++count;
      }
  EXPECT_GT(count, 150u);
}

TEST(WhirProve, RoundTripsFoldFirstAndReductions) {
  struct C {
    unsigned n, k0, k, rate, red;
    Soundness s;
  } cases[] = {
      {10, 2, 1, 1, 1, Soundness::UniqueDecoding}, {12, 5, 2, 1, 3, Soundness::JohnsonBound},
      {12, 1, 3, 2, 0, Soundness::CapacityBound},  {9, 3, 6, 1, 2, Soundness::UniqueDecoding},
      {14, 6, 4, 2, 6, Soundness::CapacityBound},  {11, 4, 1, 3, 2, Soundness::JohnsonBound},
  };
  for (const C& c : cases) {
    SCOPED_TRACE("n" + std::to_string(c.n) + " k0 " + std::to_string(c.k0) + " k " + std::to_string(c.k));
    ProtocolParameters p = make_params(c.n, FoldingFactor::constant_from_second_round(c.k0, c.k), c.rate, c.s, 40, 10);
    p.rs_reduction = c.red;
    const WhirConfig cfg = WhirConfig::derive(p);
    EXPECT_EQ(c.n, c.k0 + (cfg.n_rounds > 0 ? cfg.n_rounds * c.k : 0) + cfg.final_sumcheck_rounds);
    round_trip(p, c.n * 7 + c.k0, 1);
  }
}

TEST(WhirProve, RoundTripsDefaultSecurity) {
  for (Soundness s : {Soundness::UniqueDecoding, Soundness::JohnsonBound, Soundness::CapacityBound}) {
    SCOPED_TRACE(to_string(s));
    round_trip(make_params(12, FoldingFactor::constant(4), 1, s, 100, 16), 77, 1);
  }
  const auto t0 = std::chrono::steady_clock::now();
  round_trip(make_params(16, FoldingFactor::constant(4), 1, Soundness::UniqueDecoding, 100, 16), 78, 1);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "n = 16, fold 4, rate 1, UD, security 100: round trip " << ms << " ms\n";
}

TEST(WhirProve, DeterministicAndBoundToTheStatement) {
  const ProtocolParameters p = make_params(10, FoldingFactor::constant(3), 1, Soundness::CapacityBound, 60, 12);
  Rng rng(5);
  auto [cfg, evals, claims] = random_instance(rng, p, 2);
  const Proof a = prove(cfg, evals, claims, Backend::Cpu), b = prove(cfg, evals, claims, Backend::Cpu);
  EXPECT_EQ(write_proof_file(cfg, claims, a), write_proof_file(cfg, claims, b));
  // A different true statement: the old proof does not verify it.
  std::vector<Claim> other = claims;
  other[1].point[0] += BabyBear4::one();
  other[1].value = evaluate_multilinear(evals, other[1].point);
  EXPECT_FALSE(verify(cfg, other, a).accepted);
  EXPECT_FALSE(verify(cfg, std::span<const Claim>(claims).subspan(0, 1), a).accepted);
  // A false claim: the honest prover refuses it.
  claims[0].value += BabyBear4::one();
  EXPECT_THROW(prove(cfg, evals, claims, Backend::Cpu), Error);
  // Wrong sizes are errors, not crashes.
  EXPECT_THROW(prove(cfg, std::span<const BabyBear>(evals).subspan(1), {}), Error);
  // Asking for the GPU without one is an error, not a silent CPU run.
  if (!cuda_usable()) EXPECT_THROW(prove(cfg, evals, {}, Backend::Cuda), Error);
}

// The defaults: Backend::Auto with the published crossover, like every other call. Whichever
// backend Auto takes (the GPU at 14 variables when one is usable), the proof is the CPU's; the CPU
// prover leaves a PhaseTimes alone and nothing falls back.
TEST(WhirProve, DefaultsAreAutoAndGiveTheCpuProof) {
  EXPECT_EQ(ProveOptions{}.backend, Backend::Auto);
  EXPECT_EQ(ProveOptions{}.gpu_crossover, WHIR_GPU_CROSSOVER_VARS);
  const unsigned n = WHIR_GPU_CROSSOVER_VARS;
  Rng rng(7);
  const auto [cfg, evals, claims] =
      random_instance(rng, make_params(n, FoldingFactor::constant(4), 1, Soundness::CapacityBound, 40, 8), 1);
  PhaseTimes times;
  std::string why;
  const std::vector<uint8_t> cpu = write_proof_file(
      cfg, claims,
      prove(cfg, evals, claims, ProveOptions{.backend = Backend::Cpu, .phase_times = &times, .gpu_fallback = &why}));
  EXPECT_TRUE(times.phases.empty());
  EXPECT_EQ(times.wall_ms, 0.0);
  EXPECT_TRUE(why.empty());
  EXPECT_EQ(write_proof_file(cfg, claims, prove(cfg, evals, claims)), cpu);
  EXPECT_EQ(write_proof_file(cfg, claims, prove(cfg, evals, claims, ProveOptions{.gpu_crossover = n + 1})), cpu);
}

// Every proof field mutated in turn is rejected.
TEST(WhirProve, MutatedProofFieldsAreRejected) {
  const ProtocolParameters p = make_params(11, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 40, 8);
  Rng rng(6);
  const auto [cfg, evals, claims] = random_instance(rng, p, 1);
  const Proof good = prove(cfg, evals, claims, Backend::Cpu);
  ASSERT_TRUE(verify(cfg, claims, good).accepted);
  ASSERT_GE(good.rounds.size(), 1u);
  const BabyBear one = BabyBear::one();
  const BabyBear4 e1 = BabyBear4::one();
  std::vector<std::function<void(Proof&)>> muts = {
      [&](Proof& q) { q.initial_commitment.e[3] += one; },
      [&](Proof& q) { q.initial_ood_answers[0] += e1; },
      [&](Proof& q) { q.initial_ood_answers.pop_back(); },
      [&](Proof& q) { q.initial_sumcheck.h0[1] += e1; },
      [&](Proof& q) { q.initial_sumcheck.h2[0] += e1; },
      [&](Proof& q) { q.initial_sumcheck.h0.pop_back(); },
      [&](Proof& q) { q.rounds[0].commitment.e[0] += one; },
      [&](Proof& q) { q.rounds[0].ood_answers[0] += e1; },
      [&](Proof& q) { q.rounds[0].queries[0].row[1] += one; },
      [&](Proof& q) { q.rounds[0].queries[0].siblings[0].e[0] += one; },
      [&](Proof& q) { q.rounds[0].queries.pop_back(); },
      [&](Proof& q) { q.rounds[0].queries.push_back(q.rounds[0].queries[0]); },
      [&](Proof& q) { q.rounds[0].sumcheck.h2[1] += e1; },
      [&](Proof& q) { q.rounds.pop_back(); },
      [&](Proof& q) { q.final_poly[0] += e1; },
      [&](Proof& q) { q.final_poly.pop_back(); },
      [&](Proof& q) { q.final_queries[0].row[0] += one; },
      [&](Proof& q) { q.final_queries.clear(); },
      [&](Proof& q) { q.final_sumcheck.h0[0] += e1; },
  };
  if (cfg.rounds[0].pow_bits > 0) muts.push_back([&](Proof& q) { q.rounds[0].pow_witness += one; });
  for (size_t i = 0; i < muts.size(); ++i) {
    Proof q = good;
    muts[i](q);
    EXPECT_FALSE(verify(cfg, claims, q).accepted) << "mutation " << i;
  }
}

// Whether two proofs differ only in PoW witnesses (the one way a corrupted file can stay valid).
bool differs_only_in_pow(const Proof& a, const Proof& b, const WhirConfig& cfg, std::span<const Claim> ca,
                         std::span<const Claim> cb) {
  Proof x = b;
  x.initial_sumcheck.pow_witnesses = a.initial_sumcheck.pow_witnesses;
  for (size_t i = 0; i < x.rounds.size() && i < a.rounds.size(); ++i) {
    x.rounds[i].pow_witness = a.rounds[i].pow_witness;
    x.rounds[i].sumcheck.pow_witnesses = a.rounds[i].sumcheck.pow_witnesses;
  }
  x.final_pow_witness = a.final_pow_witness;
  x.final_sumcheck.pow_witnesses = a.final_sumcheck.pow_witnesses;
  return write_proof_file(cfg, ca, a) == write_proof_file(cfg, cb, x);
}

void corrupt_every_byte(const ProtocolParameters& p, bool expect_no_pow, std::vector<uint8_t> flips) {
  const WhirConfig cfg = WhirConfig::derive(p);
  if (expect_no_pow) ASSERT_EQ(cfg.max_derived_pow_bits(), 0u);
  Rng rng(21);
  const std::vector<BabyBear> evals = rng.fes(size_t(1) << p.num_variables);
  const std::vector<Claim> claims = random_claims(rng, evals, p.num_variables, 1);
  const Proof proof = prove(cfg, evals, claims, Backend::Cpu);
  const std::vector<uint8_t> file = write_proof_file(cfg, claims, proof);
  std::cout << "corrupting each of " << file.size() << " bytes\n";
  size_t parse_rejects = 0, verify_rejects = 0, pow_accepts = 0, bad = 0;
  std::vector<std::string> failures;
  // Each corrupted file is independent: spread them over the cores.
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : parse_rejects, verify_rejects, pow_accepts, bad)
  for (size_t i = 0; i < file.size(); ++i)
    for (uint8_t x : flips) {
      std::vector<uint8_t> f = file;
      f[i] ^= x;
      ProofFile pf;
      try {
        pf = read_proof_file(f, cfg);
      } catch (const Error&) {
        ++parse_rejects;
        continue;
      }
      const WhirConfig c2 = WhirConfig::derive(pf.params);
      if (!verify(c2, pf.claims, pf.proof).accepted) {
        ++verify_rejects;
        continue;
      }
      if (!expect_no_pow && pf.params.num_variables == p.num_variables &&
          differs_only_in_pow(proof, pf.proof, cfg, claims, pf.claims)) {
        ++pow_accepts;
        continue;
      }
      ++bad;
#pragma omp critical
      failures.push_back("corrupting byte " + std::to_string(i) + " with ^" + std::to_string(int(x)) +
                         " gives another accepted proof");
    }
  for (const auto& msg : failures) ADD_FAILURE() << msg;
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(parse_rejects, 0u);
  EXPECT_GT(verify_rejects, 0u);
  // A witness is observed before later challenges, so even another valid witness almost always
  // changes the query indices; any accepted variant must differ only in a witness.
  if (expect_no_pow) EXPECT_EQ(pow_accepts, 0u);
  std::cout << "parse rejects " << parse_rejects << ", verify rejects " << verify_rejects
            << ", valid PoW-nonce variants " << pow_accepts << "\n";
  // Truncated and extended files are errors.
  for (size_t len = 0; len < file.size(); len += (len < 64 ? 1 : 97))
    EXPECT_THROW(read_proof_file(std::span<const uint8_t>(file.data(), len), cfg), Error) << len;
  EXPECT_THROW(read_proof_file(std::span<const uint8_t>(file.data(), file.size() - 1), cfg), Error);
  for (size_t extra = 1; extra <= 8; ++extra) {
    std::vector<uint8_t> f = file;
    f.resize(f.size() + extra, 0);
    EXPECT_THROW(read_proof_file(f, cfg), Error) << extra;
  }
}

TEST(WhirProofFile, EverySingleByteCorruptionIsRejectedWithoutPow) {
  // n = 9, fold 2: one round, a 32-value final polynomial; security 10 and no PoW budget keep
  // every PoW at 0 bits, so no byte of the file is unchecked.
  corrupt_every_byte(make_params(9, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 10, 0), true,
                     {0x01, 0x80, 0xff});
}

TEST(WhirProofFile, CorruptionsThatStayValidArePowNonces) {
  // 1-2-bit PoW phases: a corrupted witness is often another valid witness, so here an accepted
  // corruption is allowed, but only one that changes nothing but a witness.
  ProtocolParameters p = make_params(9, FoldingFactor::constant(2), 1, Soundness::UniqueDecoding, 10, 2);
  const WhirConfig cfg = WhirConfig::derive(p);
  ASSERT_GT(cfg.max_derived_pow_bits(), 0u);
  ASSERT_LE(cfg.max_derived_pow_bits(), 3u);
  corrupt_every_byte(p, false, {0x01});
}

TEST(WhirProofFile, ParserRejectsMalformedHeaders) {
  const ProtocolParameters params = make_params(7, FoldingFactor::constant(2), 2, Soundness::JohnsonBound, 30, 8);
  const WhirConfig cfg = WhirConfig::derive(params);
  const std::vector<uint8_t> file = round_trip(params, 3, 1);
  auto patched = [&](size_t off, uint32_t value) {
    std::vector<uint8_t> f = file;
    for (int b = 0; b < 4; ++b) f[off + b] = uint8_t(value >> (8 * b));
    return f;
  };
  auto expect_error = [](const std::function<void()>& parse, const std::string& what, const char* needle) {
    try {
      parse();
      ADD_FAILURE() << what << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << what << ": " << e.what();
    }
  };
  // The header alone (read_proof_header: what a file claims) and against the verifier's own
  // configuration (read_proof_file), which refuses every header field that differs from it.
  auto expect_header_error = [&](size_t off, uint32_t value, const char* needle) {
    const std::vector<uint8_t> f = patched(off, value);
    const std::string what = "offset " + std::to_string(off) + " value " + std::to_string(value);
    expect_error([&] { (void)read_proof_header(f); }, what + " (header)", needle);
    expect_error([&] { (void)read_proof_file(f, cfg); }, what, off < 12 ? needle : "");
  };
  expect_header_error(0, 0x12345678, "magic");
  expect_header_error(8, 2, "version");
  expect_header_error(12, 0, "invalid parameters");  // n = 0
  expect_header_error(12, 1u << 31, "invalid parameters");
  expect_header_error(16, 0xffffffffu, "invalid parameters");  // security
  expect_header_error(16, 8, "above the PoW budget");          // security = PoW budget: 0 queries
  expect_header_error(24, 3, "soundness");
  expect_header_error(28, 0, "invalid parameters");     // rate 0
  expect_header_error(28, 0xfffffffeu, "two-adicity");  // a rate that would wrap n + rate
  expect_header_error(36, 7, "folding kind");
  expect_header_error(44, 3, "constant folding");
  auto expect_body_error = [&](size_t off, uint32_t value, const char* needle) {
    const std::vector<uint8_t> f = patched(off, value);
    expect_error([&] { (void)read_proof_file(f, cfg); }, "offset " + std::to_string(off), needle);
  };
  expect_body_error(48, 0xffffffffu, "claim count");
  expect_body_error(48, 0, "no claim");
  expect_body_error(52, 0xffffffffu, "canonical");  // first claim coordinate
  // Valid headers of other configurations are refused against the verifier's, field by field.
  expect_body_error(16, 31, "security_level: the proof says 31, the verifier requires 30");
  expect_body_error(20, 9, "pow_bits");
  expect_body_error(24, 2, "soundness");
  expect_body_error(28, 3, "starting_log_inv_rate");
  expect_body_error(32, 1, "rs_reduction");
  EXPECT_EQ(header_mismatch(read_proof_header(file), cfg), std::nullopt);
  EXPECT_LE(file.size(), max_proof_file_size(cfg, 1));
}

}  // namespace
}  // namespace zkgpu::whir
