// Shared by the two ed25519 command files: the --mode names, and `zkgpu ed25519 bench`,
// registered under the ed25519 subcommand (cmd_ed25519_bench.cpp).
#pragma once
#include <CLI/CLI.hpp>

#include "options.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu::cli {
const Names<Ed25519Mode>& ed25519_mode_names();
void add_ed25519_bench_command(CLI::App& ed25519);
}  // namespace zkgpu::cli
