// The pinned-staging uploader (uploader.cuh).
#include <string>

#include "runtime/cuda/uploader.cuh"
#include "runtime/parallel_memcpy.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cuda {

PinnedUploader::~PinnedUploader() {
  for (cudaEvent_t e : stage_free_)
    if (e) cudaEventDestroy(e);
}

void PinnedUploader::check_chunk(size_t chunk_bytes) const {
  if (chunk_bytes == 0 || chunk_bytes > STAGE_BYTES)
    throw_invalid("PinnedUploader (a bug): a chunk of " + std::to_string(chunk_bytes) +
                  " bytes does not fit a stage of " + std::to_string(STAGE_BYTES));
}

cudaEvent_t PinnedUploader::send(int k, void* dst, const void* src, size_t bytes, cudaStream_t stream) {
  if (!stage_free_[k]) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&stage_free_[k], cudaEventDisableTiming));
  if (!stage_[k].data()) stage_[k] = PinnedBuffer<unsigned char>(STAGE_BYTES);
  ZKGPU_CUDA_CHECK(cudaEventSynchronize(stage_free_[k]));  // the stage's previous DMA is done
  runtime::parallel_memcpy(stage_[k].data(), src, bytes);
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(dst, stage_[k].data(), bytes, cudaMemcpyHostToDevice, stream));
  ZKGPU_CUDA_CHECK(cudaEventRecord(stage_free_[k], stream));
  return stage_free_[k];
}

void PinnedUploader::release() {
  for (int k = 0; k < 2; ++k) {
    if (stage_free_[k]) ZKGPU_CUDA_CHECK(cudaEventSynchronize(stage_free_[k]));
    stage_[k] = PinnedBuffer<unsigned char>();
  }
}

}  // namespace zkgpu::cuda
