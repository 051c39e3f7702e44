#include "options.hpp"

#include "zkgpu/status.hpp"

namespace zkgpu::cli {

const Names<Backend>& backend_names() {
  static const Names<Backend> names = {{"auto", Backend::Auto}, {"cpu", Backend::Cpu}, {"cuda", Backend::Cuda}};
  return names;
}

const Names<BenchBackend>& bench_backend_names() {
  static const Names<BenchBackend> names = {{"all", BenchBackend::All},
                                            {"auto", BenchBackend::Auto},
                                            {"cpu", BenchBackend::Cpu},
                                            {"cuda", BenchBackend::Cuda}};
  return names;
}

bool bench_runs_cpu(BenchBackend requested, uint64_t work, uint64_t crossover) {
  switch (requested) {
    case BenchBackend::All:
    case BenchBackend::Cpu: return true;
    case BenchBackend::Cuda: return false;
    case BenchBackend::Auto: return resolve_backend(Backend::Auto, work, crossover) == Backend::Cpu;
  }
  return true;
}

bool bench_runs_gpu(BenchBackend requested, uint64_t work, uint64_t crossover) {
  switch (requested) {
    case BenchBackend::All: return cuda_usable();
    case BenchBackend::Cpu: return false;
    case BenchBackend::Cuda: return resolve_backend(Backend::Cuda, work, crossover) == Backend::Cuda;
    case BenchBackend::Auto: return resolve_backend(Backend::Auto, work, crossover) == Backend::Cuda;
  }
  return false;
}

void require_gpu_if_asked(BenchBackend requested, const std::string& command) {
  if (requested == BenchBackend::Cuda && !cuda_usable())
    throw Error(ErrorCode::Unavailable, command + " --backend cuda: " + cuda_unavailable_reason());
}

void add_common_options(CLI::App* cmd, const CommonOptions& c) {
  const std::string extra = c.backend_help.empty() ? "" : "; " + c.backend_help;
  if (c.backend)
    add_choice(cmd, "--backend", *c.backend, backend_names(),
               "Where it runs: auto = the GPU from the operation's crossover up when one is usable, else the CPU; "
               "cuda without a usable GPU is an error" +
                   extra);
  if (c.bench_backend)
    add_choice(cmd, "--backend", *c.bench_backend, bench_backend_names(),
               "What is measured: all = the CPU and, when one is usable, the GPU; auto = at each size the backend "
               "auto picks there; cuda without a usable GPU is an error" +
                   extra,
               c.bench_aliases);
  if (c.json) cmd->add_flag("--json", *c.json, c.json_help);
  if (c.runs) cmd->add_option("--runs", *c.runs, c.runs_help)->check(CLI::Range(1, c.max_runs));
}

}  // namespace zkgpu::cli
