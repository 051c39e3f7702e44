// memcpy on the process's copy threads: how the GPU host layer fills its pinned staging buffers
// from pageable memory (runtime/cuda/uploader.cuh). Plain host code.
#pragma once
#include <cstddef>

namespace zkgpu::runtime {

// Copies `bytes` from src to dst (non-overlapping) on the copy threads, in slices of at least
// 1 MiB (smaller copies run on the calling thread). Callers on several threads take turns.
void parallel_memcpy(void* dst, const void* src, size_t bytes);

}  // namespace zkgpu::runtime
