// `zkgpu ed25519 bench`: registered under the ed25519 subcommand (cmd_ed25519_bench.cpp).
#pragma once
#include <CLI/CLI.hpp>

namespace zkgpu::cli {
void add_ed25519_bench_command(CLI::App& ed25519);
}
