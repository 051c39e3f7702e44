// The device arena (arena.cuh).
#include <algorithm>

#include "runtime/budget.hpp"
#include "runtime/cuda/arena.cuh"

namespace zkgpu::cuda {

ArenaBlock::ArenaBlock(DeviceArena& arena) : arena_(arena) { arena_.blocks_.push_back(this); }

ArenaBlock::~ArenaBlock() {
  free();
  auto& b = arena_.blocks_;
  b.erase(std::remove(b.begin(), b.end(), this), b.end());
}

void ArenaBlock::grow(size_t need, size_t prefer) {
  if (need <= bytes_) return;
  const size_t target = arena_.budget_ ? need : std::max(need, prefer);
  const size_t after = arena_.held_ - bytes_ + target;
  // Checked before anything is freed, so a refused growth leaves the buffer and the arena as they were.
  if (arena_.budget_ && after > arena_.budget_)
    runtime::throw_over_budget(arena_.owner_ + " (a buffer of " + runtime::bytes_text(target) + ", with " +
                                   runtime::bytes_text(arena_.held_ - bytes_) + " already held)",
                               after, arena_.budget_);
  free();
  ZKGPU_CUDA_CHECK(cudaMalloc(&p_, target));
  bytes_ = target;
  arena_.held_ += target;
}

void ArenaBlock::free() {
  if (!p_) return;
  cudaFree(p_);  // nothing useful to do with an error while releasing
  p_ = nullptr;
  arena_.held_ -= bytes_;
  bytes_ = 0;
}

void DeviceArena::make_room(size_t need, size_t growth, const std::string& what) {
  if (budget_ && need > budget_) runtime::throw_over_budget(what, need, budget_);
  if (budget_ && held_ + growth > budget_) {
    release();
    growth = need;
  }
  if (growth) require_device_memory(growth, what.c_str());
}

void DeviceArena::poison(cudaStream_t s) const {
  for (const ArenaBlock* b : blocks_)
    if (b->bytes_) ZKGPU_CUDA_CHECK(cudaMemsetAsync(b->p_, 0xff, b->bytes_, s));
}

void DeviceArena::release() {
  for (ArenaBlock* b : blocks_) b->free();
}

}  // namespace zkgpu::cuda
