// `zkgpu poseidon2 permute`: an interop command for scripts and cross-checks. Reads one state per
// line as whitespace-separated canonical decimals and prints the permuted states the same way
// (exit status 0; 2 for a malformed line, named; empty input gives a notice on stderr).
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/line_parse.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {
struct PermuteOptions {
  int width = 16;
  std::string constants = "plonky3";
  std::string backend = "auto";
};

int run_permute(const PermuteOptions& o) {
  Poseidon2Constants set{};
  if (!parse_poseidon2_constants(o.constants, set)) {
    std::cerr << "error: --constants must be plonky3 or whir\n";
    return EXIT_USAGE;
  }
  auto backend = parse_backend(o.backend);
  if (!backend) {
    std::cerr << "error: --backend must be cpu, cuda or auto\n";
    return EXIT_USAGE;
  }
  std::vector<BabyBear> states;
  std::string line, err;
  for (size_t lineno = 1; std::getline(std::cin, line); ++lineno) {
    if (!parse_field_line(line, static_cast<size_t>(o.width), states, err)) {
      std::cerr << "error: line " << lineno << ": " << err << "\n";
      return EXIT_USAGE;
    }
  }
  poseidon2_permute_batch(states, o.width, set, *backend);
  std::string out;
  for (size_t i = 0; i < states.size(); ++i) {
    out += std::to_string(states[i].canonical());
    out += (i + 1) % o.width == 0 ? '\n' : ' ';
  }
  return finish_items("poseidon2 permute", out, states.size() / static_cast<size_t>(o.width), 0);
}
}  // namespace

void add_poseidon2_command(CLI::App& app) {
  auto* p2 = app.add_subcommand("poseidon2", "Poseidon2 over BabyBear");
  p2->require_subcommand(1);
  auto* perm = p2->add_subcommand("permute", "Permute states read from stdin (one per line, canonical decimals)");
  static PermuteOptions o;
  perm->add_option("--width", o.width, "State width")->check(CLI::IsMember({16, 24}));
  perm->add_option("--constants", o.constants, "Round constants: plonky3 (default set) or whir (SmallRng seed 1)")
      ->check(CLI::IsMember({"plonky3", "whir"}));
  perm->add_option("--backend", o.backend, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  perm->callback([] {
    int rc = run_permute(o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace zkgpu::cli
