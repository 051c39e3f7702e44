// Helpers of the ML-KEM / ML-DSA batch front ends (host only).
#pragma once
#include <span>
#include <string>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::pq {

// Auto sends a batch to the GPU from these sizes up: the H200 runs of 2026-11-30 (BENCHMARKS.md:
// GPU kernels and the chunked pipeline against our SIMD CPU backend on 16 threads). ML-KEM
// (keygen, encaps, decaps): the GPU wins 2.1-3.5x at 256 items and loses 5-10x at 1 (a call
// costs it ~0.1-0.2 ms), so the tie lies between; 256 keeps a margin. ML-DSA sign (one
// persistent kernel per chunk): the GPU wins 2.4-2.8x at 256. ML-DSA verify: 1.5-2.4x at 256.
// ML-DSA keygen (still one thread per item on the GPU): the CPU wins 2.3-2.8x at 256, the GPU
// 1.1-1.45x at 1024.
inline constexpr uint64_t MLKEM_KEYGEN_GPU_CROSSOVER_ITEMS = 256;
inline constexpr uint64_t MLKEM_GPU_CROSSOVER_ITEMS = 256;   // encaps, decaps
inline constexpr uint64_t MLDSA_GPU_CROSSOVER_ITEMS = 1024;  // keygen
inline constexpr uint64_t MLDSA_SIGN_GPU_CROSSOVER_ITEMS = 256;
inline constexpr uint64_t MLDSA_VERIFY_GPU_CROSSOVER_ITEMS = 256;

// Throws when a packed buffer does not hold exactly n items of `item` bytes.
template <class T>
void check_items(std::span<T> buf, size_t n, size_t item, const char* op, const char* name) {
  if (buf.size() != n * item)
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(buf.size()) + " bytes, expected " +
                  std::to_string(n) + " x " + std::to_string(item));
}

}  // namespace zkgpu::pq
