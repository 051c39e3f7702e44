// Helpers of the ML-KEM / ML-DSA batch front ends (host only).
#pragma once
#include <span>
#include <string>

#include "pq/pq_cuda.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/pq.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::pq {

// Auto's crossover for an operation whose default is `fallback`.
inline uint64_t crossover(const PqBatchOptions& o, uint64_t fallback) { return o.gpu_crossover.value_or(fallback); }

// The CUDA backend's name of an ML-DSA parameter set: 44, 65 or 87.
inline int mldsa_level(MlDsaSet set) { return set == MlDsaSet::MlDsa44 ? 44 : set == MlDsaSet::MlDsa65 ? 65 : 87; }

// What of the options reaches the CUDA backend.
inline cuda::PqGpuOptions gpu_options(const PqBatchOptions& o) { return {o.phase_times, o.gpu_memory_budget}; }

// Throws when a packed buffer does not hold exactly n items of `item` bytes.
template <class T>
void check_items(std::span<T> buf, size_t n, size_t item, const char* op, const char* name) {
  if (buf.size() != n * item)
    throw_invalid(std::string(op) + ": " + name + " holds " + std::to_string(buf.size()) + " bytes, expected " +
                  std::to_string(n) + " x " + std::to_string(item));
}

}  // namespace zkgpu::pq
