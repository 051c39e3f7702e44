// Device memory that lives in the order of a caller's stream, for the device-pointer calls that
// enqueue their work and return: it is allocated on the stream (cudaMallocAsync) and freed on it
// after the work that uses it (cudaFreeAsync), so the call never waits and no later call can reuse
// it early. Without memory pools (a device or driver that lacks them) a plain cudaMalloc, freed
// once the stream has drained. Freed on the stream even when a launch in between throws.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/budget.hpp"
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda {

template <class T>
class StreamBuffer {
 public:
  // n elements; Error(OutOfMemory) naming `what` when the device cannot give them. (No cudaMemGetInfo check first:
  // memory a pool keeps for reuse does not count as free there.)
  StreamBuffer(size_t n, cudaStream_t s, const char* what) : s_(s) {
    if (n == 0) return;
    const size_t bytes = n * sizeof(T);
    int dev = 0, pools = 0;
    ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
    ZKGPU_CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev));
    async_ = pools != 0;
    void* p = nullptr;
    const cudaError_t err = async_ ? cudaMallocAsync(&p, bytes, s) : cudaMalloc(&p, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky: later calls may proceed
      throw Error(ErrorCode::OutOfMemory, std::string("GPU out of memory: ") + what + " needs " +
                                              runtime::bytes_text(bytes) + " of scratch on the caller's stream");
    }
    ZKGPU_CUDA_CHECK(err);
    p_ = static_cast<T*>(p);
  }
  ~StreamBuffer() {
    if (!p_) return;
    if (async_) {
      cudaFreeAsync(p_, s_);  // nothing useful to do with an error while releasing
    } else {
      cudaStreamSynchronize(s_);  // the kernels using it must finish before a plain cudaFree
      cudaFree(p_);
    }
  }
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;
  T* data() const { return p_; }

 private:
  cudaStream_t s_;
  T* p_ = nullptr;
  bool async_ = false;
};

}  // namespace zkgpu::cuda
