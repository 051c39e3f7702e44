// The device memory a GPU context keeps between calls: grow-only buffers that one arena accounts
// for together, so that a caller's device-memory budget (gpu_memory_budget in the public options)
// bounds all of them at once, and so that tests can poison them and release_gpu_caches() free them
// in one place. Allocating once and reusing matters: cudaMalloc and cudaFree of these sizes cost
// milliseconds, and cudaFree synchronises the device.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda {

class DeviceArena;

// The untyped part of an ArenaBuffer: its memory and its arena.
class ArenaBlock {
 public:
  ArenaBlock(const ArenaBlock&) = delete;
  ArenaBlock& operator=(const ArenaBlock&) = delete;
  size_t bytes() const { return bytes_; }

 protected:
  explicit ArenaBlock(DeviceArena& arena);
  ~ArenaBlock();
  // Grows to at least `need` bytes (the contents are not kept); to `prefer` when that is larger
  // and the arena has no budget (amortised growth of buffers sized per chunk). Over the budget:
  // Error(OutOfMemory), the buffer unchanged.
  void grow(size_t need, size_t prefer);
  void free();
  void* p_ = nullptr;

 private:
  friend class DeviceArena;
  DeviceArena& arena_;
  size_t bytes_ = 0;
};

// A grow-only device buffer of T held by an arena (a member of a context, constructed with the
// context's arena; it must not outlive it).
template <class T>
class ArenaBuffer : public ArenaBlock {
 public:
  explicit ArenaBuffer(DeviceArena& arena) : ArenaBlock(arena) {}
  // At least n elements (at least one: a zero-size buffer still has an address).
  void ensure(size_t n, size_t prefer = 0) { grow((n ? n : 1) * sizeof(T), prefer * sizeof(T)); }
  void reset() { free(); }
  T* data() const { return static_cast<T*>(p_); }
  size_t size() const { return bytes() / sizeof(T); }
  void upload(const T* host, size_t n, cudaStream_t s, size_t offset = 0) {
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(data() + offset, host, n * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void download(T* host, size_t n, cudaStream_t s, size_t offset = 0) const {
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(host, data() + offset, n * sizeof(T), cudaMemcpyDeviceToHost, s));
  }
};

class DeviceArena {
 public:
  // `owner` names the arena in error messages ("the BLS12-377 MSM").
  explicit DeviceArena(std::string owner) : owner_(std::move(owner)) {}
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  // The bytes the current call lets the arena hold in all; 0: no budget (the device's free memory
  // is the limit). Set at the start of every call: a budget belongs to one call.
  void set_budget(uint64_t bytes) { budget_ = bytes; }
  uint64_t budget() const { return budget_; }
  size_t held_bytes() const { return held_; }
  const std::string& owner() const { return owner_; }

  // Before a call grows its buffers to `need` bytes in all, `growth` of them not held yet:
  // Error(OutOfMemory) naming `what` when `need` passes the budget or `growth` the device's free
  // memory. When only buffers held from earlier calls stand in the way of the budget, frees them
  // all first (no work may be in flight on them), so the call's growth is `need`.
  void make_room(size_t need, size_t growth, const std::string& what);
  // 0xff in every byte of every buffer, on `s` (tests: a read of anything not written shows).
  void poison(cudaStream_t s) const;
  // Frees every buffer (no work may be in flight on them); they grow again on their next ensure.
  void release();

 private:
  friend class ArenaBlock;
  std::string owner_;
  uint64_t budget_ = 0;
  size_t held_ = 0;
  std::vector<ArenaBlock*> blocks_;
};

}  // namespace zkgpu::cuda
