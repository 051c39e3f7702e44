// The stream/context object of the GPU host layer: what one backend keeps on one device between
// calls (its device, its streams, its uploader, its arena), and the per-device cache of them that
// replaces each backend's own global. A backend's context type holds a GpuContext and its own
// buffers (ArenaBuffers of the context's arena); ContextCache<C> creates one C per device on first
// use there and hands it out one call at a time, the guard each backend kept before.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/cuda/arena.cuh"
#include "runtime/cuda/runtime.cuh"
#include "runtime/cuda/uploader.cuh"
#include "runtime/device_caches.hpp"

namespace zkgpu::cuda {

class GpuContext {
 public:
  // On the current device: `streams` streams at normal priority and `priority_streams` at the
  // device's greatest (Stream::Priority). `name` names the arena in error messages.
  GpuContext(std::string name, unsigned streams, unsigned priority_streams = 0);
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;

  int device() const { return device_; }
  cudaStream_t stream(unsigned i = 0) const { return *streams_.at(i); }
  cudaStream_t priority_stream(unsigned i) const { return *priority_streams_.at(i); }
  unsigned stream_count() const { return static_cast<unsigned>(streams_.size()); }
  DeviceArena& arena() { return arena_; }
  PinnedUploader& uploader() { return uploader_; }

  // The start of a call: its device-memory budget (0: none) goes to the arena.
  void begin_call(uint64_t budget) { arena_.set_budget(budget); }
  // Waits for the streams, then frees the arena's buffers and the uploader's stages.
  void release();

 private:
  int device_ = 0;
  std::vector<std::unique_ptr<Stream>> streams_, priority_streams_;
  DeviceArena arena_;
  PinnedUploader uploader_;
};

// One C per device for one backend. C is default-constructible on the current device and holds
// its GpuContext as the member `gpu`.
template <class C>
class ContextCache {
 public:
  // The current device's context, locked for one call: one call at a time per backend (a second
  // caller waits), the context created on the device's first call.
  class Lease {
   public:
    C& operator*() const { return *ctx_; }
    C* operator->() const { return ctx_; }

   private:
    friend class ContextCache;
    Lease(std::unique_lock<std::mutex> lock, C* ctx) : lock_(std::move(lock)), ctx_(ctx) {}
    std::unique_lock<std::mutex> lock_;
    C* ctx_;
  };

  Lease acquire() {
    std::unique_lock<std::mutex> lock(mu_);
    int dev = 0;
    ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
    if (by_device_.size() <= static_cast<size_t>(dev)) by_device_.resize(static_cast<size_t>(dev) + 1);
    auto& slot = by_device_[static_cast<size_t>(dev)];
    if (!slot) slot = std::make_unique<C>();
    return Lease(std::move(lock), slot.get());
  }
  // Destroys every device's context (release_gpu_caches(); the next call creates it again).
  void release() {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& c : by_device_)
      if (c) {
        c->gpu.release();
        c.reset();
      }
  }

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<C>> by_device_;
};

// The process's cache of C, registered with release_gpu_caches() on first use and never
// destroyed (no CUDA calls during static teardown).
template <class C>
ContextCache<C>& context_cache() {
  static ContextCache<C>* cache = [] {
    ::zkgpu::runtime::register_device_cache([] { context_cache<C>().release(); });
    return new ContextCache<C>;
  }();
  return *cache;
}

}  // namespace zkgpu::cuda
