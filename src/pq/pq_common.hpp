// Helpers of the ML-KEM / ML-DSA batch front ends (host only).
#pragma once
#include <span>
#include <string>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::pq {

// Auto sends a batch to the GPU from these sizes up (provisional: one-thread-per-item kernels;
// the measured crossovers on the H200 go in BENCHMARKS.md and here).
inline constexpr uint64_t MLKEM_GPU_CROSSOVER_ITEMS = 4096;
inline constexpr uint64_t MLDSA_GPU_CROSSOVER_ITEMS = 1024;

// Throws when a packed buffer does not hold exactly n items of `item` bytes.
template <class T>
void check_items(std::span<T> buf, size_t n, size_t item, const char* op, const char* name) {
  if (buf.size() != n * item)
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(buf.size()) + " bytes, expected " +
                  std::to_string(n) + " x " + std::to_string(item));
}

}  // namespace zkgpu::pq
