// What every file of the GPU MSM shares: the entry flag, the default block size, the resident bases
// (detail::DeviceBases, opaque in the public header) and small launch helpers.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/cuda/runtime.cuh"
#include "zkgpu/core/bls12_377/curve.hpp"
#include "zkgpu/msm.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::bls12_377 {

namespace detail {
struct DeviceBases {
  ::zkgpu::cuda::DeviceBuffer<TePrecomputed> points;
  size_t n = 0;
  // Window copies for repeated MSMs: table[j*n + i] = 2^(table_c*j) * points[i] for j < table_windows
  // (j = 0 is `points` itself), so every window adds into one shared bucket set (docs/msm.md).
  // table_windows = 0 when they did not fit in device memory.
  ::zkgpu::cuda::DeviceBuffer<TePrecomputed> table;
  unsigned table_c = 0, table_windows = 0;
};
}  // namespace detail

namespace cuda {
namespace rt = ::zkgpu::cuda;

// An entry's value: base (or table) index | NEG_BIT when the digit is negative.
inline constexpr uint32_t NEG_BIT = 0x80000000u;
inline constexpr unsigned BLOCK = 256;

inline unsigned blocks_for(size_t n) { return rt::ceil_div(std::max<size_t>(n, 1), BLOCK); }

inline void check_n(size_t n) {
  if (n > MSM_MAX_POINTS) throw_invalid("MSM of " + std::to_string(n) + " points exceeds the supported 2^26");
}

template <class T>
void grow(rt::DeviceBuffer<T>& b, size_t n) {
  b.ensure(std::max<size_t>(n, 1));
}

}  // namespace cuda
}  // namespace zkgpu::bls12_377
