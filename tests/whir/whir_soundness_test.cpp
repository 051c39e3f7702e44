// The verifier decides the statement: configurations that would check nothing are refused, and a
// prover that commits to one polynomial and proves evaluations of another is caught at every
// security level derive() accepts.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "support/test_support.hpp"
#include "whir/prover_backend.hpp"
#include "whir/whir_test_support.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

using test::make_params;
using test::Rng;

// A dishonest prover: the first commitment it reports is the Merkle root of f's codeword, but
// every later answer (OOD values, sumcheck rounds, openings, the folded tables) comes from g.
class CommitFProveG : public detail::ProverBackend {
 public:
  CommitFProveG(std::span<const BabyBear> g, const Digest& f_root) : g_(detail::make_cpu_backend(g)), f_root_(f_root) {}
  Digest commit(unsigned k, unsigned log_height) override {
    const Digest d = g_->commit(k, log_height);
    return commits_++ == 0 ? f_root_ : d;
  }
  std::vector<MerkleOpening> open(size_t tree, std::span<const size_t> idx) override { return g_->open(tree, idx); }
  std::pair<EF, EF> sumcheck_coeffs() override { return g_->sumcheck_coeffs(); }
  void bind(const EF& r) override { g_->bind(r); }
  void add_weights(std::span<const std::vector<EF>> eq_points, std::span<const EF> eq_scales,
                   std::span<const BabyBear> zs, std::span<const EF> select_scales) override {
    g_->add_weights(eq_points, eq_scales, zs, select_scales);
  }
  EF evaluate(std::span<const EF> point) override { return g_->evaluate(point); }
  std::vector<EF> table() override { return g_->table(); }
  std::vector<EF> weights() override { return g_->weights(); }
  std::optional<uint32_t> grind(const PowInput& in) override { return g_->grind(in); }

 private:
  std::unique_ptr<detail::ProverBackend> g_;
  Digest f_root_;
  size_t commits_ = 0;
};

struct Forgery {
  Digest honest_root;         // of f, from an honest prover
  std::vector<Claim> claims;  // g's values at the points, which f does not take
  Proof proof;
};

Forgery forge(const WhirConfig& cfg, uint64_t seed) {
  const unsigned n = cfg.num_variables();
  Rng rng(seed);
  const std::vector<BabyBear> f = rng.fes(size_t(1) << n), g = rng.fes(size_t(1) << n);
  Forgery out;
  out.claims = test::random_claims(rng, g, n, 1);
  EXPECT_NE(out.claims[0].value, evaluate_multilinear(f, out.claims[0].point));
  out.honest_root = detail::make_cpu_backend(f)->commit(cfg.params.folding.at_round(0), cfg.max_fft_size);
  CommitFProveG dishonest(g, out.honest_root);
  out.proof = detail::prove_with_backend(cfg, dishonest, out.claims);
  return out;
}

TEST(WhirSoundness, ConfigurationsThatCheckNothingAreRefused) {
  for (Soundness s : {Soundness::UniqueDecoding, Soundness::JohnsonBound, Soundness::CapacityBound})
    for (unsigned lambda : {0u, 1u, 8u, 15u, 16u}) {
      const ProtocolParameters p = make_params(10, FoldingFactor::constant(2), 1, s, lambda, 16);
      EXPECT_THROW((void)WhirConfig::derive(p), Error) << "security " << lambda << " with a 16-bit PoW budget";
    }
  // One bit above the budget is the weakest configuration accepted: every phase asks a query.
  const WhirConfig c =
      WhirConfig::derive(make_params(10, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 17, 16));
  for (const RoundConfig& r : c.rounds) EXPECT_GE(r.num_queries, 1u);
  EXPECT_GE(c.final_round.num_queries, 1u);
}

TEST(WhirSoundness, SizesThatWouldWrapAreRefused) {
  for (unsigned rate : {28u, 64u, 0xfffffffeu, 0xffffffffu})
    EXPECT_THROW((void)WhirConfig::derive(make_params(10, FoldingFactor::constant(2), rate, Soundness::JohnsonBound)),
                 Error)
        << rate;
  EXPECT_THROW(
      (void)WhirConfig::derive(make_params(10, FoldingFactor::constant(0xffffffffu), 1, Soundness::JohnsonBound)),
      Error);
  EXPECT_THROW((void)WhirConfig::derive(make_params(10, FoldingFactor::constant_from_second_round(2, 0xfffffff0u), 1,
                                                    Soundness::JohnsonBound)),
               Error);
}

// The attack is real: with its queries removed (what derive() gave for security <= PoW budget),
// the same forgery is accepted, so the tests below would see the bug if it came back.
TEST(WhirSoundness, ForgeryPassesWhenNothingIsQueried) {
  WhirConfig cfg = WhirConfig::derive(make_params(10, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 17, 16));
  for (RoundConfig& r : cfg.rounds) r.num_queries = 0;
  cfg.final_round.num_queries = 0;
  const Forgery fg = forge(cfg, 5);
  EXPECT_EQ(fg.proof.initial_commitment, fg.honest_root);
  EXPECT_TRUE(verify(cfg, fg.claims, fg.proof).accepted);
}

TEST(WhirSoundness, CommitToFProveGIsRejectedAtEveryAcceptedSecurityLevel) {
  struct Shape {
    unsigned n;
    FoldingFactor fold;
    unsigned rate;
  };
  const Shape shapes[] = {{10, FoldingFactor::constant(2), 1},  // two rounds and a final round
                          {8, FoldingFactor::constant(4), 2},   // no round: the final queries alone
                          {11, FoldingFactor::constant_from_second_round(3, 2), 1}};
  size_t checked = 0;
  for (const Shape& sh : shapes)
    for (Soundness s : {Soundness::UniqueDecoding, Soundness::JohnsonBound, Soundness::CapacityBound})
      for (unsigned lambda = 17; lambda <= 128; lambda += lambda < 40 ? 1 : 11) {
        WhirConfig cfg;
        try {
          cfg = WhirConfig::derive(make_params(sh.n, sh.fold, sh.rate, s, lambda, 16));
        } catch (const Error&) {
          continue;  // not an accepted level for this shape (e.g. PoW above 30 bits)
        }
        const Forgery fg = forge(cfg, lambda * 7 + sh.n);
        ASSERT_EQ(fg.proof.initial_commitment, fg.honest_root);
        const VerifyResult r = verify(cfg, fg.claims, fg.proof);
        EXPECT_FALSE(r.accepted) << "n " << sh.n << ", " << long_name(s) << ", security " << lambda;
        // It also fails as a file: the file parses against the verifier's own configuration.
        const std::vector<uint8_t> file = write_proof_file(cfg, fg.claims, fg.proof);
        const ProofFile pf = read_proof_file(file, cfg);
        EXPECT_FALSE(verify(cfg, pf.claims, pf.proof).accepted);
        ++checked;
      }
  EXPECT_GT(checked, 100u);
}

// A proof made under weaker parameters does not pass as one of the verifier's: the header must
// repeat the verifier's configuration, which the verifier, not the prover, chooses.
TEST(WhirSoundness, ProofUnderOtherParametersIsRefused) {
  const ProtocolParameters weak = make_params(10, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 20, 16);
  const ProtocolParameters strong = make_params(10, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 100, 16);
  const WhirConfig cw = WhirConfig::derive(weak), cs = WhirConfig::derive(strong);
  Rng rng(9);
  const std::vector<BabyBear> f = rng.fes(1 << 10);
  const std::vector<Claim> claims = test::random_claims(rng, f, 10, 1);
  const std::vector<uint8_t> file = write_proof_file(cw, claims, prove(cw, f, claims, Backend::Cpu));
  EXPECT_NO_THROW((void)read_proof_file(file, cw));
  try {
    (void)read_proof_file(file, cs);
    ADD_FAILURE() << "a security-20 proof parsed as a security-100 one";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("security_level: the proof says 20, the verifier requires 100"),
              std::string::npos)
        << e.what();
  }
  // Even with the header rewritten to the strong parameters the weak proof fails the strong check.
  std::vector<uint8_t> relabelled = file;
  relabelled[16] = 100;
  EXPECT_THROW(
      {
        const ProofFile pf = read_proof_file(relabelled, cs);
        if (!verify(cs, pf.claims, pf.proof).accepted) throw Error(ErrorCode::InvalidArgument, "rejected");
      },
      Error);
}

TEST(WhirSoundness, NoClaimIsNoStatement) {
  const WhirConfig cfg =
      WhirConfig::derive(make_params(8, FoldingFactor::constant(2), 1, Soundness::JohnsonBound, 30, 8));
  Rng rng(3);
  const std::vector<BabyBear> f = rng.fes(1 << 8);
  EXPECT_THROW((void)prove(cfg, f, {}), Error);
  const std::vector<Claim> claims = test::random_claims(rng, f, 8, 1);
  const Proof proof = prove(cfg, f, claims, Backend::Cpu);
  EXPECT_TRUE(verify(cfg, claims, proof).accepted);
  EXPECT_FALSE(verify(cfg, {}, proof).accepted);
  EXPECT_THROW((void)write_proof_file(cfg, {}, proof), Error);
}

}  // namespace
}  // namespace zkgpu::whir
