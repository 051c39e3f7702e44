// CUDA plumbing shared by every kernel file: checked calls, RAII for device/pinned memory,
// streams and events. Every CUDA call goes through ZKGPU_CUDA_CHECK, which throws zkgpu::Error
// (OutOfMemory for allocation failures) instead of aborting.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "zkgpu/status.hpp"

namespace zkgpu::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line);

inline void check(cudaError_t err, const char* expr, const char* file, int line) {
  if (err != cudaSuccess) throw_cuda_error(err, expr, file, line);
}

#define ZKGPU_CUDA_CHECK(expr) ::zkgpu::cuda::check((expr), #expr, __FILE__, __LINE__)
// After every kernel launch: launch-configuration errors surface here.
#define ZKGPU_CUDA_CHECK_LAUNCH() ::zkgpu::cuda::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

// Device memory, move-only. Allocation failure throws Error(OutOfMemory) naming the size.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) : n_(n) {
    if (n) ZKGPU_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T)));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void reset() {
    if (p_) cudaFree(p_);  // nothing useful to do with an error while releasing
    p_ = nullptr;
    n_ = 0;
  }
  // Grow-only reuse for buffers kept across calls.
  void ensure(size_t n) {
    if (n > n_) {
      reset();
      *this = DeviceBuffer(n);
    }
  }
  T* data() const { return p_; }
  size_t size() const { return n_; }

  void upload(const T* host, size_t n, cudaStream_t s = nullptr, size_t offset = 0) {
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(p_ + offset, host, n * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void download(T* host, size_t n, cudaStream_t s = nullptr, size_t offset = 0) const {
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(host, p_ + offset, n * sizeof(T), cudaMemcpyDeviceToHost, s));
  }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

// Page-locked host memory for overlapped transfers.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t n) : n_(n) {
    if (n) ZKGPU_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&p_), n * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (p_) cudaFreeHost(p_);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() const { return p_; }
  size_t size() const { return n_; }
  T& operator[](size_t i) const { return p_[i]; }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

class Stream {
 public:
  // Greatest: a stream whose blocks the block scheduler prefers, for short work that must not wait
  // behind a long kernel filling every SM (the MSM's digits and base conversions of the next slice).
  enum class Priority { Normal, Greatest };
  Stream() : Stream(Priority::Normal) {}
  explicit Stream(Priority priority) {
    if (priority == Priority::Normal) {
      ZKGPU_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
      return;
    }
    int least = 0, greatest = 0;
    ZKGPU_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    ZKGPU_CUDA_CHECK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, greatest));
  }
  ~Stream() {
    if (s_) cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }
  void sync() const { ZKGPU_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  // cudaEventDisableTiming for events that only order streams (cheaper to record and wait on).
  Event() : Event(cudaEventDefault) {}
  explicit Event(unsigned flags) { ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags)); }
  ~Event() {
    if (e_) cudaEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }
  operator cudaEvent_t() const { return e_; }
  void record(cudaStream_t s) { ZKGPU_CUDA_CHECK(cudaEventRecord(e_, s)); }
  void sync() { ZKGPU_CUDA_CHECK(cudaEventSynchronize(e_)); }
  // Milliseconds from `start` to this event.
  float since(const Event& start) const {
    float ms = 0;
    ZKGPU_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

// Throws Error(OutOfMemory) when `bytes` exceeds the device's free memory (checked before a large
// operation, so it fails cleanly rather than midway).
void require_device_memory(size_t bytes, const char* what);

inline unsigned ceil_div(size_t a, size_t b) { return static_cast<unsigned>((a + b - 1) / b); }

}  // namespace zkgpu::cuda
