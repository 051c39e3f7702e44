// The option vocabulary the commands share. A choice option (a backend, a mode, a parameter set)
// is parsed by CLI11 through a CheckedTransformer over its table of names, so --help lists the
// names and CLI11 rejects any other value with a message naming the choices (exit status 2).
// --backend means the same everywhere: auto|cpu|cuda, and for benchmarks also all.
#pragma once
#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

// The names of a choice option and the values they select, in the order --help lists them.
template <class T>
using Names = std::vector<std::pair<std::string, T>>;

// The name of `value` in `names` ("" when it has none).
template <class T>
std::string name_of(const Names<T>& names, const T& value) {
  for (const auto& [name, v] : names)
    if (v == value) return name;
  return {};
}

// Adds `flag` parsed into `value` through `names`; `aliases` are older spellings that select the
// same values (the help text should say so). The default shown by --help is the name of `value`.
template <class T>
CLI::Option* add_choice(CLI::App* cmd, const std::string& flag, T& value, const Names<T>& names,
                        const std::string& help, const Names<T>& aliases = {}) {
  std::map<std::string, T> table(names.begin(), names.end());
  table.insert(aliases.begin(), aliases.end());
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : "|") + n.first;
  // The transformer alone would also accept a value's own string (an enum's number) and its
  // failure message prints the whole map; only the names are accepted here, and the message
  // lists them.
  CLI::Validator by_name(
      [table, list, to_value = CLI::CheckedTransformer(table)](std::string& in) mutable -> std::string {
        if (table.count(in) == 0) return "'" + in + "' is not one of " + list;
        return to_value(in);
      },
      "", "");
  return cmd->add_option(flag, value, help)
      ->type_name("{" + list + "}")
      ->transform(by_name)
      ->default_str(name_of(names, value));
}

// The backends of a command that runs one operation. Auto: the GPU from the operation's crossover
// up when a GPU is usable, else the CPU.
const Names<Backend>& backend_names();

// The backend an operation on `work` items runs on when `requested`: Auto resolved as the library
// resolves it (against the operation's crossover), an explicit choice unchanged (the library runs
// it or throws). The commands pass this to the library, so the backend they report is the one
// that ran.
inline Backend backend_that_runs(Backend requested, uint64_t work, uint64_t crossover) {
  if (requested == Backend::Cuda && !cuda_usable())
    throw Error(ErrorCode::Unavailable, "--backend cuda: " + cuda_unavailable_reason());
  return requested == Backend::Auto ? resolve_backend(Backend::Auto, work, crossover) : requested;
}

// The backends of a benchmark: one of the backends, or all of them side by side (the GPU only
// when one is usable). Auto: at each size, the backend Backend::Auto picks there.
enum class BenchBackend { All, Auto, Cpu, Cuda };
const Names<BenchBackend>& bench_backend_names();

// Whether a benchmark of `requested` runs the CPU / the GPU for `work` (against `crossover`, for
// Auto). Cuda without a usable GPU is Error(Unavailable) naming the reason.
bool bench_runs_cpu(BenchBackend requested, uint64_t work, uint64_t crossover);
bool bench_runs_gpu(BenchBackend requested, uint64_t work, uint64_t crossover);
// Error(Unavailable) naming cuda_unavailable_reason() for --backend cuda without a usable GPU, so a
// benchmark fails before it measures anything.
void require_gpu_if_asked(BenchBackend requested, const std::string& command);

// The options most commands share, each bound to a field of the command's own options struct:
// a non-null pointer adds that option, with the field's current value as its default.
struct CommonOptions {
  Backend* backend = nullptr;             // --backend auto|cpu|cuda
  BenchBackend* bench_backend = nullptr;  // --backend all|auto|cpu|cuda (benchmarks)
  bool* json = nullptr;                   // --json
  int* runs = nullptr;                    // --runs N, 1 <= N <= max_runs
  int max_runs = 100;
  std::string backend_help{};  // what the command adds to the description of --backend
  Names<BenchBackend> bench_aliases{};
  std::string json_help = "Print JSON";
  std::string runs_help = "Timed runs per figure (the median is reported)";
};
void add_common_options(CLI::App* cmd, const CommonOptions& c);

}  // namespace zkgpu::cli
