// Helpers of the ML-KEM / ML-DSA batch front ends (host only).
#pragma once
#include <span>
#include <string>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::pq {

// Auto sends a batch to the GPU from these sizes up. From the H200 run of 2026-11-30
// (BENCHMARKS.md; one-thread-per-item kernels against 16 CPU threads): ML-KEM keygen/encaps and
// ML-DSA keygen win 6-20x at 4096 items; ML-DSA sign ties at 4096 and wins 3x at 65536.
inline constexpr uint64_t MLKEM_GPU_CROSSOVER_ITEMS = 4096;
inline constexpr uint64_t MLDSA_GPU_CROSSOVER_ITEMS = 1024;  // keygen
inline constexpr uint64_t MLDSA_SIGN_GPU_CROSSOVER_ITEMS = 8192;
// Verify: the warp kernels with device-side mu (docs/pq-gpu.md) ran 4.74 M/s at 65536 items on the
// H200 against the CPU's 57 k/s at 4096 on 16 threads; 4096 items fill two pipeline chunks.
inline constexpr uint64_t MLDSA_VERIFY_GPU_CROSSOVER_ITEMS = 4096;

// Throws when a packed buffer does not hold exactly n items of `item` bytes.
template <class T>
void check_items(std::span<T> buf, size_t n, size_t item, const char* op, const char* name) {
  if (buf.size() != n * item)
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(buf.size()) + " bytes, expected " +
                  std::to_string(n) + " x " + std::to_string(item));
}

}  // namespace zkgpu::pq
