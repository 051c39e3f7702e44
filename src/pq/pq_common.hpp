// Helpers of the ML-KEM / ML-DSA batch front ends (host only).
#pragma once
#include <span>
#include <string>

#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::pq {

// Auto sends a batch to the GPU from these sizes up. From the final H200 run of 2026-11-30
// (BENCHMARKS.md: warp kernels and the chunked pipeline against our SIMD CPU backend on 16
// threads, batches 1, 1024 and 65536). ML-KEM encaps and decaps: the GPU wins 4x at 1024 and loses
// 7-9x at 1, a call costing it ~0.2-0.3 ms against the CPU's ~330-470 k items/s, which puts the tie
// near 100 items: 256 keeps a margin. ML-KEM keygen (xof and warp kernels, run of 16:47 the same
// day): the GPU wins 1.85x at 256 (842 k/s against 456 k/s, ML-KEM-768) and 4x at 1024, so it
// shares that threshold. ML-DSA keygen and sign: the GPU wins 1.3-1.6x at 1024. ML-DSA verify: 4-7x at 1024, while
// one item costs the GPU ~0.3 ms; 256 is interpolated as for ML-KEM.
inline constexpr uint64_t MLKEM_KEYGEN_GPU_CROSSOVER_ITEMS = 256;
inline constexpr uint64_t MLKEM_GPU_CROSSOVER_ITEMS = 256;  // encaps, decaps
inline constexpr uint64_t MLDSA_GPU_CROSSOVER_ITEMS = 1024;  // keygen
inline constexpr uint64_t MLDSA_SIGN_GPU_CROSSOVER_ITEMS = 1024;
inline constexpr uint64_t MLDSA_VERIFY_GPU_CROSSOVER_ITEMS = 256;

// Throws when a packed buffer does not hold exactly n items of `item` bytes.
template <class T>
void check_items(std::span<T> buf, size_t n, size_t item, const char* op, const char* name) {
  if (buf.size() != n * item)
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(buf.size()) + " bytes, expected " +
                  std::to_string(n) + " x " + std::to_string(item));
}

}  // namespace zkgpu::pq
