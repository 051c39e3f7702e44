// Each subcommand registers itself on the CLI11 app; main() only wires them together.
#pragma once
#include <CLI/CLI.hpp>

#include "cli_io.hpp"  // EXIT_OK / EXIT_REJECTED / EXIT_USAGE

namespace zkgpu::cli {

void add_info_command(CLI::App& app);
void add_poseidon2_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_whir_command(CLI::App& app);
void add_mlkem_command(CLI::App& app);
void add_mldsa_command(CLI::App& app);
void add_ed25519_command(CLI::App& app);
void add_msm_command(CLI::App& app);  // also registers `padd`

// A subcommand callback's exit status: nonzero becomes CLI::RuntimeError, which main() returns
// once the command's output is out.
inline void check_rc(int rc) {
  if (rc != 0) throw CLI::RuntimeError(rc);
}

}  // namespace zkgpu::cli
