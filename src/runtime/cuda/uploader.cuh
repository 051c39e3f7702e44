// The one way the GPU host layer uploads from pageable host memory: through two reusable pinned
// staging buffers, so that the host's copy of chunk k+1 into pinned memory (on the copy threads,
// runtime/parallel_memcpy.hpp) overlaps the DMA of chunk k, and kernels on the chunks already
// landed can overlap both. A pageable cudaMemcpyAsync would instead stage through the driver's
// small buffers at a fraction of the link's speed, and pinning the caller's memory costs more
// than the copy.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda {

class PinnedUploader {
 public:
  static constexpr size_t STAGE_BYTES = size_t{32} << 20;

  PinnedUploader() = default;
  ~PinnedUploader();
  PinnedUploader(const PinnedUploader&) = delete;
  PinnedUploader& operator=(const PinnedUploader&) = delete;

  // Copies count elements from host (pageable) to dst (device) on `stream`, in chunks of `chunk`
  // elements (1 <= chunk <= STAGE_BYTES / sizeof(T)). After each chunk's DMA is queued,
  // on_chunk(first, count, landed) may queue work on the chunk on a stream that first waits for
  // `landed` (an event recorded on `stream` after that DMA). Returns once the last chunk is
  // staged; its DMA may still run (the next upload, or the stream, waits for it).
  template <class T, class F>
  void upload(cudaStream_t stream, T* dst, const T* host, size_t count, size_t chunk, F&& on_chunk) {
    check_chunk(chunk * sizeof(T));
    int k = 0;
    for (size_t first = 0; first < count; first += chunk, k ^= 1) {
      const size_t c = std::min(chunk, count - first);
      on_chunk(first, c, send(k, dst + first, host + first, c * sizeof(T), stream));
    }
  }
  template <class T>
  void upload(cudaStream_t stream, T* dst, const T* host, size_t count, size_t chunk) {
    upload(stream, dst, host, count, chunk, [](size_t, size_t, cudaEvent_t) {});
  }

  // Frees the pinned stages (the next upload allocates them again); waits for their DMAs first.
  void release();

 private:
  // Waits until stage k's previous DMA is done, copies `bytes` from src into it, queues its DMA to
  // dst on `stream` and returns the event recorded after it.
  cudaEvent_t send(int k, void* dst, const void* src, size_t bytes, cudaStream_t stream);
  void check_chunk(size_t chunk_bytes) const;

  PinnedBuffer<unsigned char> stage_[2];
  cudaEvent_t stage_free_[2] = {nullptr, nullptr};  // recorded after each stage's DMA
};

}  // namespace zkgpu::cuda
