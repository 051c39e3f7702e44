// Uploads from pageable host memory through two pinned staging buffers: the copy into pinned
// memory (CPU threads, copy_pool.hpp), the upload (copy engine, on copy_stream()) and the kernels
// on the chunks already landed (SMs) overlap.
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>

#include "msm/cuda/copy_pool.hpp"
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::bls12_377::cuda {

class Staging {
 public:
  static constexpr size_t STAGE_BYTES = size_t{32} << 20;

  // Allocates what is missing: the buffers (again after release()), their events and the stream.
  void ensure() {
    for (int k = 0; k < 2; ++k) {
      if (!stage_[k].data()) stage_[k] = ::zkgpu::cuda::PinnedBuffer<unsigned char>(STAGE_BYTES);
      if (!stage_free_[k]) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&stage_free_[k], cudaEventDisableTiming));
    }
    if (!copy_stream_) copy_stream_ = std::make_unique<::zkgpu::cuda::Stream>();
  }
  // Frees the pinned buffers (the events and the stream stay).
  void release() {
    for (int k = 0; k < 2; ++k) stage_[k] = ::zkgpu::cuda::PinnedBuffer<unsigned char>();
  }
  cudaStream_t copy_stream() const { return *copy_stream_; }

  // Uploads count elements from pageable host memory to dst (device) in chunks of `chunk` elements
  // on copy_stream(). After each chunk's upload is queued, on_chunk(first, count, landed_event) may
  // queue work on the chunk, on a stream that waits for landed_event first.
  template <class T, class F>
  void upload(T* dst, const T* host, size_t count, size_t chunk, F&& on_chunk) {
    cudaStream_t copy = *copy_stream_;
    int k = 0;
    for (size_t first = 0; first < count; first += chunk, k ^= 1) {
      const size_t c = std::min(chunk, count - first);
      ZKGPU_CUDA_CHECK(cudaEventSynchronize(stage_free_[k]));  // the buffer's previous upload is done
      parallel_memcpy(stage_[k].data(), host + first, c * sizeof(T));
      ZKGPU_CUDA_CHECK(cudaMemcpyAsync(dst + first, stage_[k].data(), c * sizeof(T), cudaMemcpyHostToDevice, copy));
      ZKGPU_CUDA_CHECK(cudaEventRecord(stage_free_[k], copy));
      on_chunk(first, c, stage_free_[k]);
    }
  }

 private:
  ::zkgpu::cuda::PinnedBuffer<unsigned char> stage_[2];
  cudaEvent_t stage_free_[2] = {nullptr, nullptr};  // recorded on copy_stream after each upload
  std::unique_ptr<::zkgpu::cuda::Stream> copy_stream_;
};

}  // namespace zkgpu::bls12_377::cuda
