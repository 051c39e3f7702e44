// Helpers of the ML-KEM / ML-DSA batch front ends (host only).
#pragma once
#include <span>
#include <string>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::pq {

// The post-quantum batches run on the CPU backend only so far: Auto resolves to it, and an
// explicit Cuda request is refused rather than silently served by the CPU.
inline void require_cpu_backend(Backend b, const char* op) {
  if (b == Backend::Cuda)
    throw Error(ErrorCode::Unavailable, std::string(op) + ": no CUDA kernels yet; use --backend cpu or auto");
}

// Throws when a packed buffer does not hold exactly n items of `item` bytes.
template <class T>
void check_items(std::span<T> buf, size_t n, size_t item, const char* op, const char* name) {
  if (buf.size() != n * item)
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(buf.size()) + " bytes, expected " +
                  std::to_string(n) + " x " + std::to_string(item));
}

}  // namespace zkgpu::pq
