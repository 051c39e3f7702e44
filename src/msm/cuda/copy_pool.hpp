// memcpy from pageable host memory into the MSM's pinned staging buffers on several threads.
#pragma once
#include <cstddef>

namespace zkgpu::bls12_377::cuda {

// Copies `bytes` from src to dst on the process's copy threads (copy_pool.cu). One copy at a time:
// callers hold the MSM workspace lock.
void parallel_memcpy(void* dst, const void* src, size_t bytes);

}  // namespace zkgpu::bls12_377::cuda
