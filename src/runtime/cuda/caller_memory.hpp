// Checks on the memory and stream a caller hands to a public device-pointer entry point, as plain
// C++ (no CUDA headers) so the front ends can call them. Declared only when ZKGPU_HAVE_CUDA.
#pragma once
#include <cstddef>

namespace zkgpu::cuda {

// Throws Error(InvalidArgument) naming `what` unless the first and the last byte of
// [p, p + bytes) are memory the current device can address (device memory of this device,
// managed memory, or pinned host memory mapped into the device's address space). A kernel given
// a host pointer would fault and leave the CUDA context unusable for every later call of the
// process, so this is checked before anything is enqueued. bytes == 0 accepts any p.
void require_device_pointer(const void* p, size_t bytes, const char* what);

// Throws Error(InvalidArgument) when [a, a + a_bytes) and [b, b + b_bytes) overlap.
void require_disjoint(const void* a, size_t a_bytes, const void* b, size_t b_bytes, const char* what);

// Blocks until the work the caller queued on `stream` (a cudaStream_t; nullptr is the legacy
// default stream) has finished: the device-pointer calls that return a result to the host (the
// MSM) run on the library's own streams and must first see the inputs the caller produced.
void sync_caller_stream(void* stream);

}  // namespace zkgpu::cuda
