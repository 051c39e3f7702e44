#include "whir/params.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/names.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::whir {

namespace {
// The short names are the CLI's and the proof header's; the long ones the WHIR paper's.
constexpr EnumName<Soundness> SOUNDNESS_NAMES[] = {{Soundness::UniqueDecoding, "ud", "UniqueDecoding"},
                                                   {Soundness::JohnsonBound, "jb", "JohnsonBound"},
                                                   {Soundness::CapacityBound, "cb", "CapacityBound"}};
}  // namespace

const char* to_string(Soundness s) { return name_of(SOUNDNESS_NAMES, s); }
const char* long_name(Soundness s) { return alias_of(SOUNDNESS_NAMES, s); }
std::optional<Soundness> parse_soundness(std::string_view s) { return parse_name(SOUNDNESS_NAMES, s); }

namespace formulas {

double log_eta(Soundness s, unsigned r) {
  switch (s) {
    case Soundness::UniqueDecoding: return 0.0;
    case Soundness::JohnsonBound: return -(0.5 * r + LOG2_10 + 1.0);     // eta = sqrt(rho)/20
    case Soundness::CapacityBound: return -(double(r) + LOG2_10 + 1.0);  // eta = rho/20
  }
  return 0.0;
}

double list_size_bits(Soundness s, unsigned d, unsigned r) {
  switch (s) {
    case Soundness::UniqueDecoding: return 0.0;
    case Soundness::JohnsonBound: return double(r) / 2.0 - (1.0 + log_eta(s, r));
    case Soundness::CapacityBound: return double(d + r) - log_eta(s, r);
  }
  return 0.0;
}

double prox_gaps_error(Soundness s, unsigned d, unsigned r, unsigned fb, unsigned nf) {
  double err = 0.0;
  switch (s) {
    case Soundness::UniqueDecoding: err = double(d + r); break;
    case Soundness::JohnsonBound:  // BCSS25 Theorem 1.5, dominant term
      err = double(d + r) + std::log2(2.0 * std::pow(10.5, 5.0) / 3.0) + 1.5 * double(r);
      break;
    case Soundness::CapacityBound: err = double(d + 2 * r) - log_eta(s, r); break;
  }
  return double(fb) - (err + std::log2(double(nf) - 1.0));
}

double log_1_delta(Soundness s, unsigned r) {
  const double rate = std::ldexp(1.0, -int(r));  // r < 64 is not guaranteed by every caller
  double delta = 0.0;
  switch (s) {
    case Soundness::UniqueDecoding: delta = 0.5 * (1.0 - rate); break;
    case Soundness::JohnsonBound: delta = 1.0 - std::sqrt(rate) - std::pow(2.0, log_eta(s, r)); break;
    case Soundness::CapacityBound: delta = 1.0 - rate - std::pow(2.0, log_eta(s, r)); break;
  }
  return std::log2(1.0 - delta);
}

size_t queries(Soundness s, unsigned lambda, unsigned r) {
  const double q = std::ceil(-double(lambda) / log_1_delta(s, r));
  return q > 0.0 ? static_cast<size_t>(q) : 0;  // Rust `as usize` saturates at 0
}

double queries_error(Soundness s, unsigned r, size_t t) { return -double(t) * log_1_delta(s, r); }

double ood_error(Soundness s, unsigned d, unsigned r, unsigned fb, size_t ood) {
  const double error = 2.0 * list_size_bits(s, d, r) + double(size_t(d) * ood);
  return double(ood * fb) + 1.0 - error;
}

size_t ood_samples(Soundness s, unsigned lambda, unsigned d, unsigned r, unsigned fb) {
  if (s == Soundness::UniqueDecoding) return 0;
  for (size_t k = 1; k < 64; ++k)
    if (ood_error(s, d, r, fb, k) >= double(lambda)) return k;
  throw_invalid("WHIR parameters: no number of OOD samples in 1..63 reaches security " + std::to_string(lambda) +
                " bits at " + std::to_string(d) + " variables and rate 2^-" + std::to_string(r) + "; lower --security");
}

double fold_sumcheck_error(Soundness s, unsigned d, unsigned r, unsigned fb) {
  return double(fb) - (list_size_bits(s, d, r) + 1.0);
}

double folding_pow_bits(Soundness s, unsigned lambda, unsigned d, unsigned r, unsigned fb) {
  const double e = std::min(prox_gaps_error(s, d, r, fb, 2), fold_sumcheck_error(s, d, r, fb));
  return std::max(0.0, double(lambda) - e);
}

double queries_combination_error(Soundness s, unsigned d, unsigned r, size_t ood, size_t t, unsigned fb) {
  const double log_combination = std::log2(double(ood + t));
  return double(fb) - (log_combination + list_size_bits(s, d, r) + 1.0);
}

}  // namespace formulas

namespace {

// Rust `x as usize` for the non-negative values the derivation floors.
unsigned floor_bits(double x) { return x > 0.0 ? static_cast<unsigned>(std::floor(x)) : 0u; }

std::string fold_name(const FoldingFactor& f) {
  return f.from_second_round
             ? "ConstantFromSecondRound(" + std::to_string(f.first) + ", " + std::to_string(f.rest) + ")"
             : "Constant(" + std::to_string(f.first) + ")";
}

void check_pow(unsigned bits, const std::string& phase) {
  if (bits > MAX_POW_BITS)
    throw_invalid("WHIR parameters: the " + phase + " needs a " + std::to_string(bits) +
                  "-bit proof of work, above the 30-bit limit of sample_bits over BabyBear; raise --rate or "
                  "--pow-budget, lower --fold or --security, or use another --soundness");
}

}  // namespace

WhirConfig WhirConfig::derive(const ProtocolParameters& p) {
  namespace f = formulas;
  const unsigned n = p.num_variables, r0 = p.starting_log_inv_rate, lambda = p.security_level;
  const FoldingFactor& ff = p.folding;
  const unsigned k0 = ff.first;
  const Soundness s = p.soundness;
  const unsigned fb = FIELD_SIZE_BITS;

  if (n == 0 || n > MAX_NUM_VARIABLES)
    throw_invalid("WHIR parameters: --vars " + std::to_string(n) + " must be in 1.." +
                  std::to_string(MAX_NUM_VARIABLES));
  if (lambda > MAX_SECURITY_LEVEL)
    throw_invalid("WHIR parameters: --security " + std::to_string(lambda) + " must be at most " +
                  std::to_string(MAX_SECURITY_LEVEL));
  if (p.pow_bits > MAX_SECURITY_LEVEL)
    throw_invalid("WHIR parameters: --pow-budget " + std::to_string(p.pow_bits) + " must be at most " +
                  std::to_string(MAX_SECURITY_LEVEL));
  // The PoW bits are subtracted from the security the queries must reach (lambda_q = lambda -
  // pow_bits): at or above lambda no query would be asked and no commitment opened, so any
  // polynomial, true or not, would pass.
  if (lambda <= p.pow_bits)
    throw_invalid("WHIR parameters: --security " + std::to_string(lambda) + " must be above the PoW budget " +
                  std::to_string(p.pow_bits) + " (the queries are credited lambda - PoW bits; at 0 no query is " +
                  "asked and nothing is checked); raise --security or lower --pow-budget");
  if (s != Soundness::UniqueDecoding && s != Soundness::JohnsonBound && s != Soundness::CapacityBound)
    throw_invalid("WHIR parameters: unknown soundness id " + std::to_string(static_cast<uint32_t>(s)));
  if (r0 == 0)
    throw_invalid("WHIR parameters: --rate 0 (rate 1) gives a code with no distance and 0 queries; use --rate >= 1");
  // Bounded before any sum below, so none of them can wrap.
  if (r0 > BabyBear::TWO_ADICITY)
    throw_invalid("WHIR parameters: --rate " + std::to_string(r0) + " exceeds BabyBear two-adicity 27");
  if (k0 == 0 || ff.rest == 0)
    throw_invalid("WHIR parameters: folding factor " + fold_name(ff) + " must fold at least 1 variable per round");
  if (k0 > n || ff.rest > n)
    throw_invalid("WHIR parameters: folding factor " + fold_name(ff) + " folds more than the " + std::to_string(n) +
                  " variables of the polynomial; lower --fold / --fold-first or raise --vars");
  if (!ff.from_second_round && ff.rest != k0)
    throw_invalid("WHIR parameters: a constant folding factor must be the same in every round");
  if (n + r0 > k0 + BabyBear::TWO_ADICITY)
    throw_invalid("WHIR parameters: n + rate - fold = " + std::to_string(n + r0 - k0) +
                  " exceeds BabyBear two-adicity 27 (the first committed domain); raise --fold or lower --rate");
  const unsigned red = p.rs_reduction.value_or(std::min(k0, 3u));
  if (red > k0)
    throw_invalid("WHIR parameters: --rs-reduction " + std::to_string(red) + " exceeds the first folding factor " +
                  std::to_string(k0));

  WhirConfig c;
  c.params = p;
  c.params.rs_reduction = red;
  c.rs_reduction = red;

  // FoldingFactor::compute_number_of_rounds
  long final_rounds = 0;
  if (!ff.from_second_round) {
    if (n <= MAX_VARS_TO_SEND) {
      c.n_rounds = 0;
      final_rounds = long(n) - long(k0);
    } else {
      const long R = (long(n) - long(MAX_VARS_TO_SEND) + long(k0) - 1) / long(k0);
      c.n_rounds = size_t(R - 1);
      final_rounds = long(n) - R * long(k0);
    }
  } else {
    const long np = long(n) - long(k0);
    if (np < long(MAX_VARS_TO_SEND)) {
      c.n_rounds = 0;
      final_rounds = np;
    } else {
      const long R = (np - long(MAX_VARS_TO_SEND) + long(ff.rest) - 1) / long(ff.rest);
      c.n_rounds = size_t(R);
      final_rounds = np - R * long(ff.rest);
    }
  }
  // Without rounds the reduction is never applied nor absorbed: pin it to its default so that a
  // configuration has exactly one encoding (the proof parser rejects any other value).
  if (c.n_rounds == 0) c.params.rs_reduction = c.rs_reduction = std::min(k0, 3u);
  if (final_rounds < 0)
    throw_invalid("WHIR parameters: folding factor " + fold_name(ff) + " overshoots " + std::to_string(n) +
                  " variables (the last round would fold " + std::to_string(-final_rounds) +
                  " variables too many); pick a folding factor that leaves 0..6 variables for the final polynomial");
  c.final_sumcheck_rounds = unsigned(final_rounds);

  const unsigned lambda_q = lambda > p.pow_bits ? lambda - p.pow_bits : 0;
  c.commitment_ood_samples = f::ood_samples(s, lambda, n, r0, fb);
  c.starting_folding_pow_bits = floor_bits(f::folding_pow_bits(s, lambda, n, r0, fb));
  check_pow(c.starting_folding_pow_bits, "initial sumcheck (starting folding PoW)");

  unsigned r = r0, log_domain = n + r0;
  long m = long(n) - long(k0);
  for (size_t i = 0; i < c.n_rounds; ++i) {
    const unsigned red_i = i == 0 ? red : 1;
    const unsigned ki = ff.at_round(i);
    const unsigned rp = r + ki - red_i;
    RoundConfig rc;
    rc.log_domain_size = log_domain;
    rc.folding_factor = ki;
    rc.num_variables = unsigned(m);
    rc.domain_reduction = red_i;
    rc.num_queries = f::queries(s, lambda_q, r);
    rc.ood_samples = f::ood_samples(s, lambda, unsigned(m), rp, fb);
    const double qe = f::queries_error(s, r, rc.num_queries);
    const double qce = f::queries_combination_error(s, unsigned(m), rp, rc.ood_samples, rc.num_queries, fb);
    rc.pow_bits = floor_bits(std::max(0.0, double(lambda) - std::min(qe, qce)));
    rc.folding_pow_bits = floor_bits(f::folding_pow_bits(s, lambda, unsigned(m), rp, fb));
    if (log_domain - ki > BabyBear::TWO_ADICITY)
      throw_invalid("WHIR parameters: round " + std::to_string(i) + "'s folded domain 2^" +
                    std::to_string(log_domain - ki) + " exceeds BabyBear two-adicity 27; raise --fold");
    rc.folded_domain_gen = BabyBear::two_adic_generator(log_domain - ki);
    check_pow(rc.pow_bits, "query phase of round " + std::to_string(i));
    check_pow(rc.folding_pow_bits, "sumcheck after round " + std::to_string(i));
    c.rounds.push_back(rc);
    m -= long(ff.at_round(i + 1));
    r = rp;
    log_domain -= red_i;
  }

  FinalConfig& fc = c.final_round;
  fc.log_domain_size = log_domain;
  fc.folding_factor = ff.at_round(c.n_rounds);
  fc.num_queries = f::queries(s, lambda_q, r);
  fc.pow_bits = floor_bits(std::max(0.0, double(lambda) - f::queries_error(s, r, fc.num_queries)));
  fc.folding_pow_bits = floor_bits(std::max(0.0, double(lambda) - (double(fb) - 1.0)));
  fc.sumcheck_rounds = c.final_sumcheck_rounds;
  if (log_domain < fc.folding_factor || log_domain - fc.folding_factor > BabyBear::TWO_ADICITY)
    throw_invalid("WHIR parameters: the final folded domain is outside 2^0..2^27; change --fold");
  fc.folded_domain_gen = BabyBear::two_adic_generator(log_domain - fc.folding_factor);
  check_pow(fc.pow_bits, "final query phase");
  check_pow(fc.folding_pow_bits, "final sumcheck");
  c.max_fft_size = n + r0 - k0;
  // lambda_q >= 1 gives every phase at least one query; kept as a check so that no formula change
  // can bring back a phase that opens nothing.
  for (size_t i = 0; i < c.n_rounds; ++i)
    if (c.rounds[i].num_queries == 0)
      throw_invalid("WHIR parameters: round " + std::to_string(i) + " would ask 0 queries; raise --security");
  if (fc.num_queries == 0) throw_invalid("WHIR parameters: the final round would ask 0 queries; raise --security");
  for (size_t i = 0; i < c.n_rounds; ++i)
    if (c.log_tree_height(i) > BabyBear::TWO_ADICITY)
      throw_invalid("WHIR parameters: round " + std::to_string(i) + " commits a domain of 2^" +
                    std::to_string(c.log_tree_height(i)) + " rows, beyond two-adicity 27; raise --fold");

  if (p.enforce_pow_budget) {
    auto v = c.pow_budget_violations();
    if (!v.empty()) {
      std::string msg = "WHIR parameters: the derived proof of work exceeds the budget of " +
                        std::to_string(p.pow_bits) + " bits (--enforce-pow-budget):";
      for (auto& line : v) msg += "\n  " + line;
      throw_invalid(msg + "\nraise --pow-budget or --rate, or lower --security");
    }
  }
  return c;
}

unsigned WhirConfig::max_derived_pow_bits() const {
  unsigned m = std::max({starting_folding_pow_bits, final_round.pow_bits, final_round.folding_pow_bits});
  for (auto& r : rounds) m = std::max({m, r.pow_bits, r.folding_pow_bits});
  return m;
}

std::vector<std::string> WhirConfig::pow_budget_violations() const {
  std::vector<std::string> v;
  const unsigned b = params.pow_bits;
  auto add = [&](unsigned bits, const std::string& what) {
    if (bits > b) v.push_back(what + ": " + std::to_string(bits) + " bits");
  };
  add(starting_folding_pow_bits, "starting folding PoW");
  for (size_t i = 0; i < rounds.size(); ++i) {
    add(rounds[i].pow_bits, "round " + std::to_string(i) + " query PoW");
    add(rounds[i].folding_pow_bits, "round " + std::to_string(i) + " folding PoW");
  }
  add(final_round.pow_bits, "final query PoW");
  add(final_round.folding_pow_bits, "final folding PoW");
  return v;
}

unsigned WhirConfig::log_tree_height(size_t i) const {
  // Round i commits its table of m_i variables over the next round's domain, folded by k_{i+1}.
  const unsigned next_domain = rounds[i].log_domain_size - rounds[i].domain_reduction;
  return next_domain - params.folding.at_round(i + 1);
}

}  // namespace zkgpu::whir
