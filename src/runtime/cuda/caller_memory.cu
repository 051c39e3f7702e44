// Checks on caller-owned device memory and streams (caller_memory.hpp).
#include <cstdint>
#include <string>

#include "runtime/cuda/caller_memory.hpp"
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda {
namespace {

// Whether the current device `dev` can address p.
bool device_addressable(const void* p, int dev) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();  // an unknown pointer is an answer here, not a sticky error
    return false;
  }
  switch (attr.type) {
    case cudaMemoryTypeDevice: return attr.device == dev;
    case cudaMemoryTypeManaged: return true;
    case cudaMemoryTypeHost: return attr.devicePointer == p;  // pinned and mapped at the same address
    default: return false;                                    // pageable host memory
  }
}

}  // namespace

void require_device_pointer(const void* p, size_t bytes, const char* what) {
  if (bytes == 0) return;
  if (p == nullptr) throw Error(ErrorCode::InvalidArgument, std::string(what) + ": null device pointer");
  const auto first = reinterpret_cast<uintptr_t>(p);
  if (first > UINTPTR_MAX - (bytes - 1))
    throw Error(ErrorCode::InvalidArgument, std::string(what) + ": the buffer wraps around the address space");
  int dev = 0;
  ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
  const void* last = reinterpret_cast<const void*>(first + (bytes - 1));
  if (!device_addressable(p, dev) || !device_addressable(last, dev)) {
    throw Error(ErrorCode::InvalidArgument, std::string(what) + ": " + std::to_string(bytes) +
                                                " bytes at this address are not memory GPU " + std::to_string(dev) +
                                                " can address (a host pointer, or another device's)");
  }
}

void require_disjoint(const void* a, size_t a_bytes, const void* b, size_t b_bytes, const char* what) {
  if (a_bytes == 0 || b_bytes == 0) return;
  const auto a0 = reinterpret_cast<uintptr_t>(a), b0 = reinterpret_cast<uintptr_t>(b);
  if (a0 < b0 + b_bytes && b0 < a0 + a_bytes)
    throw Error(ErrorCode::InvalidArgument, std::string(what) + ": the output overlaps the input");
}

void sync_caller_stream(void* stream) { ZKGPU_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream))); }

}  // namespace zkgpu::cuda
