// `zkgpu ed25519 verify`: reads `pk:sig:msg` hex lines and prints one verdict per line (1 valid,
// 0 invalid) in input order. Exit status 0 when every signature is valid, 1 when some is not,
// 2 for usage errors, an input that is not a readable regular file and lines that cannot be
// parsed (the message names the line); empty input gives a notice on stderr.
// `zkgpu ed25519 bench` lives in cmd_ed25519_bench.cpp.
#include <fstream>
#include <cstdint>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "io/ed25519_line.hpp"
#include "ed25519_bench.hpp"
#include "runtime/env.hpp"  // parse_decimal
#include "zkgpu/ed25519.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {
struct VerifyOptions {
  std::string in = "-";
  std::string mode = "openssl";
  std::string backend = "auto";
  std::string gpu_crossover = std::to_string(ED25519_GPU_CROSSOVER_ITEMS);  // digits only (parse_decimal)
};

int run_verify(const VerifyOptions& o) {
  const auto mode = parse_ed25519_mode(o.mode);
  const auto backend = parse_backend(o.backend);
  if (!mode || !backend) {
    std::cerr << "error: --mode must be openssl, strict or zip215 and --backend cpu, cuda or auto\n";
    return EXIT_USAGE;
  }
  const auto crossover = parse_decimal(o.gpu_crossover, 0, UINT64_MAX);
  if (!crossover) {
    std::cerr << "error: --gpu-crossover '" << o.gpu_crossover
              << "': expected a decimal integer from 0 to 18446744073709551615\n";
    return EXIT_USAGE;
  }
  std::ifstream file;
  open_input_stream(o.in, "input", file);
  std::istream& in = o.in == "-" ? std::cin : file;
  ed25519::ParsedBatch batch;
  std::string line, err;
  for (size_t lineno = 1; std::getline(in, line); ++lineno) {
    if (!batch.append_line(line, err)) {
      std::cerr << "error: " << (o.in == "-" ? "stdin" : o.in) << " line " << lineno << ": " << err << "\n";
      return EXIT_USAGE;
    }
  }
  return finish_verdicts(
      "ed25519 verify", ed25519_verify_batch(batch.items(), *mode, {.backend = *backend, .gpu_crossover = *crossover}));
}
}  // namespace

void add_ed25519_command(CLI::App& app) {
  auto* ed = app.add_subcommand("ed25519", "Ed25519 signature verification");
  ed->require_subcommand(1);
  auto* verify =
      ed->add_subcommand("verify", "Verify `pk:sig:msg` hex lines; prints 1 (valid) or 0 (invalid) per line, in order");
  static VerifyOptions o;
  verify->add_option("--in", o.in, "Input file, one pk:sig:msg line per signature (- = stdin)");
  verify->add_option("--mode", o.mode, "openssl (default), strict or zip215; see docs/ed25519.md")
      ->check(CLI::IsMember({"openssl", "strict", "zip215"}));
  verify->add_option("--backend", o.backend, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  verify->add_option("--gpu-crossover", o.gpu_crossover,
                     "--backend auto verifies on the GPU from this many signatures (default " +
                         std::to_string(ED25519_GPU_CROSSOVER_ITEMS) + "; `ed25519 bench` measures it)");
  verify->callback([] {
    int rc = run_verify(o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
  add_ed25519_bench_command(*ed);
}

}  // namespace zkgpu::cli
