// Each subcommand registers itself on the CLI11 app; main() only wires them together.
#pragma once
#include <CLI/CLI.hpp>

namespace zkgpu::cli {

void add_info_command(CLI::App& app);
void add_poseidon2_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_whir_command(CLI::App& app);
void add_mlkem_command(CLI::App& app);
void add_mldsa_command(CLI::App& app);
void add_ed25519_command(CLI::App& app);
void add_msm_command(CLI::App& app);  // also registers `padd`

// Exit status for usage errors and unparsable input (0 = success, 1 = a verdict of "no").
inline constexpr int EXIT_USAGE = 2;

}  // namespace zkgpu::cli
