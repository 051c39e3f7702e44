// The checks of the ML-KEM / ML-DSA device-pointer calls (device_calls.hpp).
#include "pq/device_calls.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/caller_memory.hpp"
#endif

namespace zkgpu::pq {

size_t device_bytes(const char* op, size_t n, size_t item, const char* name) {
  if (item != 0 && n > std::numeric_limits<size_t>::max() / item)
    throw_invalid(std::string(op) + ": " + std::to_string(n) + " items of " + name + " overflow size_t");
  return n * item;
}

void check_device_call(const char* op, const PqBatchOptions& options, size_t n,
                       std::initializer_list<DeviceRegion> regions) {
  if (options.backend == Backend::Cpu)
    throw_invalid(std::string(op) + ": options.backend is Cpu, but a device call runs on the GPU (Auto or Cuda)");
  resolve_backend(Backend::Cuda, n, 0);  // Error(Unavailable) without a usable GPU
#if ZKGPU_HAVE_CUDA
  for (const DeviceRegion& r : regions) {
    const std::string what = std::string(op) + ": " + r.name;
    cuda::require_device_pointer(r.ptr, r.bytes, what.c_str());
    if (r.bytes && reinterpret_cast<uintptr_t>(r.ptr) % r.align)
      throw_invalid(what + " must be " + std::to_string(r.align) + "-byte aligned");
  }
  for (auto a = regions.begin(); a != regions.end(); ++a)
    for (auto b = a + 1; b != regions.end(); ++b)
      if (a->written || b->written)
        cuda::require_disjoint(a->ptr, a->bytes, b->ptr, b->bytes,
                               (std::string(op) + ": " + a->name + " and " + b->name).c_str());
#else
  (void)regions;
#endif
}

void check_keygen_device(const char* op, const PqBatchOptions& options, size_t n, const uint8_t* seeds,
                         size_t seed_bytes, DeviceRegion first, DeviceRegion second, size_t align) {
  check_device_call(op, options, n,
                    {{seeds, device_bytes(op, n, seed_bytes, "seeds"), "seeds", false, align},
                     {first.ptr, device_bytes(op, n, first.bytes, first.name), first.name, true, align},
                     {second.ptr, device_bytes(op, n, second.bytes, second.name), second.name, true, align}});
}

}  // namespace zkgpu::pq
