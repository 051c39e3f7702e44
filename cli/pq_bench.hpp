// Throughput-vs-batch-size measurement shared by `zkgpu mlkem bench` and `zkgpu mldsa bench`,
// and the subcommand wiring the two commands share.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "options.hpp"

namespace zkgpu::cli {

// Limits of the bench flags, checked when the flags are parsed (before anything is allocated):
// the largest batch needs about 2^20 times 12 KB of buffers for ML-DSA-87.
inline constexpr size_t PQ_BENCH_MAX_BATCH = size_t{1} << 20;
inline constexpr int PQ_BENCH_MAX_THREADS = 4096;
inline constexpr double PQ_BENCH_MAX_MIN_TIME_S = 3600;

struct PqBenchOptions {
  std::string set = "all";      // a parameter set's name, or all
  std::vector<size_t> batches;  // empty: the default list (or the quick one)
  int threads = 0;              // 0: all OpenMP threads
  double min_time_s = 0.3;
  BenchBackend backend = BenchBackend::Cpu;
  bool quick = false, json = false;
};

struct PqBenchRow {
  std::string set, op, backend;
  size_t batch = 0;
  int threads = 1;
  double ops_per_s = 0, us_per_op = 0;
};

// Adds the common flags to a `bench` subcommand; `sets` are the names --set takes besides all.
void add_pq_bench_flags(CLI::App* cmd, PqBenchOptions& o, const std::vector<std::string>& sets);

// The backends to measure, a pass each: the CPU and a usable GPU for all, else the one asked for
// (Auto: the callers resolve it per operation and batch). Error(Unavailable) for cuda without a
// usable GPU.
std::vector<Backend> pq_bench_backends(const PqBenchOptions& o, const std::string& command);

// The batch sizes to run (from the options), and the OpenMP thread count applied.
std::vector<size_t> pq_bench_batches(const PqBenchOptions& o);
int pq_bench_apply_threads(const PqBenchOptions& o);

// Calls run_batch() (one batch of `batch` operations on backend `ran`) until min_time has passed,
// after a warm-up call, and returns the row.
PqBenchRow pq_bench_measure(const PqBenchOptions& o, const std::string& set, const std::string& op, size_t batch,
                            int threads, Backend ran, const std::function<void()>& run_batch);

// Prints the rows as a table or, with --json, one JSON document.
void pq_bench_print(const PqBenchOptions& o, const std::string& kind, const std::vector<PqBenchRow>& rows);

// `zkgpu mlkem|mldsa NAME` over lines of stdin: --set (one of `sets`) and --backend into an
// Options (members `set` and `backend`), then fn's exit status.
template <class Options, class Set>
void add_pq_line_command(CLI::App* parent, const char* name, const char* help, const Names<Set>& sets,
                         const char* set_help, int (*fn)(const Options&)) {
  auto* c = parent->add_subcommand(name, help);
  auto o = std::make_shared<Options>();
  add_choice(c, "--set", o->set, sets, set_help);
  add_common_options(c, {.backend = &o->backend});
  c->callback([fn, o] { check_rc(fn(*o)); });
}

// `zkgpu mlkem|mldsa bench`: the bench flags (--set takes the names of `sets` or all), then run's
// exit status.
template <class Set>
void add_pq_bench_command(CLI::App* parent, const char* help, const Names<Set>& sets,
                          int (*run)(const PqBenchOptions&)) {
  auto o = std::make_shared<PqBenchOptions>();
  auto* bench = parent->add_subcommand("bench", help);
  std::vector<std::string> names;
  for (const auto& entry : sets) names.push_back(entry.first);
  add_pq_bench_flags(bench, *o, names);
  bench->callback([o, run] { check_rc(run(*o)); });
}

}  // namespace zkgpu::cli
