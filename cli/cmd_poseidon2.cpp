// `zkgpu poseidon2 permute`: an interop command for scripts and cross-checks. Reads one state per
// line as whitespace-separated canonical decimals and prints the permuted states the same way
// (exit status 0; 2 for a malformed line, named; empty input gives a notice on stderr).
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/line_parse.hpp"
#include "options.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {
enum class Field { BabyBear, KoalaBear };
// One vocabulary for both fields; which sets a field has is checked when the command runs.
enum class ConstantSet { Plonky3, Whir, Xoroshiro1 };

struct PermuteOptions {
  Field field = Field::BabyBear;
  int width = 16;
  ConstantSet constants = ConstantSet::Plonky3;
  Backend backend = Backend::Auto;
};

template <class F, class Constants>
int permute_lines(const PermuteOptions& o, Constants constants) {
  std::vector<F> states;
  std::string line, err;
  for (size_t lineno = 1; std::getline(std::cin, line); ++lineno) {
    if (!parse_field_line(line, static_cast<size_t>(o.width), states, err)) {
      std::cerr << "error: line " << lineno << ": " << err << "\n";
      return EXIT_USAGE;
    }
  }
  const size_t n_states = states.size() / static_cast<size_t>(o.width);
  const Backend ran = backend_that_runs(o.backend, n_states, POSEIDON2_GPU_CROSSOVER_STATES);
  poseidon2_permute_batch(std::span<F>(states), o.width, constants, Poseidon2BatchOptions{.backend = ran});
  std::string out;
  for (size_t i = 0; i < states.size(); ++i) {
    out += std::to_string(states[i].canonical());
    out += (i + 1) % o.width == 0 ? '\n' : ' ';
  }
  return finish_items("poseidon2 permute", out, n_states, 0, ran);
}

int run_permute(const PermuteOptions& o) {
  if (o.field == Field::BabyBear) {
    if (o.constants == ConstantSet::Xoroshiro1) {
      std::cerr << "error: --constants xoroshiro1 is KoalaBear's set; BabyBear has plonky3 and whir\n";
      return EXIT_USAGE;
    }
    return permute_lines<BabyBear>(
        o, o.constants == ConstantSet::Plonky3 ? Poseidon2Constants::Plonky3 : Poseidon2Constants::Whir);
  }
  if (o.constants == ConstantSet::Whir) {
    std::cerr << "error: --constants whir is BabyBear's set (SmallRng seed 1); KoalaBear has plonky3 and "
                 "xoroshiro1\n";
    return EXIT_USAGE;
  }
  return permute_lines<KoalaBear>(o, o.constants == ConstantSet::Plonky3 ? KoalaBearPoseidon2Constants::Plonky3
                                                                         : KoalaBearPoseidon2Constants::Xoroshiro1);
}
}  // namespace

void add_poseidon2_command(CLI::App& app) {
  auto* p2 = app.add_subcommand("poseidon2", "Poseidon2 over BabyBear or KoalaBear");
  p2->require_subcommand(1);
  auto* perm = p2->add_subcommand("permute", "Permute states read from stdin (one per line, canonical decimals)");
  auto o = std::make_shared<PermuteOptions>();
  add_choice(perm, "--field", o->field, {{"babybear", Field::BabyBear}, {"koalabear", Field::KoalaBear}},
             "Field: babybear (p = 2^31 - 2^27 + 1) or koalabear (p = 2^31 - 2^24 + 1)");
  add_choice(perm, "--width", o->width, {{"16", 16}, {"24", 24}}, "State width");
  add_choice(perm, "--constants", o->constants,
             {{"plonky3", ConstantSet::Plonky3}, {"whir", ConstantSet::Whir}, {"xoroshiro1", ConstantSet::Xoroshiro1}},
             "Round constants: plonky3 (Plonky3's default set of the field), whir (BabyBear: SmallRng seed 1) "
             "or xoroshiro1 (KoalaBear: Xoroshiro128Plus seed 1)");
  add_common_options(perm, {.backend = &o->backend});
  perm->callback([o] { check_rc(run_permute(*o)); });
}

}  // namespace zkgpu::cli
