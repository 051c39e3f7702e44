#include <iostream>
#include <new>

#include "commands.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/version.hpp"

namespace {
// `rc` when stdout takes what the command wrote, else the write error's message and EXIT_USAGE.
int flushed_or_usage(int rc) {
  try {
    zkgpu::cli::flush_stdout();
  } catch (const zkgpu::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return zkgpu::cli::EXIT_USAGE;
  }
  return rc;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"zkgpu: fast zero-knowledge cryptography on CPUs and NVIDIA GPUs"};
  app.set_version_flag("--version", std::string("zkgpu ") + zkgpu::version());
  app.require_subcommand(1);
  // Before the subcommands are added: they copy the option defaults of their parent.
  app.option_defaults()->always_capture_default();
  zkgpu::cli::add_info_command(app);
  zkgpu::cli::add_poseidon2_command(app);
  zkgpu::cli::add_bench_command(app);
  zkgpu::cli::add_whir_command(app);
  zkgpu::cli::add_mlkem_command(app);
  zkgpu::cli::add_mldsa_command(app);
  zkgpu::cli::add_ed25519_command(app);
  zkgpu::cli::add_msm_command(app);
  // After the subcommands: they would inherit it.
  app.footer(
      "--backend is auto|cpu|cuda on every command that runs an operation (auto: the GPU from the operation's "
      "crossover up when one is usable; cuda without a usable GPU is an error, never a silent CPU run), and "
      "all|auto|cpu|cuda on benchmarks. Each command says which backend ran (`backend: ...` on stderr after line "
      "output, or in its table or JSON).\nExit status: 0 done (every item valid), 1 some item rejected, 2 usage or "
      "input error. `zkgpu COMMAND --help` describes a command.");
  // Every failure ends here with a message and exit status 2 (README, "Exit status"); nothing
  // escapes main, so no input aborts the process.
  try {
    app.parse(argc, argv);
    zkgpu::cli::flush_stdout();
  } catch (const CLI::RuntimeError& e) {  // a subcommand's own exit status, once its output is out
    return flushed_or_usage(e.get_exit_code());
  } catch (const CLI::ParseError& e) {  // bad flags: CLI11 prints the reason (--help: the help)
    const int rc = app.exit(e);
    return rc == 0 ? flushed_or_usage(zkgpu::cli::EXIT_OK) : zkgpu::cli::EXIT_USAGE;
  } catch (const zkgpu::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return zkgpu::cli::EXIT_USAGE;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of host memory (the input or the requested size is too large for this machine)\n";
    return zkgpu::cli::EXIT_USAGE;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return zkgpu::cli::EXIT_USAGE;
  }
  return zkgpu::cli::EXIT_OK;
}
