// `zkgpu whir params | prove | verify | bench`: the WHIR polynomial commitment (include/zkgpu/whir.hpp).
#include <nlohmann/json.hpp>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "timing.hpp"
#include "zkgpu/profile.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::cli {
namespace {

using whir::ProtocolParameters;
using whir::WhirConfig;

const Names<whir::Soundness>& soundness_names() {
  static const Names<whir::Soundness> names = {{"ud", whir::Soundness::UniqueDecoding},
                                               {"jb", whir::Soundness::JohnsonBound},
                                               {"cb", whir::Soundness::CapacityBound}};
  return names;
}

struct ParamOptions {
  unsigned vars = 0, fold = 4, rate = 1, security = 100, pow_budget = 16;
  int fold_first = -1, rs_reduction = -1;  // -1: not given
  whir::Soundness soundness = whir::Soundness::UniqueDecoding;
  bool enforce = false;
};

void add_param_flags(CLI::App* cmd, ParamOptions& o) {
  cmd->add_option("--vars", o.vars, "Number of variables n (the polynomial has 2^n evaluations)")
      ->required()
      ->default_str("");
  cmd->add_option("--fold", o.fold, "Folding factor k (variables folded per round)");
  cmd->add_option("--fold-first", o.fold_first, "Fold this many variables in the first round (default --fold)")
      ->check(CLI::Range(1, int(whir::MAX_NUM_VARIABLES)))
      ->default_str("");
  cmd->add_option("--rate", o.rate, "Starting log2 inverse rate r0 (rate 2^-r0)");
  add_choice(cmd, "--soundness", o.soundness, soundness_names(),
             "ud (unique decoding), jb (Johnson bound) or cb (capacity bound)");
  cmd->add_option("--security", o.security, "Security level in bits");
  cmd->add_option("--pow-budget", o.pow_budget, "Proof-of-work bits credited to the query phases");
  cmd->add_flag("--enforce-pow-budget", o.enforce, "Reject configurations whose derived PoW exceeds the budget");
  cmd->add_option("--rs-reduction", o.rs_reduction, "First-round domain reduction (default min(first fold, 3))")
      ->check(CLI::Range(0, int(whir::MAX_NUM_VARIABLES)))
      ->default_str("");
}

struct ParamsOptions {
  ParamOptions params;
  bool json = false;
};

struct ProveOptions {
  ParamOptions params;
  Backend backend = Backend::Auto;
  std::string poly, points, out = "proof.bin", claims_out;
  uint64_t random_seed = 1, point_seed = 1;
  unsigned num_points = 1;
  bool profile = false;
};

// `prove --profile`: the GPU prover's stages, summed by name in the order they first ran.
void print_profile(const PhaseTimes& t) {
  if (t.phases.empty()) {
    std::cout << "profile: none (the CPU prover ran; stage times come from the GPU prover)\n";
    return;
  }
  std::string line = "profile (device ms on the prover's stream, calls):";
  char buf[160];
  double between = 0;
  for (const PhaseSum& e : sum_phases_by_name(t)) {
    if (e.name == "host") {
      between = e.ms;
      continue;
    }
    std::snprintf(buf, sizeof buf, " %s %.3f (%zu);", e.name.c_str(), e.ms, e.calls);
    line += buf;
  }
  std::snprintf(buf, sizeof buf, " between stages (transcript, CPU PoW, fibre folds) %.3f; wall %.3f\n", between,
                t.wall_ms);
  std::cout << line << buf;
}

ProtocolParameters to_params(const ParamOptions& o) {
  ProtocolParameters p;
  p.num_variables = o.vars;
  p.security_level = o.security;
  p.pow_bits = o.pow_budget;
  p.folding = o.fold_first >= 0 ? whir::FoldingFactor::constant_from_second_round(unsigned(o.fold_first), o.fold)
                                : whir::FoldingFactor::constant(o.fold);
  p.soundness = o.soundness;
  p.starting_log_inv_rate = o.rate;
  if (o.rs_reduction >= 0) p.rs_reduction = unsigned(o.rs_reduction);
  p.enforce_pow_budget = o.enforce;
  return p;
}

void warn_config(const WhirConfig& c) {
  if (c.params.soundness == whir::Soundness::CapacityBound)
    std::cerr << "warning: CapacityBound rests on a conjecture that was refuted (Crites-Stewart, eprint 2025/2046); "
                 "use --soundness ud or jb for provable security\n";
  for (const std::string& v : c.pow_budget_violations())
    std::cerr << "warning: PoW above the " << c.params.pow_bits << "-bit budget: " << v << "\n";
}

nlohmann::json config_json(const WhirConfig& c) {
  nlohmann::json j;
  j["num_variables"] = c.num_variables();
  j["security_level"] = c.params.security_level;
  j["soundness"] = whir::long_name(c.params.soundness);
  j["pow_budget"] = c.params.pow_bits;
  j["starting_log_inv_rate"] = c.params.starting_log_inv_rate;
  j["rs_reduction"] = c.rs_reduction;
  j["commitment_ood_samples"] = c.commitment_ood_samples;
  j["starting_folding_pow_bits"] = c.starting_folding_pow_bits;
  j["initial_folding_factor"] = c.params.folding.at_round(0);
  j["rounds"] = nlohmann::json::array();
  for (const auto& r : c.rounds)
    j["rounds"].push_back({{"folding_factor", r.folding_factor},
                           {"domain_size", r.domain_size()},
                           {"num_queries", r.num_queries},
                           {"ood_samples", r.ood_samples},
                           {"pow_bits", r.pow_bits},
                           {"folding_pow_bits", r.folding_pow_bits},
                           {"num_variables", r.num_variables}});
  const auto& f = c.final_round;
  j["final"] = {{"folding_factor", f.folding_factor},     {"domain_size", f.domain_size()},
                {"num_queries", f.num_queries},           {"pow_bits", f.pow_bits},
                {"folding_pow_bits", f.folding_pow_bits}, {"sumcheck_rounds", f.sumcheck_rounds}};
  j["pow_budget_exceeded"] = !c.pow_budget_violations().empty();
  return j;
}

void print_config(const WhirConfig& c) {
  std::cout << "WHIR n = " << c.num_variables() << ", " << whir::long_name(c.params.soundness) << ", security "
            << c.params.security_level << ", PoW budget " << c.params.pow_bits << ", rate 2^-"
            << c.params.starting_log_inv_rate << ", rs reduction " << c.rs_reduction << "\n";
  std::cout << "commitment: fold " << c.params.folding.at_round(0) << ", domain 2^" << c.log_starting_domain()
            << ", OOD " << c.commitment_ood_samples << ", starting folding PoW " << c.starting_folding_pow_bits << "\n";
  for (size_t i = 0; i < c.rounds.size(); ++i) {
    const auto& r = c.rounds[i];
    std::cout << "round " << i << ": fold " << r.folding_factor << ", domain 2^" << r.log_domain_size << ", queries "
              << r.num_queries << ", OOD " << r.ood_samples << ", PoW " << r.pow_bits << ", folding PoW "
              << r.folding_pow_bits << "\n";
  }
  const auto& f = c.final_round;
  std::cout << "final:   fold " << f.folding_factor << ", domain 2^" << f.log_domain_size << ", queries "
            << f.num_queries << ", PoW " << f.pow_bits << ", folding PoW " << f.folding_pow_bits << ", sumcheck rounds "
            << f.sumcheck_rounds << "\n";
}

// Little-endian canonical u32 words; Error(InvalidArgument) on a bad length or value.
std::vector<BabyBear> decode_words(const std::vector<uint8_t>& bytes, const std::string& what) {
  if (bytes.size() % 4 != 0) throw_invalid(what + ": the size is not a multiple of 4 bytes");
  std::vector<BabyBear> v(bytes.size() / 4);
  for (size_t i = 0; i < v.size(); ++i) {
    uint32_t w = 0;
    for (int b = 0; b < 4; ++b) w |= uint32_t(bytes[4 * i + b]) << (8 * b);
    if (!decode_canonical(w, v[i]))
      throw_invalid(what + ": word " + std::to_string(i) + " = " + std::to_string(w) + " is not below p");
  }
  return v;
}

// A digest as the 32 bytes the proof file holds (8 little-endian canonical words), in hex.
std::string root_hex(const Digest& d) {
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (const BabyBear& e : d.e)
    for (int b = 0; b < 4; ++b) {
      const uint8_t byte = uint8_t(e.canonical() >> (8 * b));
      s += hex[byte >> 4];
      s += hex[byte & 15];
    }
  return s;
}

Digest parse_root_hex(const std::string& text) {
  if (text.size() != 64) throw_invalid("--expect-root: expected 64 hex digits, got " + std::to_string(text.size()));
  std::vector<uint8_t> bytes(32);
  for (size_t i = 0; i < 64; ++i) {
    const char ch = text[i];
    const int v = ch >= '0' && ch <= '9'   ? ch - '0'
                  : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                  : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                           : -1;
    if (v < 0) throw_invalid("--expect-root: '" + std::string(1, ch) + "' is not a hex digit");
    bytes[i / 2] = uint8_t(bytes[i / 2] << 4 | v);
  }
  const std::vector<BabyBear> w = decode_words(bytes, "--expect-root");
  Digest d;
  std::copy(w.begin(), w.end(), d.e);
  return d;
}

// The claims file of `prove --claims-out` / `verify --claims`: per claim, the point's n
// extension elements then the value, each c0..c3 as little-endian canonical u32 words.
std::vector<uint8_t> encode_claims(const std::vector<whir::Claim>& claims) {
  std::vector<uint8_t> out;
  auto put = [&](const BabyBear4& x) {
    for (const BabyBear& c : x.c)
      for (int b = 0; b < 4; ++b) out.push_back(uint8_t(c.canonical() >> (8 * b)));
  };
  for (const whir::Claim& c : claims) {
    for (const BabyBear4& x : c.point) put(x);
    put(c.value);
  }
  return out;
}

std::vector<whir::Claim> decode_claims(const std::vector<uint8_t>& bytes, unsigned n, const std::string& what) {
  const std::vector<BabyBear> w = decode_words(bytes, what);
  const size_t per = 4 * (size_t(n) + 1);
  if (w.empty() || w.size() % per != 0)
    throw_invalid(what + ": expected a non-empty multiple of 4(n + 1) = " + std::to_string(per) + " words");
  std::vector<whir::Claim> claims(w.size() / per);
  for (size_t c = 0; c < claims.size(); ++c) {
    auto ef = [&](size_t i) {
      const size_t o = c * per + 4 * i;
      return BabyBear4{{w[o], w[o + 1], w[o + 2], w[o + 3]}};
    };
    for (unsigned i = 0; i < n; ++i) claims[c].point.push_back(ef(i));
    claims[c].value = ef(n);
  }
  return claims;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int run_params(const ParamsOptions& o) {
  const WhirConfig c = WhirConfig::derive(to_params(o.params));
  warn_config(c);
  if (o.json)
    std::cout << config_json(c).dump(2) << "\n";
  else
    print_config(c);
  return 0;
}

int run_prove(const ProveOptions& o, bool have_poly, bool have_points) {
  const WhirConfig c = WhirConfig::derive(to_params(o.params));
  warn_config(c);
  if (o.num_points < 1 || o.num_points > whir::MAX_CLAIMS)
    throw_invalid("--num-points " + std::to_string(o.num_points) + " must be in 1.." +
                  std::to_string(whir::MAX_CLAIMS));
  check_output_path(o.out, "--out");
  if (!o.claims_out.empty()) check_output_path(o.claims_out, "--claims-out");
  const unsigned n = c.num_variables();
  const size_t size = size_t(1) << n;
  std::vector<BabyBear> evals;
  if (have_poly) {
    evals = decode_words(read_input_file(o.poly, "--poly", 4 * uint64_t(size)), "--poly " + o.poly);
    if (evals.size() != size)
      throw_invalid("--poly " + o.poly + " holds " + std::to_string(evals.size()) + " values, expected 2^" +
                    std::to_string(n) + " = " + std::to_string(size));
  } else {
    std::mt19937_64 g(o.random_seed);
    evals.resize(size);
    for (auto& x : evals) x = BabyBear::from_canonical(uint32_t(g() % BabyBear::P));
  }
  std::vector<whir::Claim> claims;
  if (have_points) {
    const std::vector<BabyBear> w = decode_words(
        read_input_file(o.points, "--points", 16 * uint64_t(n) * whir::MAX_CLAIMS), "--points " + o.points);
    if (w.empty() || w.size() % (4 * size_t(n)) != 0)
      throw_invalid("--points " + o.points + ": expected a non-empty multiple of 4n = " + std::to_string(4 * n) +
                    " words (each point: n extension elements c0..c3), at most " + std::to_string(whir::MAX_CLAIMS) +
                    " points");
    for (size_t off = 0; off < w.size(); off += 4 * n) {
      whir::Claim cl;
      for (unsigned i = 0; i < n; ++i)
        cl.point.push_back({{w[off + 4 * i], w[off + 4 * i + 1], w[off + 4 * i + 2], w[off + 4 * i + 3]}});
      claims.push_back(std::move(cl));
    }
  } else {
    std::mt19937_64 g(o.point_seed ^ 0x706f696e74ull);  // independent of the polynomial's stream
    for (unsigned k = 0; k < o.num_points; ++k) {
      whir::Claim cl;
      for (unsigned i = 0; i < n; ++i) {
        BabyBear4 x;
        for (auto& e : x.c) e = BabyBear::from_canonical(uint32_t(g() % BabyBear::P));
        cl.point.push_back(x);
      }
      claims.push_back(std::move(cl));
    }
  }
  for (auto& cl : claims) cl.value = whir::evaluate_multilinear(evals, cl.point);

  // Cuda without a usable GPU throws Error(Unavailable) (exit 2).
  Backend ran = backend_that_runs(o.backend, n, whir::WHIR_GPU_CROSSOVER_VARS);
  auto t0 = std::chrono::steady_clock::now();
  PhaseTimes phases;
  const auto prove_on = [&](Backend b) {
    return whir::prove(c, evals, claims,
                       whir::ProveOptions{.backend = b, .phase_times = o.profile ? &phases : nullptr});
  };
  whir::Proof proof;
  try {
    proof = prove_on(ran);
  } catch (const Error& e) {
    // What whir::prove does for Auto itself, here so that the backend reported is the one that ran.
    if (o.backend != Backend::Auto || ran != Backend::Cuda || e.code() != ErrorCode::OutOfMemory) throw;
    std::cerr << "warning: the GPU WHIR prover does not fit (" << e.what() << "); proving on the CPU\n";
    ran = Backend::Cpu;
    t0 = std::chrono::steady_clock::now();
    proof = prove_on(ran);
  }
  const double prove_ms = ms_since(t0);
  const std::vector<uint8_t> file = whir::write_proof_file(c, claims, proof);
  write_output_file(o.out, "--out", file);
  if (!o.claims_out.empty()) write_output_file(o.claims_out, "--claims-out", encode_claims(claims));
  std::cout << "proved " << claims.size() << " evaluation claim(s) of a 2^" << n
            << " polynomial (backend: " << to_string(ran) << ") in " << format_time(prove_ms) << " ms; wrote " << o.out
            << " (" << file.size() << " bytes)\ncommitment root " << root_hex(proof.initial_commitment) << "\n";
  if (o.profile) print_profile(phases);
  return EXIT_OK;
}

struct VerifyOptions {
  ParamOptions params;
  std::string proof, expect_root, claims;
  bool json = false;
};

// Reads the proof under the verifier's configuration: the header and the claim count first, so
// a file larger than any proof of that many claims is refused before the rest is read.
whir::ProofFile read_proof_under(const std::string& path, const WhirConfig& c) {
  const uint64_t size = input_file_size(path, "proof");
  const std::vector<uint8_t> head = read_input_prefix(path, "proof", whir::PROOF_FILE_HEADER_BYTES);
  (void)whir::read_proof_header(head);  // magic, version, parameters that derive
  if (head.size() == whir::PROOF_FILE_HEADER_BYTES) {
    const uint32_t n_claims =
        uint32_t(head[48]) | uint32_t(head[49]) << 8 | uint32_t(head[50]) << 16 | uint32_t(head[51]) << 24;
    if (n_claims >= 1 && n_claims <= whir::MAX_CLAIMS && size > whir::max_proof_file_size(c, n_claims))
      throw_invalid("proof " + path + " holds " + std::to_string(size) + " bytes, more than any proof of " +
                    std::to_string(n_claims) + " claim(s) under these parameters (" +
                    std::to_string(whir::max_proof_file_size(c, n_claims)) + ")");
  }
  return whir::read_proof_file(read_input_file(path, "proof", std::max<uint64_t>(size, 1)), c);
}

// The proof's statement against what the caller pinned (--expect-root, --claims); a reason when
// it differs.
std::string statement_mismatch(const VerifyOptions& o, const WhirConfig& c, const whir::ProofFile& pf) {
  if (!o.expect_root.empty()) {
    const Digest want = parse_root_hex(o.expect_root);
    if (!(want == pf.proof.initial_commitment))
      return "the commitment root is " + root_hex(pf.proof.initial_commitment) + ", not the expected " + o.expect_root;
  }
  if (!o.claims.empty()) {
    const std::vector<whir::Claim> want =
        decode_claims(read_input_file(o.claims, "--claims", uint64_t(16) * (c.num_variables() + 1) * whir::MAX_CLAIMS),
                      c.num_variables(), "--claims " + o.claims);
    if (want.size() != pf.claims.size())
      return "the proof holds " + std::to_string(pf.claims.size()) + " claim(s), --claims " +
             std::to_string(want.size());
    for (size_t i = 0; i < want.size(); ++i)
      if (want[i].point != pf.claims[i].point || !(want[i].value == pf.claims[i].value))
        return "claim " + std::to_string(i) + " is not the one in --claims";
  }
  return {};
}

nlohmann::json ef_json(const BabyBear4& x) {
  return nlohmann::json::array({x.c[0].canonical(), x.c[1].canonical(), x.c[2].canonical(), x.c[3].canonical()});
}

std::string ef_text(const BabyBear4& x) {
  return std::to_string(x.c[0].canonical()) + "," + std::to_string(x.c[1].canonical()) + "," +
         std::to_string(x.c[2].canonical()) + "," + std::to_string(x.c[3].canonical());
}

std::string checked_text(const WhirConfig& c) {
  std::string s = std::to_string(c.params.security_level) + " bits (" + whir::long_name(c.params.soundness) +
                  ", PoW budget " + std::to_string(c.params.pow_bits) + "), n = " + std::to_string(c.num_variables()) +
                  ", fold " + std::to_string(c.params.folding.at_round(0));
  if (c.params.folding.from_second_round) s += " then " + std::to_string(c.params.folding.rest);
  return s + ", rate 2^-" + std::to_string(c.params.starting_log_inv_rate) + ", rs reduction " +
         std::to_string(c.rs_reduction);
}

int run_verify(const VerifyOptions& o) {
  const WhirConfig c = WhirConfig::derive(to_params(o.params));
  warn_config(c);
  whir::ProofFile pf;
  try {
    pf = read_proof_under(o.proof, c);
  } catch (const Error& e) {
    // A well-formed proof of other parameters is a verdict, not an input error: this verifier
    // does not accept it, and says which flags it was made with.
    whir::ProtocolParameters header;
    try {
      header = whir::read_proof_header(read_input_prefix(o.proof, "proof", whir::PROOF_FILE_HEADER_BYTES));
    } catch (const Error&) {
      throw e;
    }
    const auto mismatch = whir::header_mismatch(header, c);
    if (!mismatch) throw;
    if (o.json)
      std::cout << nlohmann::json{{"accepted", false},
                                  {"reason", "made under other parameters: " + *mismatch},
                                  {"security_level", c.params.security_level}}
                       .dump(2)
                << "\n";
    else
      std::cout << "rejected: the proof was made under other parameters than this verification's: " << *mismatch
                << "\nchecked against: " << checked_text(c) << "\n";
    return EXIT_REJECTED;
  }
  std::string reason = statement_mismatch(o, c, pf);
  const auto t0 = std::chrono::steady_clock::now();
  if (reason.empty()) {
    const whir::VerifyResult r = whir::verify(c, pf.claims, pf.proof);
    if (!r.accepted) reason = r.reason;
  }
  const double ms = ms_since(t0);
  const bool accepted = reason.empty();
  if (o.json) {
    nlohmann::json j = config_json(c);
    j["accepted"] = accepted;
    if (!accepted) j["reason"] = reason;
    j["commitment_root"] = root_hex(pf.proof.initial_commitment);
    j["claims"] = nlohmann::json::array();
    for (const whir::Claim& cl : pf.claims) {
      nlohmann::json pt = nlohmann::json::array();
      for (const BabyBear4& x : cl.point) pt.push_back(ef_json(x));
      j["claims"].push_back({{"point", pt}, {"value", ef_json(cl.value)}});
    }
    j["verify_ms"] = ms;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << (accepted ? "accepted" : "rejected: " + reason) << "\n";
    std::cout << "commitment root " << root_hex(pf.proof.initial_commitment) << "\n";
    for (size_t i = 0; i < pf.claims.size(); ++i) {
      std::cout << "claim " << i << ": f(";
      for (size_t k = 0; k < pf.claims[i].point.size(); ++k)
        std::cout << (k ? " " : "") << ef_text(pf.claims[i].point[k]);
      std::cout << ") = " << ef_text(pf.claims[i].value) << "\n";
    }
    std::cout << "checked: security " << checked_text(c) << "; verified in " << format_time(ms) << " ms\n";
  }
  return accepted ? EXIT_OK : EXIT_REJECTED;
}

// ---- bench -------------------------------------------------------------------------------------

// One configuration of a bench grid, with the published Apple M1 figures (spec §10.1, ms; -1 when
// none was published).
struct BenchConfig {
  unsigned n, fold, rate;
  double m1_cpu = -1, m1_gpu = -1;
};

// The 29 cells of the M1 grid and the 5 high-rate n = 22 rows (spec §10.1), in the spec's order.
const std::vector<BenchConfig>& seed_grid() {
  static const std::vector<BenchConfig> g = {
      {20, 1, 1, 267, 171},   {20, 1, 2, 453, 290},    {20, 1, 3, 897, 483},   {20, 2, 1, 127, 75},
      {20, 2, 2, 217, 122},   {20, 2, 3, 414, 210},    {20, 4, 1, 49, 35},     {20, 4, 2, 89, 53},
      {20, 4, 3, 200, 120},   {22, 1, 1, 1174, 579},   {22, 1, 2, 1938, 1092}, {22, 1, 3, 3459, 1934},
      {22, 2, 1, 441, 287},   {22, 2, 2, 805, 484},    {22, 2, 3, 1676, 897},  {22, 3, 1, 206, 138},
      {22, 3, 2, 381, 248},   {22, 3, 3, 897, 611},    {22, 4, 1, 166, 128},   {22, 4, 2, 322, 215},
      {22, 4, 3, 661, 530},   {22, 6, 1, 141, 98},     {22, 6, 2, 410, 327},   {22, 6, 3, 1763, 1320},
      {24, 1, 1, 4153, 2463}, {24, 2, 1, 1814, 1049},  {24, 3, 1, 890, 531},   {24, 4, 1, 978, 694},
      {24, 6, 1, 588, 405},   {22, 1, 5, 15226, 9300}, {22, 2, 5, 6327, 3644}, {22, 3, 5, 8694, 3779},
      {22, 4, 5, 7546, 4568}, {22, 2, 6, 17142, 8408},
  };
  return g;
}

// Small configurations (seconds on a CPU) for smoke tests: several folds, rates and round counts.
const std::vector<BenchConfig>& quick_grid() {
  static const std::vector<BenchConfig> g = {{12, 2, 1}, {14, 4, 1}, {14, 3, 2}, {16, 4, 1}};
  return g;
}

struct BenchOptions {
  std::string grid, rows;
  BenchBackend backend = BenchBackend::All;
  whir::Soundness soundness = whir::Soundness::CapacityBound;
  unsigned vars = 0, fold = 4, rate = 1, security = 100, pow_budget = 16;
  int runs = 3;
  uint64_t seed = 1;
  bool json = false, csv = false, list = false, profile = false;
};

struct BenchRow {
  BenchConfig cfg;
  std::vector<double> cpu_runs, gpu_runs, verify_runs;  // ms
  double cpu_ms = -1, gpu_ms = -1, verify_ms = -1;      // medians; -1: not measured
  double verify_1t_ms = -1;                             // median on one OpenMP thread
  // --profile: per GPU stage (prove --profile's names, in the order they first ran), the median
  // over `runs` further proves of its summed device ms; "host" is the time between stages.
  std::vector<std::pair<std::string, double>> gpu_stages;
  double gpu_profiled_wall_ms = -1;
  size_t proof_bytes = 0;
  int identical = -1;  // CPU and GPU proofs byte-identical: 1 / 0, -1 when not both ran
  bool accepted = true;
  std::string error;
};

double median_ms(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// One warm-up prove (page faults, thread pools, the GPU context and its allocations), then `runs`
// timed proves; returns the proof file of the last run.
std::vector<uint8_t> time_prove(const WhirConfig& c, std::span<const BabyBear> evals,
                                std::span<const whir::Claim> claims, Backend b, int runs, std::vector<double>& out) {
  whir::Proof proof = whir::prove(c, evals, claims, b);
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    proof = whir::prove(c, evals, claims, b);
    out.push_back(ms_since(t0));
  }
  return whir::write_proof_file(c, claims, proof);
}

// `bench --profile`: `runs` more GPU proves with stage times (each stage synchronised, so these
// runs are not the timed ones), and per stage the median of its summed device ms.
void profile_gpu_stages(const WhirConfig& c, std::span<const BabyBear> evals, std::span<const whir::Claim> claims,
                        int runs, BenchRow& row) {
  std::vector<std::pair<std::string, std::vector<double>>> by_name;
  std::vector<double> walls;
  for (int i = 0; i < runs; ++i) {
    PhaseTimes t;
    (void)whir::prove(c, evals, claims, whir::ProveOptions{.backend = Backend::Cuda, .phase_times = &t});
    walls.push_back(t.wall_ms);
    for (const PhaseSum& e : sum_phases_by_name(t)) {
      auto it = std::find_if(by_name.begin(), by_name.end(), [&](const auto& b) { return b.first == e.name; });
      if (it == by_name.end()) it = by_name.insert(by_name.end(), {e.name, {}});
      it->second.push_back(e.ms);
    }
  }
  for (auto& [name, ms] : by_name) row.gpu_stages.emplace_back(name, median_ms(ms));
  row.gpu_profiled_wall_ms = median_ms(walls);
}

BenchRow bench_one(const BenchConfig& bc, const BenchOptions& o) {
  BenchRow row;
  row.cfg = bc;
  ProtocolParameters p;
  p.num_variables = bc.n;
  p.folding = whir::FoldingFactor::constant(bc.fold);
  p.starting_log_inv_rate = bc.rate;
  p.soundness = o.soundness;
  p.security_level = o.security;
  p.pow_bits = o.pow_budget;  // rs_reduction: the default min(fold, 3)
  WhirConfig c;
  try {
    c = WhirConfig::derive(p);
  } catch (const Error& e) {
    row.error = e.what();
    return row;
  }
  std::mt19937_64 g(o.seed ^ (uint64_t(bc.n) << 32));
  std::vector<BabyBear> evals(size_t(1) << bc.n);
  for (auto& x : evals) x = BabyBear::from_canonical(uint32_t(g() % BabyBear::P));
  std::vector<whir::Claim> claims(1);
  for (unsigned i = 0; i < bc.n; ++i) {
    BabyBear4 x;
    for (auto& e : x.c) e = BabyBear::from_canonical(uint32_t(g() % BabyBear::P));
    claims[0].point.push_back(x);
  }
  claims[0].value = whir::evaluate_multilinear(evals, claims[0].point);

  const bool do_cpu = bench_runs_cpu(o.backend, bc.n, whir::WHIR_GPU_CROSSOVER_VARS);
  const bool do_gpu = bench_runs_gpu(o.backend, bc.n, whir::WHIR_GPU_CROSSOVER_VARS);
  std::vector<uint8_t> cpu_file, gpu_file;
  try {
    if (do_cpu) cpu_file = time_prove(c, evals, claims, Backend::Cpu, o.runs, row.cpu_runs);
    if (do_gpu) gpu_file = time_prove(c, evals, claims, Backend::Cuda, o.runs, row.gpu_runs);
  } catch (const Error& e) {
    row.error = e.what();  // e.g. the GPU prover's tables do not fit: keep what was measured
  }
  row.cpu_ms = median_ms(row.cpu_runs);
  row.gpu_ms = median_ms(row.gpu_runs);
  if (o.profile && !gpu_file.empty()) profile_gpu_stages(c, evals, claims, o.runs, row);
  if (!cpu_file.empty() && !gpu_file.empty()) row.identical = cpu_file == gpu_file ? 1 : 0;
  const std::vector<uint8_t>& file = cpu_file.empty() ? gpu_file : cpu_file;
  if (!file.empty()) {
    row.proof_bytes = file.size();
    // The verifier reads the file as a user's would; every run's verdict must be "accepted".
    const whir::ProofFile pf = whir::read_proof_file(file, c);
    for (int i = 0; i < std::max(o.runs, 3); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const whir::VerifyResult r = whir::verify(c, pf.claims, pf.proof);
      row.verify_runs.push_back(ms_since(t0));
      if (!r.accepted) {
        row.accepted = false;
        row.error = "the proof was rejected: " + r.reason;
        break;
      }
    }
    row.verify_ms = median_ms(row.verify_runs);
    // The same verification on one thread (issue 18's figure): the verifier hashes its Merkle
    // paths on OpenMP threads; this sets the calling thread's team size only.
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    std::vector<double> one_thread;
    for (int i = 0; i < std::max(o.runs, 3) && row.accepted; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      if (!whir::verify(c, pf.claims, pf.proof).accepted) row.accepted = false;
      one_thread.push_back(ms_since(t0));
    }
    omp_set_num_threads(threads);
    row.verify_1t_ms = median_ms(one_thread);
  }
  return row;
}

std::string fmt_ratio(double a, double b) {
  if (a < 0 || b <= 0) return "-";
  char s[32];
  std::snprintf(s, sizeof s, "%.2fx", a / b);
  return s;
}

nlohmann::json ms_or_null(double ms) { return ms < 0 ? nlohmann::json(nullptr) : nlohmann::json(ms); }

int run_bench(const BenchOptions& o, bool single) {
  std::vector<BenchConfig> grid;
  std::string grid_name;
  if (single) {
    if (o.vars == 0)
      throw_invalid("whir bench: give --grid seed|quick, or --vars (with --fold/--rate) for one configuration");
    BenchConfig bc{o.vars, o.fold, o.rate};
    for (const BenchConfig& s : seed_grid())
      if (s.n == bc.n && s.fold == bc.fold && s.rate == bc.rate) bc = s;
    grid = {bc};
    grid_name = "single";
  } else if (o.grid == "seed") {
    grid = seed_grid();
    grid_name = "seed";
  } else {
    grid = quick_grid();
    grid_name = "quick";
  }
  if (!o.rows.empty()) {  // a slice of the grid, so a long run can be split (the device's calls are capped)
    unsigned from = 0, to = 0;
    char dash = 0, extra = 0;
    const int got = std::sscanf(o.rows.c_str(), "%u%c%u%c", &from, &dash, &to, &extra);
    if (got != 3 || dash != '-' || from < 1 || to < from || to > grid.size())
      throw_invalid("--rows must be FROM-TO within 1-" + std::to_string(grid.size()) + ", got '" + o.rows + "'");
    grid = std::vector<BenchConfig>(grid.begin() + (from - 1), grid.begin() + to);
    grid_name += " rows " + o.rows;
  }
  require_gpu_if_asked(o.backend, "whir bench");
  const bool gpu_ok = cuda_usable();
  const whir::Soundness snd = o.soundness;
  if (snd == whir::Soundness::CapacityBound)
    std::cerr << "note: CapacityBound (as published) rests on a conjecture that was refuted (Crites-Stewart, eprint "
                 "2025/2046); it is benchmarked here for comparison only\n";
  const CpuFeatures cpu = cpu_features();
  const std::string gpu_name = gpu_ok ? gpu_info()->name : std::string("none (") + cuda_unavailable_reason() + ")";

  std::vector<BenchRow> rows;
  bool all_good = true;
  for (size_t i = 0; i < grid.size(); ++i) {
    const BenchConfig& bc = grid[i];
    if (o.list) {
      rows.emplace_back().cfg = bc;
      continue;
    }
    std::cerr << "[" << i + 1 << "/" << grid.size() << "] n=" << bc.n << " fold=" << bc.fold << " rate=" << bc.rate
              << " ..." << std::flush;
    BenchRow r = bench_one(bc, o);
    std::cerr << " cpu " << format_time(r.cpu_ms) << " ms, gpu " << format_time(r.gpu_ms) << " ms";
    if (!r.error.empty()) std::cerr << " (error: " << r.error << ")";
    std::cerr << "\n";
    if (!r.error.empty() || !r.accepted || r.identical == 0) all_good = false;
    rows.push_back(std::move(r));
  }

  const std::string timing =
      "prove end to end: witness in host memory -> proof object (commit, every round, PoW, openings; "
      "GPU: upload included), median of " +
      std::to_string(o.runs) + " runs after one warm-up prove per backend";
  const std::string setting = std::string(whir::long_name(snd)) + ", security " + std::to_string(o.security) +
                              ", PoW budget " + std::to_string(o.pow_budget) +
                              ", rs_red = min(fold, 3), one evaluation claim, deterministic PoW";
  if (o.json) {
    nlohmann::json j;
    j["grid"] = grid_name;
    j["timing"] = timing;
    j["runs"] = o.runs;
    j["soundness"] = whir::long_name(snd);
    j["security_level"] = o.security;
    j["pow_budget"] = o.pow_budget;
    j["backend"] = name_of(bench_backend_names(), o.backend);
    j["cpu_model"] = cpu.model;
    j["cpu_threads"] = omp_get_max_threads();
    j["simd"] = to_string(simd_level());
    j["gpu"] = gpu_ok ? nlohmann::json(gpu_info()->name) : nlohmann::json(nullptr);
    j["m1_source"] = "spec §10.1: Apple M1, Plonky3 NEON CPU and best Metal GPU, medians of 3";
    j["rows"] = nlohmann::json::array();
    for (const BenchRow& r : rows) {
      nlohmann::json x = {
          {"n", r.cfg.n},
          {"fold", r.cfg.fold},
          {"rate", r.cfg.rate},
          {"cpu_ms", ms_or_null(r.cpu_ms)},
          {"gpu_ms", ms_or_null(r.gpu_ms)},
          {"speedup", r.cpu_ms > 0 && r.gpu_ms > 0 ? nlohmann::json(r.cpu_ms / r.gpu_ms) : nlohmann::json(nullptr)},
          {"m1_cpu_ms", ms_or_null(r.cfg.m1_cpu)},
          {"m1_gpu_ms", ms_or_null(r.cfg.m1_gpu)},
          {"cpu_runs_ms", r.cpu_runs},
          {"gpu_runs_ms", r.gpu_runs},
          {"verify_ms", ms_or_null(r.verify_ms)},
          {"verify_1t_ms", ms_or_null(r.verify_1t_ms)},
          {"proof_bytes", r.proof_bytes},
          {"accepted", r.accepted},
          {"proofs_identical", r.identical < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.identical == 1)}};
      if (!r.error.empty()) x["error"] = r.error;
      if (!r.gpu_stages.empty()) {
        nlohmann::json st = nlohmann::json::object();
        for (const auto& [name, ms] : r.gpu_stages) st[name] = ms;
        x["gpu_stages_ms"] = std::move(st);
        x["gpu_profiled_wall_ms"] = r.gpu_profiled_wall_ms;
      }
      j["rows"].push_back(std::move(x));
    }
    std::cout << j.dump(2) << "\n";
  } else if (o.csv) {
    std::cout
        << "n,fold,rate,cpu_ms,gpu_ms,speedup,m1_cpu_ms,m1_gpu_ms,verify_ms,proof_bytes,accepted,proofs_identical\n";
    auto num = [](double v) { return v < 0 ? std::string() : std::to_string(v); };
    for (const BenchRow& r : rows)
      std::cout << r.cfg.n << "," << r.cfg.fold << "," << r.cfg.rate << "," << num(r.cpu_ms) << "," << num(r.gpu_ms)
                << "," << (r.cpu_ms > 0 && r.gpu_ms > 0 ? std::to_string(r.cpu_ms / r.gpu_ms) : "") << ","
                << num(r.cfg.m1_cpu) << "," << num(r.cfg.m1_gpu) << "," << num(r.verify_ms) << "," << r.proof_bytes
                << "," << (r.accepted ? 1 : 0) << "," << (r.identical < 0 ? "" : std::to_string(r.identical)) << "\n";
  } else {
    std::printf("# WHIR %s grid: %s\n# %s\n", grid_name.c_str(), timing.c_str(), setting.c_str());
    std::printf("# CPU: %s, %d threads, %s; GPU: %s\n", cpu.model.c_str(), omp_get_max_threads(),
                to_string(simd_level()), gpu_name.c_str());
    std::printf(
        "# M1: the published Apple M1 figures (spec §10.1: Plonky3 NEON CPU, best Metal GPU), shape reference only\n");
    std::printf("%3s %4s %4s | %9s %9s %8s | %8s %8s %7s | %11s %9s %s\n", "n", "fold", "rate", "CPU ms", "GPU ms",
                "speedup", "M1 CPU", "M1 GPU", "M1 x", "proof bytes", "verify ms", "check");
    for (const BenchRow& r : rows) {
      std::string check = !r.error.empty()   ? "ERROR"
                          : !r.accepted      ? "REJECTED"
                          : r.identical == 0 ? "CPU!=GPU"
                          : r.identical == 1 ? "ok, CPU==GPU"
                                             : "ok";
      std::printf("%3u %4u %4u | %9s %9s %8s | %8s %8s %7s | %11zu %9s %s\n", r.cfg.n, r.cfg.fold, r.cfg.rate,
                  format_time(r.cpu_ms).c_str(), format_time(r.gpu_ms).c_str(), fmt_ratio(r.cpu_ms, r.gpu_ms).c_str(),
                  format_time(r.cfg.m1_cpu).c_str(), format_time(r.cfg.m1_gpu).c_str(),
                  fmt_ratio(r.cfg.m1_cpu, r.cfg.m1_gpu).c_str(), r.proof_bytes, format_time(r.verify_ms).c_str(),
                  check.c_str());
    }
    for (const BenchRow& r : rows) {
      if (r.verify_1t_ms >= 0)
        std::printf("# n=%u fold=%u rate=%u: verify on one thread %s ms\n", r.cfg.n, r.cfg.fold, r.cfg.rate,
                    format_time(r.verify_1t_ms).c_str());
      if (r.gpu_stages.empty()) continue;
      std::printf("# n=%u fold=%u rate=%u GPU stages (device ms, median of %d profiled proves; host = between stages):",
                  r.cfg.n, r.cfg.fold, r.cfg.rate, o.runs);
      for (const auto& [name, ms] : r.gpu_stages) std::printf(" %s %.3f;", name.c_str(), ms);
      std::printf(" wall %.3f\n", r.gpu_profiled_wall_ms);
    }
  }
  // Exit 1 when a proof was rejected, the backends disagree or a configuration failed.
  return all_good ? 0 : 1;
}

}  // namespace

void add_whir_command(CLI::App& app) {
  auto* w = app.add_subcommand("whir", "WHIR polynomial commitment over BabyBear (p3-whir 090b dialect)");
  w->require_subcommand(1);

  auto params_o = std::make_shared<ParamsOptions>();
  auto* params = w->add_subcommand("params", "Derive and print the protocol parameters");
  add_param_flags(params, params_o->params);
  add_common_options(params, {.json = &params_o->json});
  params->callback([params_o] { check_rc(run_params(*params_o)); });

  auto po = std::make_shared<ProveOptions>();
  auto* prove = w->add_subcommand("prove", "Commit to a polynomial and prove its evaluations; write a proof file");
  add_param_flags(prove, po->params);
  add_common_options(prove, {.backend = &po->backend,
                             .backend_help = "WHIR's crossover is 2^" + std::to_string(whir::WHIR_GPU_CROSSOVER_VARS) +
                                             " evaluations"});
  auto* poly = prove->add_option("--poly", po->poly, "2^n little-endian canonical u32 evaluations (binary file)");
  auto* rnd = prove->add_option("--random", po->random_seed, "Use a random polynomial from this seed");
  poly->excludes(rnd);
  auto* pts =
      prove->add_option("--points", po->points,
                        "Evaluation points: little-endian canonical u32, 4n words per point (c0..c3 per coordinate)");
  auto* pseed = prove->add_option("--point-seed", po->point_seed, "Random evaluation points from this seed");
  prove->add_option("--num-points", po->num_points, "How many seeded points");
  pts->excludes(pseed);
  prove->add_option("--out", po->out, "Output proof file");
  prove->add_flag("--profile", po->profile, "Print the GPU prover's device time per stage");
  prove->add_option("--claims-out", po->claims_out,
                    "Also write the claims (points and values) for `whir verify --claims`");
  prove->callback([po, poly, pts] { check_rc(run_prove(*po, poly->count() > 0, pts->count() > 0)); });

  auto vo = std::make_shared<VerifyOptions>();
  auto* verify = w->add_subcommand(
      "verify",
      "Verify a proof file under the parameters given here (the same flags and defaults as prove; the file's header "
      "must repeat them). Exit 0 accepted, 1 rejected, 2 unreadable or usage");
  verify->add_option("proof", vo->proof, "Proof file written by `zkgpu whir prove`")->required();
  add_param_flags(verify, vo->params);
  verify->add_option("--expect-root", vo->expect_root,
                     "Reject unless the commitment root is this (64 hex digits, as `whir prove` prints it)");
  verify->add_option("--claims", vo->claims,
                     "Reject unless the proof's claims are these (binary, per claim 4n point words then 4 value "
                     "words, little-endian canonical u32; `whir prove --claims-out` writes it)");
  add_common_options(verify, {.json = &vo->json});
  verify->callback([vo] { check_rc(run_verify(*vo)); });

  auto bo = std::make_shared<BenchOptions>();
  auto* bench = w->add_subcommand(
      "bench", "Time prove (CPU and GPU) and verify over the spec's published grid or one configuration");
  auto* grid = add_choice(bench, "--grid", bo->grid, {{"seed", "seed"}, {"quick", "quick"}},
                          "seed: the 34 published Apple configurations; quick: a few small ones");
  auto* vars =
      bench->add_option("--vars", bo->vars, "Bench one configuration with this many variables")->default_str("");
  bench->add_option("--fold", bo->fold, "Folding factor of the single configuration");
  bench->add_option("--rate", bo->rate, "Starting log2 inverse rate of the single configuration");
  grid->excludes(vars);
  bench->add_option("--rows", bo->rows, "Only rows FROM-TO of the grid (1-based, in the order --list prints them)")
      ->needs(grid);
  add_common_options(bench, {.bench_backend = &bo->backend,
                             .runs = &bo->runs,
                             .max_runs = 1000,
                             .backend_help = "both: the old spelling of all",
                             .bench_aliases = {{"both", BenchBackend::All}},
                             .runs_help = "Timed runs per backend (the median is reported)"});
  add_choice(bench, "--soundness", bo->soundness, soundness_names(), "Soundness (the default cb is the published one)");
  bench->add_option("--security", bo->security, "Security level in bits");
  bench->add_option("--pow-budget", bo->pow_budget, "PoW budget in bits");
  bench->add_option("--seed", bo->seed, "Seed of the random polynomials and points");
  bench->add_flag("--list", bo->list, "Print the grid (with the published M1 figures) without running it");
  bench->add_flag("--profile", bo->profile,
                  "Also prove --runs more times on the GPU with stage times and report each stage's median");
  auto* js = bench->add_flag("--json", bo->json, "Print JSON");
  auto* cs = bench->add_flag("--csv", bo->csv, "Print CSV");
  js->excludes(cs);
  bench->callback([bo, grid, vars] {
    if (grid->count() == 0 && vars->count() == 0)
      throw CLI::ValidationError("whir bench", "give --grid seed|quick or --vars N");
    check_rc(run_bench(*bo, vars->count() > 0));
  });
}

}  // namespace zkgpu::cli
