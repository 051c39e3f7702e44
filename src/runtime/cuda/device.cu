// GPU detection and the error path of every checked CUDA call.
#include <cstdio>
#include <string>

#include "runtime/cuda/runtime.cuh"
#include "zkgpu/backend.hpp"

namespace zkgpu {

namespace cuda {

void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line) {
  cudaGetLastError();  // clear a sticky-free error so later calls can proceed
  std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") in " +
                    expr + " at " + file + ":" + std::to_string(line);
  if (err == cudaErrorMemoryAllocation) throw Error(ErrorCode::OutOfMemory, "GPU out of memory: " + msg);
  throw Error(ErrorCode::CudaError, msg);
}

void require_device_memory(size_t bytes, const char* what) {
  size_t free_b = 0, total_b = 0;
  ZKGPU_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (bytes > free_b) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "GPU out of memory: %s needs %.2f GiB but only %.2f GiB of %.2f GiB is free", what,
                  bytes / 1073741824.0, free_b / 1073741824.0, total_b / 1073741824.0);
    throw Error(ErrorCode::OutOfMemory, buf);
  }
}

}  // namespace cuda

namespace {
struct Probe {
  std::optional<GpuInfo> info;
  std::string reason;
};

std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

std::string error_text(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

// Why cudaGetDeviceCount failed, in terms a user can act on. The runtime answers "driver version
// is insufficient" both when no driver is loaded (a machine without a GPU) and when it is too old;
// cudaDriverGetVersion tells them apart (0: no driver).
std::string device_count_failure(cudaError_t e) {
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  cudaGetLastError();
  switch (e) {
    case cudaErrorInsufficientDriver:
      if (driver == 0) return "no NVIDIA driver is loaded (" + error_text(e) + ")";
      return "the NVIDIA driver supports CUDA " + cuda_version_text(driver) + ", older than the CUDA " +
             cuda_version_text(CUDART_VERSION) + " runtime zkgpu was built with (" + error_text(e) + ")";
    case cudaErrorNoDevice:
      return "no CUDA-capable GPU is visible (" + error_text(e) + "; CUDA_VISIBLE_DEVICES may hide them)";
    case cudaErrorSystemDriverMismatch:
      return "the NVIDIA kernel driver and its user-space library differ in version (" + error_text(e) + ")";
    case cudaErrorDevicesUnavailable: return "every GPU is busy or unavailable (" + error_text(e) + ")";
    default: return "CUDA could not be initialised (" + error_text(e) + ")";
  }
}

const Probe& probe() {
  static const Probe p = [] {
    Probe r;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
      cudaGetLastError();
      r.reason = device_count_failure(e);
      return r;
    }
    if (n == 0) {
      r.reason = "no CUDA-capable GPU is visible (the driver reports none)";
      return r;
    }
    GpuInfo g;
    cudaDeviceProp prop{};
    if (const cudaError_t pe = cudaGetDeviceProperties(&prop, 0); pe != cudaSuccess) {
      cudaGetLastError();
      r.reason = "GPU 0 did not answer cudaGetDeviceProperties (" + error_text(pe) + ")";
      return r;
    }
    g.device = 0;
    g.name = prop.name;
    g.cc_major = prop.major;
    g.cc_minor = prop.minor;
    g.sm_count = prop.multiProcessorCount;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
      g.free_memory = free_b;
      g.total_memory = total_b;
    } else {
      cudaGetLastError();
      g.total_memory = prop.totalGlobalMem;
    }
    cudaDriverGetVersion(&g.driver_version);
    cudaRuntimeGetVersion(&g.runtime_version);
    if (g.cc_major < 7) {
      r.reason = "GPU 0 (" + g.name + ") has compute capability " + std::to_string(g.cc_major) + "." +
                 std::to_string(g.cc_minor) + ", zkgpu needs >= 7.0";
      return r;
    }
    r.info = g;
    return r;
  }();
  return p;
}
}  // namespace

bool cuda_built() { return true; }
std::optional<GpuInfo> gpu_info() {
  const Probe& p = probe();
  if (!p.info) return std::nullopt;
  GpuInfo g = *p.info;
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) g.free_memory = free_b;
  return g;
}
std::string cuda_unavailable_reason() { return probe().info ? std::string() : probe().reason; }

}  // namespace zkgpu
