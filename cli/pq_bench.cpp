#include "pq_bench.hpp"

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "timing.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu::cli {

void add_pq_bench_flags(CLI::App* cmd, PqBenchOptions& o, const std::vector<std::string>& sets) {
  Names<std::string> names = {{"all", "all"}};
  for (const std::string& s : sets) names.emplace_back(s, s);
  add_choice(cmd, "--set", o.set, names, "Parameter set, or all");
  add_common_options(cmd, {.bench_backend = &o.backend, .json = &o.json});
  cmd->add_option("--batch", o.batches, "Batch sizes (default 1,16,256,4096; --quick: 1,8)")
      ->delimiter(',')
      ->check(CLI::Range(int64_t{1}, int64_t{PQ_BENCH_MAX_BATCH}))
      ->default_str("");
  cmd->add_option("--threads", o.threads, "CPU threads (0: all; 1 for the per-core figure)")
      ->check(CLI::Range(0, PQ_BENCH_MAX_THREADS));
  cmd->add_option("--min-time", o.min_time_s, "Seconds per measurement")
      ->check(CLI::Range(0.0, PQ_BENCH_MAX_MIN_TIME_S));
  cmd->add_flag("--quick", o.quick, "Tiny batches and times: a smoke test for CI");
}

std::vector<Backend> pq_bench_backends(const PqBenchOptions& o, const std::string& command) {
  require_gpu_if_asked(o.backend, command);
  switch (o.backend) {
    case BenchBackend::All:
      if (cuda_usable()) return {Backend::Cpu, Backend::Cuda};
      return {Backend::Cpu};
    case BenchBackend::Auto: return {Backend::Auto};
    case BenchBackend::Cpu: return {Backend::Cpu};
    case BenchBackend::Cuda: return {Backend::Cuda};
  }
  return {Backend::Cpu};
}

std::vector<size_t> pq_bench_batches(const PqBenchOptions& o) {
  if (!o.batches.empty()) return o.batches;
  if (o.quick) return {1, 8};
  return {1, 16, 256, 4096};
}

int pq_bench_apply_threads(const PqBenchOptions& o) {
  if (o.threads > 0) omp_set_num_threads(o.threads);
  return omp_get_max_threads();
}

PqBenchRow pq_bench_measure(const PqBenchOptions& o, const std::string& set, const std::string& op, size_t batch,
                            int threads, Backend ran, const std::function<void()>& run_batch) {
  using clock = std::chrono::steady_clock;
  const double min_time = o.quick ? 0.005 : o.min_time_s;
  run_batch();
  size_t calls = 0;
  const auto t0 = clock::now();
  double elapsed = 0;
  do {
    run_batch();
    ++calls;
    elapsed = std::chrono::duration<double>(clock::now() - t0).count();
  } while (elapsed < min_time);
  PqBenchRow r;
  r.set = set;
  r.op = op;
  r.backend = to_string(ran);
  r.batch = batch;
  r.threads = threads;
  r.ops_per_s = double(calls * batch) / elapsed;
  r.us_per_op = 1e6 / r.ops_per_s;
  return r;
}

void pq_bench_print(const PqBenchOptions& o, const std::string& kind, const std::vector<PqBenchRow>& rows) {
  if (o.json) {
    nlohmann::json j;
    j["kind"] = kind;
    j["cpu"] = cpu_features().model;
    j["rows"] = nlohmann::json::array();
    for (const auto& r : rows)
      j["rows"].push_back({{"set", r.set},
                           {"op", r.op},
                           {"backend", r.backend},
                           {"batch", r.batch},
                           {"threads", r.threads},
                           {"ops_per_s", r.ops_per_s},
                           {"us_per_op", r.us_per_op}});
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::printf("%-12s %-8s %-7s %8s %7s %14s %10s\n", "set", "op", "backend", "batch", "threads", "ops/s", "us/op");
  for (const auto& r : rows)
    std::printf("%-12s %-8s %-7s %8zu %7d %14.0f %10s\n", r.set.c_str(), r.op.c_str(), r.backend.c_str(), r.batch,
                r.threads, r.ops_per_s, format_time(r.us_per_op).c_str());
}

}  // namespace zkgpu::cli
