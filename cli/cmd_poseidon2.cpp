// `zkgpu poseidon2 permute`: an interop command for scripts and cross-checks. Reads one state per
// line as whitespace-separated canonical decimals and prints the permuted states the same way
// (exit status 0; 2 for a malformed line, named; empty input gives a notice on stderr).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/line_parse.hpp"
#include "options.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {
struct PermuteOptions {
  int width = 16;
  Poseidon2Constants constants = Poseidon2Constants::Plonky3;
  Backend backend = Backend::Auto;
};

int run_permute(const PermuteOptions& o) {
  std::vector<BabyBear> states;
  std::string line, err;
  for (size_t lineno = 1; std::getline(std::cin, line); ++lineno) {
    if (!parse_field_line(line, static_cast<size_t>(o.width), states, err)) {
      std::cerr << "error: line " << lineno << ": " << err << "\n";
      return EXIT_USAGE;
    }
  }
  const size_t n_states = states.size() / static_cast<size_t>(o.width);
  const Backend ran = backend_that_runs(o.backend, n_states, POSEIDON2_GPU_CROSSOVER_STATES);
  poseidon2_permute_batch(states, o.width, o.constants, ran);
  std::string out;
  for (size_t i = 0; i < states.size(); ++i) {
    out += std::to_string(states[i].canonical());
    out += (i + 1) % o.width == 0 ? '\n' : ' ';
  }
  return finish_items("poseidon2 permute", out, n_states, 0, ran);
}
}  // namespace

void add_poseidon2_command(CLI::App& app) {
  auto* p2 = app.add_subcommand("poseidon2", "Poseidon2 over BabyBear");
  p2->require_subcommand(1);
  auto* perm = p2->add_subcommand("permute", "Permute states read from stdin (one per line, canonical decimals)");
  auto o = std::make_shared<PermuteOptions>();
  add_choice(perm, "--width", o->width, {{"16", 16}, {"24", 24}}, "State width");
  add_choice(perm, "--constants", o->constants,
             {{"plonky3", Poseidon2Constants::Plonky3}, {"whir", Poseidon2Constants::Whir}},
             "Round constants: plonky3 (Plonky3's default set) or whir (SmallRng seed 1)");
  add_common_options(perm, {.backend = &o->backend});
  perm->callback([o] { check_rc(run_permute(*o)); });
}

}  // namespace zkgpu::cli
