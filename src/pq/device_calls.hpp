// The checks the ML-KEM / ML-DSA device-pointer calls (zkgpu/mlkem.hpp, mldsa.hpp *_device) make
// before anything is enqueued, in the order of the other device calls (docs/api-conventions.md,
// "Device memory"): the shape, then the GPU, then the buffers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "zkgpu/pq.hpp"

namespace zkgpu::pq {

// One buffer of a device call (for check_keygen_device, `bytes` is per item).
struct DeviceRegion {
  const void* ptr;
  size_t bytes;
  const char* name;
  bool written;
  size_t align = 1;  // the kernels read it in words of this many bytes
};

// n * item bytes; Error(InvalidArgument) naming op and name when that overflows size_t.
size_t device_bytes(const char* op, size_t n, size_t item, const char* name);

// After the shape: options.backend must not be Cpu (Error(InvalidArgument); the other options
// are the GPU's), a usable GPU (Error(Unavailable)), then every region memory the current device
// can address, aligned, and every written region disjoint from every other (Error(InvalidArgument)).
void check_device_call(const char* op, const PqBatchOptions& options, size_t n,
                       std::initializer_list<DeviceRegion> regions);

// A key generation's checks: n seeds of seed_bytes in, n keys of first_bytes and of second_bytes
// out, every buffer aligned to `align`.
void check_keygen_device(const char* op, const PqBatchOptions& options, size_t n, const uint8_t* seeds,
                         size_t seed_bytes, DeviceRegion first, DeviceRegion second, size_t align);

}  // namespace zkgpu::pq
