// `zkgpu whir params | prove | verify`: the WHIR polynomial commitment (include/zkgpu/whir.hpp).
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "commands.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::cli {
namespace {

using whir::ProtocolParameters;
using whir::WhirConfig;

struct ParamOptions {
  unsigned vars = 0, fold = 4, rate = 1, security = 100, pow_budget = 16;
  int fold_first = -1, rs_reduction = -1;
  std::string soundness = "ud";
  bool enforce = false;
};

struct ProveOptions {
  std::string backend = "auto", poly, points, out = "proof.bin";
  uint64_t random_seed = 1, point_seed = 1;
  unsigned num_points = 1;
};

void add_param_flags(CLI::App* cmd, ParamOptions& o) {
  cmd->add_option("--vars", o.vars, "Number of variables n (the polynomial has 2^n evaluations)")->required();
  cmd->add_option("--fold", o.fold, "Folding factor k (variables folded per round)");
  cmd->add_option("--fold-first", o.fold_first, "Fold this many variables in the first round (then --fold)");
  cmd->add_option("--rate", o.rate, "Starting log2 inverse rate r0 (rate 2^-r0)");
  cmd->add_option("--soundness", o.soundness, "ud (unique decoding), jb (Johnson bound) or cb (capacity bound)")
      ->check(CLI::IsMember({"ud", "jb", "cb"}));
  cmd->add_option("--security", o.security, "Security level in bits");
  cmd->add_option("--pow-budget", o.pow_budget, "Proof-of-work bits credited to the query phases");
  cmd->add_flag("--enforce-pow-budget", o.enforce, "Reject configurations whose derived PoW exceeds the budget");
  cmd->add_option("--rs-reduction", o.rs_reduction, "First-round domain reduction (default min(first fold, 3))");
}

ProtocolParameters to_params(const ParamOptions& o) {
  ProtocolParameters p;
  p.num_variables = o.vars;
  p.security_level = o.security;
  p.pow_bits = o.pow_budget;
  p.folding = o.fold_first >= 0 ? whir::FoldingFactor::constant_from_second_round(unsigned(o.fold_first), o.fold)
                                 : whir::FoldingFactor::constant(o.fold);
  p.soundness = *whir::parse_soundness(o.soundness);
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
  j["final"] = {{"folding_factor", f.folding_factor}, {"domain_size", f.domain_size()},
                {"num_queries", f.num_queries},       {"pow_bits", f.pow_bits},
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
            << f.num_queries << ", PoW " << f.pow_bits << ", folding PoW " << f.folding_pow_bits
            << ", sumcheck rounds " << f.sumcheck_rounds << "\n";
}

bool read_file(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
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

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int run_params(const ParamOptions& o, bool json) {
  const WhirConfig c = WhirConfig::derive(to_params(o));
  warn_config(c);
  if (json) std::cout << config_json(c).dump(2) << "\n";
  else print_config(c);
  return 0;
}

int run_prove(const ParamOptions& po, const ProveOptions& o, bool have_poly, bool have_points) {
  auto backend = parse_backend(o.backend);
  if (!backend) {
    std::cerr << "error: --backend must be cpu, cuda or auto\n";
    return EXIT_USAGE;
  }
  const WhirConfig c = WhirConfig::derive(to_params(po));
  warn_config(c);
  const unsigned n = c.num_variables();
  const size_t size = size_t(1) << n;
  std::vector<BabyBear> evals;
  if (have_poly) {
    std::vector<uint8_t> bytes;
    if (!read_file(o.poly, bytes)) throw_invalid("cannot read --poly file " + o.poly);
    evals = decode_words(bytes, "--poly " + o.poly);
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
    std::vector<uint8_t> bytes;
    if (!read_file(o.points, bytes)) throw_invalid("cannot read --points file " + o.points);
    const std::vector<BabyBear> w = decode_words(bytes, "--points " + o.points);
    if (w.empty() || w.size() % (4 * size_t(n)) != 0)
      throw_invalid("--points " + o.points + ": expected a non-empty multiple of 4n = " + std::to_string(4 * n) +
                    " words (each point: n extension elements c0..c3)");
    for (size_t off = 0; off < w.size(); off += 4 * n) {
      whir::Claim cl;
      for (unsigned i = 0; i < n; ++i) cl.point.push_back({{w[off + 4 * i], w[off + 4 * i + 1], w[off + 4 * i + 2], w[off + 4 * i + 3]}});
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

  const auto t0 = std::chrono::steady_clock::now();
  // Cuda without a usable GPU throws Error(Unavailable) (exit 2); Auto falls back to the CPU.
  const Backend requested = *backend;
  const whir::Proof proof = whir::prove(c, evals, claims, requested);
  const double prove_ms = ms_since(t0);
  const std::vector<uint8_t> file = whir::write_proof_file(c, claims, proof);
  std::ofstream f(o.out, std::ios::binary);
  if (!f.write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size())))
    throw_invalid("cannot write " + o.out);
  std::cout << "proved " << claims.size() << " evaluation claim(s) of a 2^" << n << " polynomial (--backend "
            << to_string(requested) << ") in "
            << prove_ms << " ms; wrote " << o.out << " (" << file.size() << " bytes)\n";
  return 0;
}

int run_verify(const std::string& path) {
  std::vector<uint8_t> bytes;
  if (!read_file(path, bytes)) {
    std::cerr << "error: cannot read " << path << "\n";
    return EXIT_USAGE;
  }
  whir::ProofFile pf;
  WhirConfig c;
  try {
    pf = whir::read_proof_file(bytes);
    c = WhirConfig::derive(pf.params);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return EXIT_USAGE;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const whir::VerifyResult r = whir::verify(c, pf.claims, pf.proof);
  const double ms = ms_since(t0);
  if (!r.accepted) {
    std::cout << "rejected: " << r.reason << "\n";
    return 1;
  }
  std::cout << "accepted: " << pf.claims.size() << " claim(s), n = " << c.num_variables() << ", "
            << whir::long_name(c.params.soundness) << ", " << bytes.size() << " bytes, verified in " << ms << " ms\n";
  return 0;
}

}  // namespace

void add_whir_command(CLI::App& app) {
  auto* w = app.add_subcommand("whir", "WHIR polynomial commitment over BabyBear (p3-whir 090b dialect)");
  w->require_subcommand(1);

  static ParamOptions params_o, prove_po;
  static bool json = false;
  auto* params = w->add_subcommand("params", "Derive and print the protocol parameters");
  add_param_flags(params, params_o);
  params->add_flag("--json", json, "Print JSON");
  params->callback([] {
    int rc = run_params(params_o, json);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });

  static ProveOptions po;
  auto* prove = w->add_subcommand("prove", "Commit to a polynomial and prove its evaluations; write a proof file");
  add_param_flags(prove, prove_po);
  prove->add_option("--backend", po.backend, "cpu, cuda or auto (auto = cuda from 2^14 evaluations when a GPU is usable)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  auto* poly = prove->add_option("--poly", po.poly, "2^n little-endian canonical u32 evaluations (binary file)");
  auto* rnd = prove->add_option("--random", po.random_seed, "Use a random polynomial from this seed (default 1)");
  poly->excludes(rnd);
  auto* pts = prove->add_option("--points", po.points,
                                "Evaluation points: little-endian canonical u32, 4n words per point (c0..c3 per coordinate)");
  auto* pseed = prove->add_option("--point-seed", po.point_seed, "Random evaluation points from this seed (default 1)");
  prove->add_option("--num-points", po.num_points, "How many seeded points (default 1)");
  pts->excludes(pseed);
  prove->add_option("--out", po.out, "Output proof file (default proof.bin)");
  prove->callback([poly, pts] {
    int rc = run_prove(prove_po, po, poly->count() > 0, pts->count() > 0);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });

  static std::string verify_path;
  auto* verify = w->add_subcommand("verify", "Verify a proof file (exit 0 accepted, 1 rejected, 2 unreadable)");
  verify->add_option("proof", verify_path, "Proof file written by `zkgpu whir prove`")->required();
  verify->callback([] {
    int rc = run_verify(verify_path);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace zkgpu::cli
