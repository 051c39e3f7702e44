// `zkgpu msm run|generate|bench` and `zkgpu padd bench` for BLS12-377 G1.
//   msm run: reads lines x:y:s / infinity:s from stdin, prints the MSM as lowercase hex x:y
//            (no leading zeros) or "infinity"; a bad line is an error naming it (exit 2); no
//            points (empty input) gives "infinity" and a notice on stderr.
//   msm generate: random x:y:s lines (points of G1, canonical scalars) from a seed, input for run.
//   msm bench: CPU backend, GPU with bases resident on the device (scalars from host memory each
//            run) and GPU with bases and scalars from host memory, for each --log-n; --phases adds
//            one more MSM per column and prints where its time went on stderr.
//   padd bench: mixed twisted-Edwards additions (the MSM accumulation step) in the terms of the
//            Versal AI-Engine paper: throughput (M PADD/s) and latency of a dependent chain (us);
//            the GMP-based CPU baseline is in zkgpu_bench (BM_PaddGmp*), next to the same rows.
#include <nlohmann/json.hpp>
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench_support/msm_inputs.hpp"
#include "bench_support/msm_timing.hpp"
#include "bench_support/padd_gpu.hpp"
#include "commands.hpp"
#include "io/msm_line.hpp"
#include "options.hpp"
#include "timing.hpp"
#include "zkgpu/msm.hpp"
#include "zkgpu/profile.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {

namespace {
using namespace zkgpu::bls12_377;

// The one curve there is; --curve names it so that scripts stay valid when others come.
const Names<std::string>& curve_names() {
  static const Names<std::string> names = {{"bls12-377", "bls12-377"}};
  return names;
}

struct RunOptions {
  std::string curve = "bls12-377";
  unsigned window = 0;
  Backend backend = Backend::Auto;
};

int run_msm(const RunOptions& o) {
  std::vector<G1Affine> points;
  std::vector<Scalar> scalars;
  std::vector<size_t> line_of;
  std::string line, err;
  for (size_t lineno = 1; std::getline(std::cin, line); ++lineno) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines are allowed
    G1Affine p;
    Scalar s;
    if (!parse_msm_line(line, p, s, err)) {
      std::cerr << "error: line " << lineno << ": " << err << "\n";
      return EXIT_USAGE;
    }
    if (points.size() == MSM_MAX_POINTS) {
      std::cerr << "error: line " << lineno << ": more than 2^26 points\n";
      return EXIT_USAGE;
    }
    points.push_back(p);
    scalars.push_back(s);
    line_of.push_back(lineno);
  }
  // Subgroup checks in parallel (one scalar multiplication by r each); report the first bad line.
  size_t bad = points.size();
#pragma omp parallel for schedule(dynamic, 64) reduction(min : bad)
  for (size_t i = 0; i < points.size(); ++i)
    if (!in_subgroup(points[i])) bad = std::min(bad, i);
  if (bad != points.size()) {
    std::cerr << "error: line " << line_of[bad] << ": point is not in the prime-order subgroup G1\n";
    return EXIT_USAGE;
  }
  MsmOptions opt;
  opt.backend = backend_that_runs(o.backend, points.size(), MSM_GPU_CROSSOVER_POINTS);
  opt.window_bits = o.window;
  const G1Affine r = msm(points, scalars, opt);
  return finish_items("msm run", r.infinity ? "infinity\n" : to_hex(r.x) + ":" + to_hex(r.y) + "\n", points.size(), 0,
                      opt.backend);
}

struct GenerateOptions {
  size_t count = 1024;
  uint64_t seed = 1;
};

int run_generate(const GenerateOptions& o) {
  const std::vector<G1Affine> points = random_g1_points(o.count, o.seed);
  const std::vector<Scalar> scalars = random_scalars(o.count, o.seed + 1);
  std::string out;
  for (size_t i = 0; i < o.count; ++i)
    out += (points[i].infinity ? std::string("infinity") : to_hex(points[i].x) + ":" + to_hex(points[i].y)) + ":" +
           to_hex(scalars[i]) + "\n";
  write_stdout(out);
  return EXIT_OK;
}

struct BenchOptions {
  std::string curve = "bls12-377", log_n = "16..24";
  BenchBackend backend = BenchBackend::All;
  bool json = false, quick = false, phases = false;
  int runs = 3;
  unsigned cpu_max_log = 20, window = 0;
};

// One line on stderr: each phase's milliseconds summed over its repeats (the GPU's slices), in the
// order they first ran.
void print_phases(const char* what, unsigned lg, const PhaseTimes& t) {
  std::fprintf(stderr, "msm phases ms, %s, 2^%u:", what, lg);
  for (const PhaseSum& e : sum_phases_by_name(t)) std::fprintf(stderr, " %s %.2f", e.name.c_str(), e.ms);
  std::fprintf(stderr, " | sum %.2f wall %.2f\n", t.device_ms(), t.wall_ms);
}

// A log size of the bench: digits only (no sign, no space), 1..MSM_BENCH_MAX_LOG_N.
constexpr unsigned MSM_BENCH_MAX_LOG_N = 26;
std::optional<unsigned> parse_log_n(std::string_view s) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 1 || v > MSM_BENCH_MAX_LOG_N) return std::nullopt;
  return v;
}

// N or A..B with A <= B.
bool parse_range(const std::string& s, unsigned& lo, unsigned& hi) {
  const size_t dots = s.find("..");
  const auto a = parse_log_n(std::string_view(s).substr(0, dots));
  const auto b = dots == std::string::npos ? a : parse_log_n(std::string_view(s).substr(dots + 2));
  if (!a || !b || *a > *b) return false;
  lo = *a;
  hi = *b;
  return true;
}

int bench_msm(const BenchOptions& o) {
  unsigned lo = 0, hi = 0;
  if (!parse_range(o.quick ? "10..12" : o.log_n, lo, hi)) {
    std::cerr << "error: --log-n must be N or A..B with 1 <= A <= B <= " << MSM_BENCH_MAX_LOG_N << "\n";
    return EXIT_USAGE;
  }
  const BenchBackend backend = o.backend;
  const bool json = o.json;
  const int runs = o.runs;
  require_gpu_if_asked(backend, "msm bench");
  const bool gpu_shown = backend != BenchBackend::Cpu && cuda_usable();
  nlohmann::json rows = nlohmann::json::array();
  if (!json) {
    std::printf("BLS12-377 G1 MSM; CPU: %d threads; GPU: %s\n", omp_get_max_threads(),
                gpu_shown ? gpu_info()->name.c_str() : "none");
    std::printf("%-6s %12s %14s %16s %14s\n", "log n", "CPU ms", "GPU resident", "GPU from host", "CPU TE prep ms");
  }
  const size_t max_n = size_t{1} << hi;
  std::vector<G1Affine> all_points = random_g1_points(max_n, 1);
  std::vector<Scalar> all_scalars = random_scalars(max_n, 2);
  for (unsigned lg = lo; lg <= hi; ++lg) {
    const size_t n = size_t{1} << lg;
    std::span<const G1Affine> pts(all_points.data(), n);
    std::span<const Scalar> sc(all_scalars.data(), n);
    double prep = -1, cpu = -1, resident = -1, from_host = -1;
    std::vector<TePrecomputed> te;
    prep = time_median_ms(1, [&] { te = precompute_te(pts); });
    MsmBases bases(pts, false);
    G1Affine cpu_result{};
    if (bench_runs_cpu(backend, n, MSM_GPU_CROSSOVER_POINTS) && lg <= o.cpu_max_log) {
      MsmOptions opt;
      opt.backend = Backend::Cpu;
      opt.window_bits = std::min(o.window, MSM_CPU_MAX_WINDOW_BITS);
      cpu = time_median_ms(runs, [&] { cpu_result = msm(bases, sc, opt); });
      if (o.phases) {  // CPU time summed over the threads
        PhaseTimes t;
        (void)msm(bases, sc, {.backend = Backend::Cpu, .window_bits = opt.window_bits, .phase_times = &t});
        print_phases("CPU (thread time)", lg, t);
      }
    }
#if ZKGPU_HAVE_CUDA
    if (bench_runs_gpu(backend, n, MSM_GPU_CROSSOVER_POINTS)) {
      MsmOptions opt;
      opt.backend = Backend::Cuda;
      opt.window_bits = o.window;
      G1Affine gpu_result = msm(bases, sc, opt);  // uploads the bases once
      resident = median(bench::time_msm_resident(bases, sc, o.window, runs));
      from_host = median(bench::time_msm_from_host(pts, sc, o.window, runs));
      if (cpu >= 0 && !(gpu_result == cpu_result))
        throw std::runtime_error("msm bench: GPU and CPU MSM results differ at 2^" + std::to_string(lg));
      if (o.phases) {
        PhaseTimes r, h;
        (void)msm(bases, sc, {.backend = Backend::Cuda, .window_bits = o.window, .phase_times = &r});
        (void)msm(pts, sc, {.backend = Backend::Cuda, .window_bits = o.window, .phase_times = &h});
        print_phases("GPU resident", lg, r);
        print_phases("GPU from host", lg, h);
      }
    }
#endif
    if (json) {
      auto opt = [](double v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
      rows.push_back({{"curve", "bls12-377"},
                      {"log_n", lg},
                      {"cpu_ms", opt(cpu)},
                      {"gpu_resident_ms", opt(resident)},
                      {"gpu_from_host_ms", opt(from_host)},
                      {"te_precompute_ms", prep},
                      {"cpu_threads", omp_get_max_threads()}});
    } else {
      std::printf("%-6u %12s %14s %16s %14s\n", lg, format_time(cpu).c_str(), format_time(resident).c_str(),
                  format_time(from_host).c_str(), format_time(prep).c_str());
    }
  }
  if (json) {
    nlohmann::json j;
    j["benchmark"] = "msm";
    j["backend"] = name_of(bench_backend_names(), backend);
    j["gpu"] = gpu_shown ? nlohmann::json(gpu_info()->name) : nlohmann::json(nullptr);
    j["rows"] = rows;
    std::cout << j.dump(2) << "\n";
  }
  return 0;
}

std::string fmt_rate(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

struct PaddOptions {
  bool json = false, quick = false;
};

int bench_padd(const PaddOptions& o) {
  const size_t nb = o.quick ? 1024 : size_t{1} << 20;
  std::vector<TePrecomputed> bases = precompute_te(random_g1_points(nb, 3));
  struct Row {
    std::string design;
    double mpadd_s, latency_us;
    std::string note;
  };
  std::vector<Row> rows;
  const size_t cpu_adds = o.quick ? 8000 : 800000;
  TeExtended chain_end{};
  const double cpu_lat = padd_cpu_latency_us(bases, cpu_adds, &chain_end);
  rows.push_back({"zkgpu CPU, 1 thread", padd_cpu_throughput(bases, 1, cpu_adds) / 1e6, cpu_lat, "measured"});
  const unsigned threads = static_cast<unsigned>(omp_get_max_threads());
  rows.push_back({"zkgpu CPU, " + std::to_string(threads) + " threads",
                  padd_cpu_throughput(bases, threads, cpu_adds) / 1e6, cpu_lat, "measured (latency: one thread)"});
  if (const double r1 = padd_cpu_throughput_ifma(bases, 1, cpu_adds); r1 > 0) {
    rows.push_back({"zkgpu CPU, AVX-512 IFMA x8, 1 thread", r1 / 1e6, cpu_lat, "measured (latency: scalar chain)"});
    rows.push_back({"zkgpu CPU, AVX-512 IFMA x8, " + std::to_string(threads) + " threads",
                    padd_cpu_throughput_ifma(bases, threads, cpu_adds) / 1e6, cpu_lat,
                    "measured (latency: scalar chain)"});
    // One addition's products on the lanes: the latency design (its throughput is 1 / latency).
    TeExtended lanes_end{};
    const double lanes_lat = padd_cpu_latency_ifma_us(bases, cpu_adds, &lanes_end);
    if (!(lanes_end.x == chain_end.x && lanes_end.y == chain_end.y && lanes_end.z == chain_end.z &&
          lanes_end.t == chain_end.t))
      throw std::runtime_error("padd bench: IFMA lanes chain differs from the scalar chain");
    rows.push_back(
        {"zkgpu CPU, AVX-512 IFMA lanes, 1 thread", 1.0 / lanes_lat, lanes_lat, "measured (one dependent chain)"});
  }
#if ZKGPU_HAVE_CUDA
  if (cuda_usable()) {
    const size_t threads_gpu = o.quick ? 4096 : size_t{1} << 20, adds = o.quick ? 16 : 256;
    TeExtended g{};
    const std::span<const TePrecomputed> used(bases.data(), nb);
    double rate = bench::padd_throughput(used, threads_gpu, adds, &g);
    double lat = bench::padd_latency_us(used, o.quick ? 1000 : 20000, &g);
    rows.push_back({"zkgpu GPU (" + gpu_info()->name + ")", rate / 1e6, lat, "measured"});
  }
#endif
  rows.push_back({"AI Engine, Versal VCK190 (paper)", 68.4, 1.06, "published"});
  rows.push_back({"BSTMSM FPGA, Alveo U250 (paper)", 600.0, 0.87, "published"});
  rows.push_back({"GMP CPU on VCK190 (paper)", 0.12, 9.88, "published; our GMP row: zkgpu_bench BM_PaddGmp"});
  if (o.json) {
    nlohmann::json j;
    j["benchmark"] = "padd";
    j["operation"] = "BLS12-377 twisted-Edwards mixed addition (7M, extended + precomputed affine)";
    for (auto& r : rows)
      j["rows"].push_back(
          {{"design", r.design}, {"mpadd_per_s", r.mpadd_s}, {"latency_us", r.latency_us}, {"source", r.note}});
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("%-40s %14s %12s  %s\n", "design", "M PADD/s", "latency us", "source");
    for (auto& r : rows)
      std::printf("%-40s %14s %12s  %s\n", r.design.c_str(), fmt_rate(r.mpadd_s).c_str(),
                  format_time(r.latency_us).c_str(), r.note.c_str());
  }
  return 0;
}

}  // namespace

void add_msm_command(CLI::App& app) {
  auto* m = app.add_subcommand("msm", "Multi-scalar multiplication on BLS12-377 G1");
  m->require_subcommand(1);
  auto ro = std::make_shared<RunOptions>();
  auto* run = m->add_subcommand("run", "MSM of lines x:y:s / infinity:s (hex) read from stdin; prints x:y or infinity");
  add_choice(run, "--curve", ro->curve, curve_names(), "Curve");
  add_common_options(run, {.backend = &ro->backend});
  run->add_option("--window", ro->window, "Window bits (0 = chosen from the point count)")->check(CLI::Range(0, 20));
  run->callback([ro] { check_rc(run_msm(*ro)); });

  auto go = std::make_shared<GenerateOptions>();
  auto* gen =
      m->add_subcommand("generate", "Print random x:y:s lines (points of G1, scalars below r): input for `run`");
  gen->add_option("--count", go->count, "Points")->check(CLI::Range(size_t{0}, size_t{MSM_MAX_POINTS}));
  gen->add_option("--seed", go->seed, "Seed of the points and scalars");
  gen->callback([go] { check_rc(run_generate(*go)); });

  auto bo = std::make_shared<BenchOptions>();
  auto* bench = m->add_subcommand("bench", "MSM timings: CPU, GPU with resident bases, GPU from host memory");
  add_choice(bench, "--curve", bo->curve, curve_names(), "Curve");
  bench->add_option("--log-n", bo->log_n, "Sizes: N or A..B (log2 of the point count)");
  add_common_options(bench, {.bench_backend = &bo->backend,
                             .json = &bo->json,
                             .runs = &bo->runs,
                             .max_runs = 100,
                             .json_help = "Print JSON instead of a table",
                             .runs_help = "Timed runs per size (median)"});
  bench->add_option("--cpu-max-log-n", bo->cpu_max_log, "Largest size also run on the CPU")
      ->check(CLI::Range(1u, MSM_BENCH_MAX_LOG_N));
  bench->add_option("--window", bo->window, "Window bits (0 = chosen from the point count; the CPU caps it at 16)")
      ->check(CLI::Range(0, 20));
  bench->add_flag("--quick", bo->quick, "Tiny sizes (2^10..2^12), for smoke tests");
  bench->add_flag("--phases", bo->phases, "One more MSM per column, its phase times on stderr");
  bench->callback([bo] { check_rc(bench_msm(*bo)); });

  auto* p = app.add_subcommand("padd", "BLS12-377 point-addition benchmark");
  p->require_subcommand(1);
  auto po = std::make_shared<PaddOptions>();
  auto* pb = p->add_subcommand("bench", "Mixed TE additions: throughput (M PADD/s) and dependent-chain latency (us)");
  add_common_options(pb, {.json = &po->json, .json_help = "Print JSON instead of a table"});
  pb->add_flag("--quick", po->quick, "Tiny sizes, for smoke tests");
  pb->callback([po] { check_rc(bench_padd(*po)); });
}

}  // namespace zkgpu::cli
