// A CUDA stream at the device's greatest priority.
#pragma once
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::bls12_377::cuda {

// A stream whose blocks the block scheduler prefers: the digits and base conversions of the next
// slice run while the bucket sums of the current one fill every SM, and on a normal stream their
// blocks would wait until the last block of those sums had been dispatched.
class PriorityStream {
 public:
  PriorityStream() {
    int least = 0, greatest = 0;
    ZKGPU_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    ZKGPU_CUDA_CHECK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, greatest));
  }
  ~PriorityStream() {
    if (s_) cudaStreamDestroy(s_);
  }
  PriorityStream(const PriorityStream&) = delete;
  PriorityStream& operator=(const PriorityStream&) = delete;
  operator cudaStream_t() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

}  // namespace zkgpu::bls12_377::cuda
