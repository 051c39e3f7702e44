// The WHIR verifier (spec §5), with every count checked against the configuration first
// (spec §8 pitfall 6): a malformed proof is rejected with a reason, never indexed past its end.
#include <string>

#include "whir/poly.hpp"
#include "whir/transcript.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

using poly::EF;

struct Reject {
  std::string reason;
};

void require(bool ok, const std::string& reason) {
  if (!ok) throw Reject{reason};
}

// One combined constraint: gamma^i for eq points first, then for select points.
struct Constraint {
  EF gamma;
  std::vector<std::vector<EF>> eq_points;
  std::vector<EF> select_points;
  unsigned num_variables;
};

void check_sumcheck_counts(const SumcheckData& d, unsigned rounds, unsigned pow_bits, const std::string& what) {
  require(d.h0.size() == rounds && d.h2.size() == rounds,
          what + ": " + std::to_string(d.h0.size()) + " round polynomials, expected " + std::to_string(rounds));
  const size_t want_pow = pow_bits > 0 ? rounds : 0;
  require(d.pow_witnesses.size() == want_pow, what + ": " + std::to_string(d.pow_witnesses.size()) +
                                                  " PoW witnesses, expected " + std::to_string(want_pow));
}

void verify_sumcheck(DuplexChallenger& ch, const SumcheckData& d, unsigned rounds, unsigned pow_bits, EF& claim,
                     std::vector<EF>& rand, const std::string& what) {
  check_sumcheck_counts(d, rounds, pow_bits, what);
  for (unsigned j = 0; j < rounds; ++j) {
    ch.observe(d.h0[j]);
    ch.observe(d.h2[j]);
    if (pow_bits > 0)
      require(ch.check_witness(pow_bits, d.pow_witnesses[j]),
              what + ": round " + std::to_string(j) + " PoW witness is invalid");
    const EF r = ch.sample_ext();
    claim = poly::interpolate_012(d.h0[j], claim - d.h0[j], d.h2[j], r);
    rand.push_back(r);
  }
}

// The Merkle paths of every round's openings. They do not feed the transcript, so they are
// checked together at the end (or at the first other rejection), as one batched, SIMD and
// multi-threaded hash over all rounds; the reason reported is still the one a check-as-you-go
// verifier would give, because a path registered earlier precedes any later rejection.
class DeferredMerkleChecks {
 public:
  void add(const MerkleCheck& c, const std::string& what, size_t j) {
    checks_.push_back(c);
    labels_.push_back({what, j});
  }
  void throw_first_failure() const {
    const std::vector<uint8_t> ok = merkle_verify_batch(checks_, detail::whir_poseidon2());
    for (size_t i = 0; i < ok.size(); ++i)
      require(ok[i], labels_[i].what + ": opening " + std::to_string(labels_[i].j) + " (index " +
                         std::to_string(checks_[i].index) + ") does not match the commitment");
  }

 private:
  struct Label {
    std::string what;  // the round, for the reason
    size_t j;          // the query's position in it
  };
  std::vector<MerkleCheck> checks_;  // handed to the batch as they are
  std::vector<Label> labels_;        // labels_[i] names checks_[i]
};

// Checks the shape of the openings of the previous tree at the sampled indices, queues their
// paths and returns the folded values.
std::vector<EF> check_openings(const std::vector<MerkleOpening>& openings, const std::vector<size_t>& idx,
                               const Digest& root, unsigned log_height, unsigned k, bool ext, std::span<const EF> rand,
                               const std::string& what, DeferredMerkleChecks& merkle) {
  require(openings.size() == idx.size(), what + ": " + std::to_string(openings.size()) + " query openings, expected " +
                                             std::to_string(idx.size()) + " (distinct sampled indices)");
  const size_t width = (size_t(1) << k) * (ext ? 4 : 1);
  std::vector<EF> ys;
  for (size_t j = 0; j < idx.size(); ++j) {
    const MerkleOpening& o = openings[j];
    require(o.row.size() == width && o.siblings.size() == log_height,
            what + ": opening " + std::to_string(j) + " has the wrong shape");
    merkle.add({&root, size_t(1) << log_height, width, idx[j], &o}, what, j);
    ys.push_back(detail::opened_fibre_value(o, ext, rand));
  }
  return ys;
}

void verify_transcript(const WhirConfig& cfg, std::span<const Claim> claims, const Proof& pf,
                       DeferredMerkleChecks& merkle) {
  const unsigned n = cfg.num_variables();
  const FoldingFactor& ff = cfg.params.folding;
  const unsigned k0 = ff.at_round(0);
  require(!claims.empty(), "the statement has no claim (a proof of no claim proves nothing)");
  for (size_t i = 0; i < claims.size(); ++i)
    require(claims[i].point.size() == n, "claim " + std::to_string(i) + " has " +
                                             std::to_string(claims[i].point.size()) + " coordinates, expected " +
                                             std::to_string(n));
  require(pf.initial_ood_answers.size() == cfg.commitment_ood_samples,
          "commitment: " + std::to_string(pf.initial_ood_answers.size()) + " OOD answers, expected " +
              std::to_string(cfg.commitment_ood_samples));
  require(pf.rounds.size() == cfg.n_rounds,
          std::to_string(pf.rounds.size()) + " rounds, expected " + std::to_string(cfg.n_rounds));
  require(pf.final_poly.size() == (size_t(1) << cfg.final_sumcheck_rounds),
          "final polynomial has " + std::to_string(pf.final_poly.size()) + " values, expected 2^" +
              std::to_string(cfg.final_sumcheck_rounds));

  DuplexChallenger ch = detail::start_transcript(cfg);
  ch.observe(pf.initial_commitment);
  std::vector<Constraint> cons;
  Constraint c0{EF::zero(), {}, {}, n};
  std::vector<EF> values;
  for (const Claim& c : claims) {
    c0.eq_points.push_back(c.point);
    values.push_back(c.value);
  }
  for (const EF& v : pf.initial_ood_answers) {
    const EF z = ch.sample_ext();
    ch.observe(v);
    c0.eq_points.push_back(poly::expand_from_univariate(z, n));
    values.push_back(v);
  }
  detail::absorb_claims(ch, claims);
  c0.gamma = ch.sample_ext();
  EF claim = EF::zero(), g = EF::one();
  for (const EF& v : values) {
    claim += g * v;
    g *= c0.gamma;
  }
  cons.push_back(std::move(c0));

  std::vector<EF> all_rand, rand;
  verify_sumcheck(ch, pf.initial_sumcheck, k0, cfg.starting_folding_pow_bits, claim, rand, "initial sumcheck");
  all_rand.insert(all_rand.end(), rand.begin(), rand.end());

  const Digest* prev_root = &pf.initial_commitment;  // points into pf: queued checks outlive the loop
  unsigned prev_log_height = cfg.max_fft_size;
  bool prev_ext = false;
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const RoundConfig& rc = cfg.rounds[i];
    const RoundProof& rp = pf.rounds[i];
    const std::string what = "round " + std::to_string(i);
    require(rp.ood_answers.size() == rc.ood_samples, what + ": " + std::to_string(rp.ood_answers.size()) +
                                                         " OOD answers, expected " + std::to_string(rc.ood_samples));
    ch.observe(rp.commitment);
    Constraint c{EF::zero(), {}, {}, rc.num_variables};
    values.clear();
    for (const EF& v : rp.ood_answers) {
      const EF z = ch.sample_ext();
      ch.observe(v);
      c.eq_points.push_back(poly::expand_from_univariate(z, rc.num_variables));
      values.push_back(v);
    }
    if (rc.pow_bits > 0) require(ch.check_witness(rc.pow_bits, rp.pow_witness), what + ": PoW witness is invalid");
    (void)ch.sample();  // TranscriptCheckpoint
    const std::vector<size_t> idx =
        detail::stir_query_indices(ch, rc.log_domain_size, rc.folding_factor, rc.num_queries);
    require(rc.log_domain_size - rc.folding_factor == prev_log_height, what + ": tree height mismatch (zkgpu bug)");
    std::vector<EF> ys =
        check_openings(rp.queries, idx, *prev_root, prev_log_height, rc.folding_factor, prev_ext, rand, what, merkle);
    for (size_t j = 0; j < idx.size(); ++j) {
      c.select_points.push_back(EF::from_base(rc.folded_domain_gen.pow(idx[j])));
      values.push_back(ys[j]);
    }
    c.gamma = ch.sample_ext();
    g = EF::one();
    for (const EF& v : values) {
      claim += g * v;
      g *= c.gamma;
    }
    cons.push_back(std::move(c));
    rand.clear();
    verify_sumcheck(ch, rp.sumcheck, ff.at_round(i + 1), rc.folding_pow_bits, claim, rand, what + " sumcheck");
    all_rand.insert(all_rand.end(), rand.begin(), rand.end());
    prev_root = &rp.commitment;
    prev_log_height = cfg.log_tree_height(i);
    prev_ext = true;
  }

  const FinalConfig& fc = cfg.final_round;
  for (const EF& v : pf.final_poly) ch.observe(v);
  if (fc.pow_bits > 0) require(ch.check_witness(fc.pow_bits, pf.final_pow_witness), "final PoW witness is invalid");
  const std::vector<size_t> idx = detail::stir_query_indices(ch, fc.log_domain_size, fc.folding_factor, fc.num_queries);
  require(fc.log_domain_size - fc.folding_factor == prev_log_height, "final: tree height mismatch (zkgpu bug)");
  std::vector<EF> ys = check_openings(pf.final_queries, idx, *prev_root, prev_log_height, fc.folding_factor, prev_ext,
                                      rand, "final", merkle);
  for (size_t j = 0; j < idx.size(); ++j)
    require(poly::horner(pf.final_poly, EF::from_base(fc.folded_domain_gen.pow(idx[j]))) == ys[j],
            "final: query " + std::to_string(j) + " (index " + std::to_string(idx[j]) +
                ") disagrees with the final polynomial");
  rand.clear();
  verify_sumcheck(ch, pf.final_sumcheck, cfg.final_sumcheck_rounds, fc.folding_pow_bits, claim, rand, "final sumcheck");
  all_rand.insert(all_rand.end(), rand.begin(), rand.end());
  require(all_rand.size() == n, "internal: " + std::to_string(all_rand.size()) + " challenges for " +
                                    std::to_string(n) + " variables (zkgpu bug)");

  EF w = EF::zero();
  for (const Constraint& c : cons) {
    std::span<const EF> rt = std::span<const EF>(all_rand).subspan(n - c.num_variables);
    EF gp = EF::one();
    for (const auto& p : c.eq_points) {
      w += gp * poly::eq_eval(p, rt);
      gp *= c.gamma;
    }
    for (const EF& z : c.select_points) {
      w += gp * poly::select_eval(z, rt);
      gp *= c.gamma;
    }
  }
  const EF f_final = poly::evaluate(std::span<const EF>(pf.final_poly), rand);
  require(claim == w * f_final,
          "the final sumcheck claim does not match the constraints' weights times the final "
          "polynomial (a claimed evaluation is false or the proof is corrupt)");
}

void verify_or_throw(const WhirConfig& cfg, std::span<const Claim> claims, const Proof& pf) {
  DeferredMerkleChecks merkle;
  try {
    verify_transcript(cfg, claims, pf, merkle);
  } catch (const Reject&) {
    merkle.throw_first_failure();  // an earlier bad path is the first reason
    throw;
  }
  merkle.throw_first_failure();
}

}  // namespace

VerifyResult verify(const WhirConfig& cfg, std::span<const Claim> claims, const Proof& proof) {
  try {
    verify_or_throw(cfg, claims, proof);
    return {true, {}};
  } catch (const Reject& r) {
    return {false, r.reason};
  } catch (const Error& e) {
    return {false, e.what()};
  }
}

}  // namespace zkgpu::whir
