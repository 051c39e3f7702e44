// `zkgpu ed25519 verify`: reads `pk:sig:msg` hex lines and prints one verdict per line (1 valid,
// 0 invalid) in input order. Exit status 0 when every signature is valid, 1 when some is not,
// 2 for usage errors, an input that is not a readable regular file and lines that cannot be
// parsed (the message names the line); empty input gives a notice on stderr.
// `zkgpu ed25519 generate`: signed `pk:sig:msg` lines from seeded keys (libsodium), input for
// `verify` in demos and scripts.
// `zkgpu ed25519 bench` lives in cmd_ed25519_bench.cpp.
#include <sodium.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>

#include "commands.hpp"
#include "ed25519_bench.hpp"
#include "io/decimal.hpp"
#include "io/ed25519_line.hpp"
#include "io/hex_lines.hpp"
#include "options.hpp"
#include "zkgpu/ed25519.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {
struct VerifyOptions {
  std::string in = "-";
  Ed25519Mode mode = Ed25519Mode::Openssl;
  Backend backend = Backend::Auto;
  std::string gpu_crossover = std::to_string(ED25519_GPU_CROSSOVER_ITEMS);  // digits only (parse_decimal)
};

int run_verify(const VerifyOptions& o) {
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
  const Backend ran = backend_that_runs(o.backend, batch.size(), *crossover);
  return finish_verdicts("ed25519 verify", ed25519_verify_batch(batch.items(), o.mode, ran), ran);
}

struct GenerateOptions {
  size_t count = 8, msg_len = 32;
  uint64_t seed = 1;
};

int run_generate(const GenerateOptions& o) {
  if (sodium_init() < 0) throw Error(ErrorCode::Unavailable, "ed25519 generate: libsodium failed to initialise");
  std::mt19937_64 g(o.seed);
  std::string out;
  uint8_t key_seed[32], pk[32], sk[64], sig[64];
  std::vector<uint8_t> msg(o.msg_len);
  for (size_t i = 0; i < o.count; ++i) {
    for (uint8_t& b : key_seed) b = static_cast<uint8_t>(g());
    for (uint8_t& b : msg) b = static_cast<uint8_t>(g());
    crypto_sign_seed_keypair(pk, sk, key_seed);
    crypto_sign_detached(sig, nullptr, msg.data(), msg.size(), sk);
    out += to_hex(pk, 32) + ":" + to_hex(sig, 64) + ":" + to_hex(msg) + "\n";
  }
  write_stdout(out);
  return EXIT_OK;
}

// Bounds the output (a line is about 200 + 2 * msg_len characters).
constexpr size_t GENERATE_MAX_COUNT = size_t{1} << 20;
constexpr size_t GENERATE_MAX_MSG_LEN = size_t{1} << 16;
}  // namespace

const Names<Ed25519Mode>& ed25519_mode_names() {
  static const Names<Ed25519Mode> names = {
      {"openssl", Ed25519Mode::Openssl}, {"strict", Ed25519Mode::Strict}, {"zip215", Ed25519Mode::Zip215}};
  return names;
}

void add_ed25519_command(CLI::App& app) {
  auto* ed = app.add_subcommand("ed25519", "Ed25519 signature verification");
  ed->require_subcommand(1);
  auto* verify =
      ed->add_subcommand("verify", "Verify `pk:sig:msg` hex lines; prints 1 (valid) or 0 (invalid) per line, in order");
  auto o = std::make_shared<VerifyOptions>();
  verify->add_option("--in", o->in, "Input file, one pk:sig:msg line per signature (- = stdin)");
  add_choice(verify, "--mode", o->mode, ed25519_mode_names(),
             "Verification rules: those of OpenSSL, dalek's verify_strict or ZIP-215; see docs/ed25519.md");
  add_common_options(verify, {.backend = &o->backend});
  verify->add_option("--gpu-crossover", o->gpu_crossover,
                     "--backend auto verifies on the GPU from this many signatures (`ed25519 bench` measures it)");
  verify->callback([o] { check_rc(run_verify(*o)); });

  auto* gen = ed->add_subcommand(
      "generate", "Print signed pk:sig:msg lines (libsodium, keys and messages from --seed): input for `verify`");
  auto go = std::make_shared<GenerateOptions>();
  gen->add_option("--count", go->count, "Signatures")->check(CLI::Range(size_t{0}, GENERATE_MAX_COUNT));
  gen->add_option("--msg-len", go->msg_len, "Message bytes")->check(CLI::Range(size_t{0}, GENERATE_MAX_MSG_LEN));
  gen->add_option("--seed", go->seed, "Seed of the keys and messages");
  gen->callback([go] { run_generate(*go); });
  add_ed25519_bench_command(*ed);
}

}  // namespace zkgpu::cli
