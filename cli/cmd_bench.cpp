// `zkgpu bench ntt|poseidon2|merkle|pow|all`: the primitives side by side in one run — our CPU
// backend (all threads), the GPU with data resident on the device, and the GPU called from host
// memory (transfers included) — as a table or JSON, with each GPU figure as a fraction of its
// physical limit on the reference H200.
#include <nlohmann/json.hpp>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "zkgpu/challenger.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/poseidon2.hpp"
#include "bench_support/internals.hpp"
#include "timing.hpp"
#if ZKGPU_HAVE_CUDA
#include "bench_support/gpu_timing.hpp"
#endif

namespace zkgpu::cli {

namespace {

// Ceilings measured on the reference H200 (DEVELOPERS guide): copy bandwidth and BabyBear
// Montgomery multiplications per second.
constexpr double H200_COPY_BYTES_PER_S = 4.0e12;
constexpr double H200_MONT_MULS_PER_S = 2.6e12;

// Montgomery multiplications in one permutation: 4 per S-box (8 full rounds of W, one S-box per
// partial round); the internal diagonal is multiplied with shifts and adds, so it is not counted.
// A strict ceiling: additions are free in it.
// Montgomery products of one permutation as our kernels compute it: the S-boxes (x^7: 4, x^3: 2)
// of the full and partial rounds, plus, for fields other than BabyBear (whose diagonal is shifts),
// the internal diagonal's W products per partial round.
template <class F = BabyBear>
constexpr double poseidon2_mults(int w) {
  const double sbox = F::SBOX_DEGREE == 7 ? 4 : 2;
  const double rp = w == 16 ? POSEIDON2_PARTIAL_ROUNDS<F, 16> : POSEIDON2_PARTIAL_ROUNDS<F, 24>;
  return 8.0 * w * sbox + rp * sbox + (std::is_same_v<F, BabyBear> ? 0 : rp * w);
}

struct Row {
  std::string op, size;
  double cpu_ms = -1, gpu_ms = -1, gpu_host_ms = -1;  // -1: not measured
  double work = 0;                                    // items (elements, permutations) per run, for rates
  std::string unit;                                   // what `work` counts
  double gpu_floor_ms = -1;                           // the physical-limit time for the GPU figure
  std::string limit;                                  // which limit
};

struct Options {
  std::string what = "all";
  bool quick = false, json = false;
  int runs = 5;
};

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? -1 : s / double(v.size());
}

std::vector<BabyBear> random_fes(size_t n, uint64_t seed) {
  std::vector<BabyBear> v(n);
  std::mt19937_64 g(seed);
  for (auto& x : v) x = BabyBear::from_canonical(static_cast<uint32_t>(g() % BabyBear::P));
  return v;
}

bool gpu() { return cuda_usable(); }

void bench_ntt(const Options& o, std::vector<Row>& rows) {
  std::vector<std::pair<unsigned, size_t>> shapes =
      o.quick ? std::vector<std::pair<unsigned, size_t>>{{12, 1}, {16, 1}}
              : std::vector<std::pair<unsigned, size_t>>{{16, 1}, {20, 1}, {22, 1}, {24, 1}, {26, 1}, {20, 16}};
  for (const auto& shape : shapes) {
    const unsigned log_n = shape.first;  // not a structured binding: the lambdas below capture it
    const size_t cols = shape.second;
    Row r;
    r.op = "ntt forward";
    r.size = "2^" + std::to_string(log_n) + " x " + std::to_string(cols);
    r.work = double(cols) * double(size_t(1) << log_n);
    r.unit = "elements";
    auto data = random_fes(size_t(r.work), log_n);
    r.cpu_ms =
        time_median_ms(o.runs, [&] { ntt(data, log_n, cols, NttDirection::Forward, BabyBear::one(), Backend::Cpu); });
#if ZKGPU_HAVE_CUDA
    if (gpu()) {
      r.gpu_ms = median(bench::time_ntt_device(log_n, cols, false, 2, o.runs));
      r.gpu_host_ms = time_median_ms(
          o.runs, [&] { ntt(data, log_n, cols, NttDirection::Forward, BabyBear::one(), Backend::Cuda); });
    }
#endif
    r.gpu_floor_ms = 2 * 4 * r.work / H200_COPY_BYTES_PER_S * 1e3;
    r.limit = "one read + one write at 4 TB/s";
    rows.push_back(r);
  }
}

// One row per width and field: BabyBear with the WHIR set, KoalaBear with Plonky3's default set
// (its CPU path is the scalar permutation on every thread; BabyBear's has SIMD lanes).
template <class F, class Constants>
void bench_poseidon2_field(const Options& o, std::vector<Row>& rows, const char* name, Constants constants) {
  for (int w : {16, 24}) {
    Row r;
    r.op = "poseidon2 w" + std::to_string(w) + name;
    size_t cpu_n = o.quick ? 1 << 12 : 1 << 20;
    r.size = std::to_string(cpu_n) + " states (GPU " + (o.quick ? "2^12" : "2^24") + ")";
    r.work = double(cpu_n);
    r.unit = "permutations";
    std::vector<F> states(cpu_n * size_t(w));
    std::mt19937_64 g(static_cast<uint64_t>(w));
    for (auto& x : states) x = F::from_canonical(static_cast<uint32_t>(g() % F::P));
    const std::span<F> all(states);
    r.cpu_ms = time_median_ms(o.runs, [&] { poseidon2_permute_batch(all, w, constants, {.backend = Backend::Cpu}); });
#if ZKGPU_HAVE_CUDA
    if (gpu()) {
      size_t gpu_n = o.quick ? 1 << 12 : 1 << 24;
      // Scale the resident GPU time to the CPU batch size so the columns compare the same work.
      const auto times = std::is_same_v<F, BabyBear> ? bench::time_poseidon2_device(w, gpu_n, 2, o.runs)
                                                     : bench::time_koalabear_poseidon2_device(w, gpu_n, 2, o.runs);
      r.gpu_ms = median(times) * double(cpu_n) / double(gpu_n);
      r.gpu_host_ms =
          time_median_ms(o.runs, [&] { poseidon2_permute_batch(all, w, constants, {.backend = Backend::Cuda}); });
    }
#endif
    r.gpu_floor_ms = r.work * poseidon2_mults<F>(w) / H200_MONT_MULS_PER_S * 1e3;
    r.limit = "2.6 T Montgomery mul/s";
    rows.push_back(r);
  }
}

void bench_poseidon2(const Options& o, std::vector<Row>& rows) {
  bench_poseidon2_field<BabyBear>(o, rows, "", Poseidon2Constants::Whir);
  bench_poseidon2_field<KoalaBear>(o, rows, " koalabear", KoalaBearPoseidon2Constants::Plonky3);
}

void bench_merkle(const Options& o, std::vector<Row>& rows) {
  const size_t cols = 16;
  auto params = poseidon2_params<16>(Poseidon2Constants::Whir);
  std::vector<unsigned> logs = o.quick ? std::vector<unsigned>{10} : std::vector<unsigned>{16, 20, 24};
  for (unsigned lg : logs) {
    size_t h = size_t(1) << lg;
    Row r;
    r.op = "merkle commit";
    r.size = "2^" + std::to_string(lg) + " x " + std::to_string(cols);
    r.work = double(h) * ((cols + 7) / 8) + double(h - 1);
    r.unit = "permutations";
    auto m = random_fes(h * cols, lg);
    // The hashing alone, into preallocated nodes, like the device-resident GPU figure; the public
    // MerkleTree::build also copies the matrix it keeps for openings.
    std::vector<Digest> nodes(2 * h - 1);
    r.cpu_ms =
        time_median_ms(std::min(o.runs, 3), [&] { bench::merkle_nodes_cpu(m.data(), h, cols, params, nodes.data()); });
#if ZKGPU_HAVE_CUDA
    if (gpu()) {
      r.gpu_ms = median(bench::time_merkle_device(h, cols, 2, o.runs));
      // Matrix from host memory, every node back to host memory: the same work as the CPU figure.
      r.gpu_host_ms =
          time_median_ms(o.runs, [&] { bench::merkle_nodes_gpu_from_host(m.data(), h, cols, params, nodes.data()); });
    }
#endif
    r.gpu_floor_ms = r.work * poseidon2_mults(16) / H200_MONT_MULS_PER_S * 1e3;
    r.limit = "2.6 T Montgomery mul/s";
    rows.push_back(r);
  }
}

void bench_pow(const Options& o, std::vector<Row>& rows) {
  auto params = poseidon2_params<16>(Poseidon2Constants::Whir);
  std::vector<unsigned> bit_list = o.quick ? std::vector<unsigned>{8} : std::vector<unsigned>{16, 20, 24};
  for (unsigned bits : bit_list) {
    Row r;
    r.op = "pow grind";
    r.size = std::to_string(bits) + " bits";
    r.unit = "permutations";
    r.work = double(uint64_t(1) << bits);  // expected candidates per witness
    // Each run grinds a different challenge. The number of candidates tried is geometric, so the
    // expected time is the MEAN over runs (a median would flatter by ~30%).
    const int runs = std::max(o.runs, 16);
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
      DuplexChallenger ch(params);
      ch.observe(BabyBear::from_canonical(uint32_t(1000 + i + 100 * bits)));
      auto a = std::chrono::steady_clock::now();
      (void)ch.grind(bits, Backend::Cpu, true);
      t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    r.cpu_ms = mean(t);
#if ZKGPU_HAVE_CUDA
    if (gpu()) r.gpu_ms = mean(bench::time_pow_device(bits, 2, runs));
#endif
    r.gpu_floor_ms = r.work * poseidon2_mults(16) / H200_MONT_MULS_PER_S * 1e3;
    r.limit = "2.6 T Montgomery mul/s";
    rows.push_back(r);
  }
}

std::string fmt_ratio(double x) {
  if (x <= 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.1fx", x);
  return b;
}

void print_table(const std::vector<Row>& rows) {
  std::printf("CPU backend: %d threads, %s; GPU: %s\n", omp_get_max_threads(), to_string(simd_level()),
              gpu() ? gpu_info()->name.c_str() : "none");
  std::printf("%-23s %-26s %12s %12s %14s %9s %11s\n", "operation", "size", "CPU ms", "GPU ms", "GPU+copy ms",
              "GPU/CPU", "GPU % limit");
  for (auto& r : rows) {
    std::string pct = "-";
    if (r.gpu_ms > 0) {
      char b[32];
      std::snprintf(b, sizeof b, "%.0f%%", 100.0 * r.gpu_floor_ms / r.gpu_ms);
      pct = b;
    }
    std::printf("%-23s %-26s %12s %12s %14s %9s %11s\n", r.op.c_str(), r.size.c_str(), format_time(r.cpu_ms).c_str(),
                format_time(r.gpu_ms).c_str(), format_time(r.gpu_host_ms).c_str(),
                fmt_ratio(r.gpu_ms > 0 ? r.cpu_ms / r.gpu_ms : -1).c_str(), pct.c_str());
  }
}

void print_json(const std::vector<Row>& rows) {
  nlohmann::json j;
  j["cpu_threads"] = omp_get_max_threads();
  j["simd"] = to_string(simd_level());
  j["cpu_model"] = cpu_features().model;
  j["gpu"] = gpu() ? nlohmann::json(gpu_info()->name) : nlohmann::json(nullptr);
  for (auto& r : rows) {
    nlohmann::json x = {{"operation", r.op}, {"size", r.size},   {"work", r.work},
                        {"unit", r.unit},    {"limit", r.limit}, {"gpu_floor_ms", r.gpu_floor_ms}};
    auto opt = [&](const char* k, double v) { x[k] = v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
    opt("cpu_ms", r.cpu_ms);
    opt("gpu_ms", r.gpu_ms);
    opt("gpu_with_copies_ms", r.gpu_host_ms);
    if (r.cpu_ms > 0) x["cpu_per_s"] = r.work / r.cpu_ms * 1e3;
    if (r.gpu_ms > 0) {
      x["gpu_per_s"] = r.work / r.gpu_ms * 1e3;
      x["gpu_over_cpu"] = r.cpu_ms / r.gpu_ms;
      x["gpu_fraction_of_limit"] = r.gpu_floor_ms / r.gpu_ms;
    }
    j["results"].push_back(x);
  }
  std::cout << j.dump(2) << "\n";
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* b = app.add_subcommand("bench", "Benchmark primitives: CPU backend vs GPU, side by side");
  auto o = std::make_shared<Options>();
  add_choice(b, "what", o->what,
             {{"ntt", "ntt"}, {"poseidon2", "poseidon2"}, {"merkle", "merkle"}, {"pow", "pow"}, {"all", "all"}},
             "Which primitives");
  b->add_flag("--quick", o->quick, "Small sizes (seconds; for smoke tests and the demo)");
  add_common_options(
      b, {.json = &o->json, .runs = &o->runs, .max_runs = 1000, .json_help = "Print JSON instead of a table"});
  b->callback([o] {
    const std::string& what = o->what;
    std::vector<Row> rows;
    if (what == "ntt" || what == "all") bench_ntt(*o, rows);
    if (what == "poseidon2" || what == "all") bench_poseidon2(*o, rows);
    if (what == "merkle" || what == "all") bench_merkle(*o, rows);
    if (what == "pow" || what == "all") bench_pow(*o, rows);
    if (o->json)
      print_json(rows);
    else
      print_table(rows);
  });
}

}  // namespace zkgpu::cli
