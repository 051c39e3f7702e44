// The chunked, overlapped driver of batches of independent items (Ed25519 verification, the
// ML-KEM / ML-DSA batches): SLOTS chunks in flight, each on its own stream with its own pinned
// input and output staging and its own device block, so the host packs chunk c+1 straight into
// pinned memory while chunk c uploads, runs and downloads. Packing is the staging copy here (the
// items are gathered from the caller's spans), which is why these batches do not go through the
// PinnedUploader. Buffers grow to the batch shape and are reused across calls.
#pragma once
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "runtime/budget.hpp"
#include "runtime/cuda/context.cuh"
#include "runtime/cuda/phase_profiler.cuh"
#include "zkgpu/profile.hpp"

namespace zkgpu::cuda {

// One chunk: items [first, end) and the bytes it moves and needs on the device.
struct ChunkPlan {
  size_t end, in_bytes, out_bytes, scratch_bytes;
};

struct BatchSlot {
  explicit BatchSlot(DeviceArena& arena) : dev(arena) {}
  cudaStream_t stream = nullptr;
  PinnedBuffer<uint8_t> host_in, host_out;
  ArenaBuffer<uint8_t> dev;  // dev_in | dev_out | dev_scratch, each 256-byte aligned
  uint8_t *dev_in = nullptr, *dev_out = nullptr, *dev_scratch = nullptr;
  std::function<void(const uint8_t*)> deliver;  // copies the chunk's results out of host_out
  // The chunk's phases on this stream (no-ops unless the call asked for phase times): pack,
  // upload, the kernels the launch marks, download.
  std::optional<PhaseProfiler> phases;
  PhaseTimes chunk_times;  // what `phases` reports, moved into the call's PhaseTimes at finish
  bool busy = false;
};

class BatchPipeline {
 public:
  static constexpr int SLOTS = 3;
  static constexpr size_t ALIGN = 256;

  // The slots run on gpu.stream(0 .. SLOTS-1); their device blocks are in gpu.arena().
  explicit BatchPipeline(GpuContext& gpu);

  // Device bytes a chunk of this plan takes in its slot.
  static size_t slot_bytes(const ChunkPlan& p) { return align(p.in_bytes) + align(p.out_bytes) + p.scratch_bytes; }
  // The most items per chunk, at most `want`, whose plan_items(m) fits one slot's share of the
  // budget (all of `want` without a budget); Error(OutOfMemory) naming `what` when not even one
  // item does.
  template <class F>
  static size_t chunk_under_budget(size_t want, uint64_t budget, F&& plan_items, const std::string& what) {
    if (!budget || want == 0) return want;
    const uint64_t share = runtime::slot_share(budget, SLOTS);
    const size_t m = runtime::largest_fitting(want, [&](size_t k) { return slot_bytes(plan_items(k)) <= share; });
    if (m == 0)
      runtime::throw_over_budget(what + " (one item per stream, " + std::to_string(SLOTS) + " streams)",
                                 uint64_t{SLOTS} * slot_bytes(plan_items(size_t{1})), budget);
    return m;
  }

  // The chunk of items with a variable part (messages) from `first`: items while fewer than
  // max_items, while their variable bytes (var_bytes(i) each) stay within max_var_bytes (one item
  // always goes in), and, under a budget, while plan_of(end, items, var) fits one slot's share;
  // Error(OutOfMemory) naming `what` when one item alone does not.
  template <class BytesF, class PlanF>
  static ChunkPlan fill_chunk(size_t first, size_t n, size_t max_items, size_t max_var_bytes, uint64_t budget,
                              BytesF&& var_bytes, PlanF&& plan_of, const std::string& what) {
    const uint64_t share = runtime::slot_share(budget, SLOTS);
    size_t end = first, var = 0;
    while (end < n && end - first < max_items) {
      const size_t b = var_bytes(end);
      if (end > first && var + b > max_var_bytes) break;
      if (share && slot_bytes(plan_of(end + 1, end + 1 - first, var + b)) > share) {
        if (end == first)
          runtime::throw_over_budget(what + " (an item of " + std::to_string(b) + " variable bytes, on one of " +
                                         std::to_string(SLOTS) + " streams)",
                                     SLOTS * slot_bytes(plan_of(end + 1, size_t{1}, b)), budget);
        break;
      }
      var += b;
      ++end;
    }
    return plan_of(end, end - first, var);
  }

  struct RunOptions {
    PhaseTimes* times = nullptr;  // each chunk's phases appended as it finishes, the wall time added
    bool poison_outputs = true;   // 0xAB over each chunk's device output before its kernels
  };
  // Runs items [0, n) chunk by chunk: plan(first) -> ChunkPlan; pack(first, plan, host_in) fills
  // the pinned input; launch(slot, first, plan) enqueues the kernels on slot.stream (dev_in ->
  // dev_out, scratch in dev_scratch) and marks them on slot.phases; deliver(first, plan, host_out)
  // runs once the chunk is done. The caller holds the context (one run at a time).
  template <class PlanF, class PackF, class LaunchF, class DeliverF>
  void run(size_t n, const RunOptions& opt, PlanF&& plan, PackF&& pack, LaunchF&& launch, DeliverF&& deliver) {
    const auto t0 = std::chrono::steady_clock::now();
    fit_budget();
    size_t pos = 0;
    try {
      for (int c = 0; pos < n; ++c) {
        BatchSlot& s = slots_[size_t(c % SLOTS)];
        finish(s, opt.times);
        const ChunkPlan p = plan(pos);
        ensure(s, p);
        s.chunk_times = PhaseTimes{};
        s.phases.emplace(opt.times ? &s.chunk_times : nullptr, s.stream);
        pack(pos, p, s.host_in.data());
        s.phases->mark("pack");
        if (p.in_bytes)
          ZKGPU_CUDA_CHECK(cudaMemcpyAsync(s.dev_in, s.host_in.data(), p.in_bytes, cudaMemcpyHostToDevice, s.stream));
        s.phases->mark("upload");
        // Poison: a result the kernels fail to write shows as 0xAB, never as stale memory.
        if (opt.poison_outputs && p.out_bytes)
          ZKGPU_CUDA_CHECK(cudaMemsetAsync(s.dev_out, 0xAB, p.out_bytes, s.stream));
        launch(s, pos, p);
        if (p.out_bytes)
          ZKGPU_CUDA_CHECK(
              cudaMemcpyAsync(s.host_out.data(), s.dev_out, p.out_bytes, cudaMemcpyDeviceToHost, s.stream));
        s.phases->mark("download");
        s.deliver = [&deliver, pos, p](const uint8_t* out) { deliver(pos, p, out); };
        s.busy = true;
        pos = p.end;
      }
      for (BatchSlot& s : slots_) finish(s, opt.times);
    } catch (...) {
      for (BatchSlot& s : slots_) {  // leave no work in flight on buffers the next call reuses
        cudaStreamSynchronize(s.stream);
        s.deliver = nullptr;
        s.phases.reset();
        s.busy = false;
      }
      throw;
    }
    if (opt.times)
      opt.times->wall_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  static size_t align(size_t b) { return (b + ALIGN - 1) / ALIGN * ALIGN; }
  // Under a budget every chunk's block fits one slot's share (chunk_under_budget), so blocks never
  // grow past it; blocks left larger by an earlier call with a larger budget or none are freed
  // (nothing is in flight between runs).
  void fit_budget();
  // Grows the slot's staging (doubling, so batches of slowly growing chunks do not reallocate per
  // call) and its device block, and points dev_in / dev_out / dev_scratch into the block.
  void ensure(BatchSlot& s, const ChunkPlan& p);
  // Waits for the slot's chunk in flight, hands its results over and appends its phases to `out`.
  static void finish(BatchSlot& s, PhaseTimes* out);

  DeviceArena& arena_;
  std::array<BatchSlot, SLOTS> slots_;
};

}  // namespace zkgpu::cuda
