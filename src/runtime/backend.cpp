#include "zkgpu/backend.hpp"

#include <atomic>
#include <fstream>
#include <thread>

#include "runtime/env.hpp"
#include "runtime/names.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {

namespace {
constexpr EnumName<Backend> BACKEND_NAMES[] = {{Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}, {Backend::Auto, "auto"}};
constexpr EnumName<SimdLevel> SIMD_NAMES[] = {
    {SimdLevel::Scalar, "scalar"}, {SimdLevel::Avx2, "avx2"}, {SimdLevel::Avx512, "avx512"}};
}  // namespace

std::optional<Backend> parse_backend(std::string_view s) { return parse_name(BACKEND_NAMES, s); }
const char* to_string(Backend b) { return name_of(BACKEND_NAMES, b); }
const char* to_string(SimdLevel s) { return name_of(SIMD_NAMES, s); }

bool cuda_usable() { return gpu_info().has_value(); }

Backend resolve_backend(Backend requested, uint64_t work, uint64_t crossover) {
  // Every batch call passes here on its calling thread before any worker starts: reading the SIMD
  // level now makes a bad ZKGPU_SIMD an error of this call, not an exception in an OpenMP worker
  // (which would end the process).
  (void)simd_level();
  switch (requested) {
    case Backend::Cpu: return Backend::Cpu;
    case Backend::Cuda:
      if (!cuda_usable())
        throw Error(ErrorCode::Unavailable, "the CUDA backend was asked for: " + cuda_unavailable_reason());
      return Backend::Cuda;
    case Backend::Auto: return (work >= crossover && cuda_usable()) ? Backend::Cuda : Backend::Cpu;
  }
  return Backend::Cpu;
}

CpuFeatures cpu_features() {
  CpuFeatures f;
  __builtin_cpu_init();
  f.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  f.threads = std::max(1u, std::thread::hardware_concurrency());
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) f.model = line.substr(colon + 2);
      break;
    }
  }
  return f;
}

namespace {
std::atomic<int> g_simd_cap{-1};  // -1: no programmatic cap

SimdLevel detected_simd() {
  static const SimdLevel level = [] {
    CpuFeatures f = cpu_features();
    SimdLevel l = f.avx512 ? SimdLevel::Avx512 : f.avx2 ? SimdLevel::Avx2 : SimdLevel::Scalar;
    if (const auto e = env_choice("ZKGPU_SIMD", {"scalar", "avx2", "avx512"})) {
      const SimdLevel cap = *e == "scalar" ? SimdLevel::Scalar : *e == "avx2" ? SimdLevel::Avx2 : SimdLevel::Avx512;
      if (cap < l) l = cap;
    }
    return l;
  }();
  return level;
}
}  // namespace

SimdLevel simd_level() {
  SimdLevel l = detected_simd();
  int cap = g_simd_cap.load(std::memory_order_relaxed);
  if (cap >= 0 && static_cast<SimdLevel>(cap) < l) l = static_cast<SimdLevel>(cap);
  return l;
}

void set_simd_level_cap(std::optional<SimdLevel> cap) {
  g_simd_cap.store(cap ? static_cast<int>(*cap) : -1, std::memory_order_relaxed);
}

}  // namespace zkgpu
