// Backend choice: every operation runs on the CPU backend (always built, the reference) or the
// CUDA backend (built when nvcc was found, used when a GPU is present). Auto picks CUDA when a GPU
// is usable and the work is at least the operation's measured crossover.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zkgpu {

enum class Backend { Cpu, Cuda, Auto };

// A CUDA stream the caller owns, handed to the device-pointer calls (`*_device`): the
// cudaStream_t cast to void* (nullptr: the legacy default stream), so the public headers need no
// CUDA header and the C ABI and other languages can pass theirs. It must belong to the current
// device.
struct GpuStream {
  void* handle = nullptr;
};

std::optional<Backend> parse_backend(std::string_view s);  // "cpu" | "cuda" | "auto"
const char* to_string(Backend b);

struct GpuInfo {
  int device = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  uint64_t total_memory = 0, free_memory = 0;
  int driver_version = 0, runtime_version = 0;
};

bool cuda_built();                  // compiled with the CUDA backend
std::optional<GpuInfo> gpu_info();  // nullopt when not built or no usable device
bool cuda_usable();                 // cuda_built() and a device answered
// Why cuda_usable() is false, in words a user can act on ("no NVIDIA driver is loaded (...)", "no
// CUDA-capable GPU is visible (...)", a compute capability below 7.0, ...); empty when it is true.
std::string cuda_unavailable_reason();

// Frees the device and pinned host memory zkgpu keeps between calls (contexts, workspaces,
// pipelines, constant tables); the next call that needs one creates it again. Call it when no
// zkgpu call is in flight, e.g. to hand the GPU's memory to other code or before the process
// exits (so a leak checker sees only real leaks). Objects the caller owns (MsmBases) are not
// touched. A no-op without the CUDA backend.
void release_gpu_caches();

// Auto -> Cuda when usable and work >= crossover, else Cpu. Cuda when not usable throws
// Error(Unavailable). Cpu stays Cpu.
Backend resolve_backend(Backend requested, uint64_t work, uint64_t crossover);

enum class SimdLevel { Scalar = 0, Avx2 = 1, Avx512 = 2 };
const char* to_string(SimdLevel s);

struct CpuFeatures {
  std::string model;
  unsigned threads = 1;
  bool avx2 = false, avx512 = false;  // avx512 = F + BW + DQ + VL
};
CpuFeatures cpu_features();

// The SIMD level CPU kernels use: the best the CPU supports, capped by the environment variable
// ZKGPU_SIMD=scalar|avx2|avx512 or by set_simd_level_cap (tests use it to cover every path).
SimdLevel simd_level();
void set_simd_level_cap(std::optional<SimdLevel> cap);

}  // namespace zkgpu
