// The chunked, overlapped batch driver of the ML-KEM / ML-DSA kernels (host code of the .cu
// files): a persistent set of streams, each with pinned staging and device buffers that grow to the
// batch shape and are reused across calls, so the host packs chunk c+1 while chunk c uploads, runs
// and downloads (the pattern of the Ed25519 batch path).
#pragma once
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "pq/cuda/pq_launch.cuh"
#include "runtime/cuda/phase_profiler.cuh"
#include "runtime/device_caches.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::cuda::pq_launch {

// Bytes per piece of parallel_copy. (Non-temporal stores were tried on the GPU machine, where the
// host copies into and out of pinned staging bound the ML-KEM batch calls, and made those copies
// slower.)
constexpr size_t COPY_PIECE_BYTES = size_t(1) << 20;

// Copies with the host's threads when the translation unit is built with OpenMP (pinned staging
// is filled at memory bandwidth, not at one core's copy rate); serial otherwise.
inline void parallel_copy(uint8_t* dst, const uint8_t* src, size_t bytes) {
  const size_t piece = COPY_PIECE_BYTES;
  const auto pieces = int64_t((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (int64_t p = 0; p < pieces; ++p) {
    const size_t off = size_t(p) * piece;
    std::memcpy(dst + off, src + off, std::min(piece, bytes - off));
  }
}

// One chunk: items [first, end) and the bytes it moves and needs.
struct ChunkPlan {
  size_t end, in_bytes, out_bytes, scratch_bytes;
};

struct Slot {
  Stream stream;
  PinnedBuffer<uint8_t> host_in, host_out;
  DeviceBuffer<uint8_t> dev_in, dev_out, dev_scratch;
  std::function<void(const uint8_t*)> deliver;  // copies the chunk's results out of host_out
  // The chunk's phases on this stream (no-ops unless the call asked for phase times): pack,
  // upload, the kernels the launch marks, download.
  std::optional<PhaseProfiler> phases;
  PhaseTimes chunk_times;  // what `phases` reports, moved into the call's PhaseTimes at finish
  bool busy = false;

  void ensure(const ChunkPlan& p) {
    if (host_in.size() < p.in_bytes) host_in = PinnedBuffer<uint8_t>(std::max(p.in_bytes, 2 * host_in.size()));
    if (host_out.size() < p.out_bytes) host_out = PinnedBuffer<uint8_t>(std::max(p.out_bytes, 2 * host_out.size()));
    dev_in.ensure(host_in.size());
    dev_out.ensure(host_out.size());
    dev_scratch.ensure(p.scratch_bytes);
  }
  // Waits for the chunk in flight, hands its results over and appends its phases to `out`.
  void finish(PhaseTimes* out) {
    if (!busy) return;
    stream.sync();
    deliver(host_out.data());
    deliver = nullptr;
    if (out) {
      phases->finish();
      out->phases.insert(out->phases.end(), chunk_times.phases.begin(), chunk_times.phases.end());
    }
    phases.reset();
    busy = false;
  }
};

class Pipeline {
 public:
  static constexpr int SLOTS = 3;

  // Runs items [0, n) chunk by chunk: plan(first) -> ChunkPlan; pack(first, plan, host_in) fills
  // the pinned input; launch(slot, first, plan) enqueues the kernels on slot.stream (dev_in ->
  // dev_out, scratch in dev_scratch) and marks them on slot.phases; deliver(first, plan, host_out)
  // runs once the chunk is done. With `times`, each chunk's phases are appended to it as the chunk
  // finishes, and the call's wall time added.
  template <class PlanF, class PackF, class LaunchF, class DeliverF>
  void run(size_t n, PhaseTimes* times, PlanF&& plan, PackF&& pack, LaunchF&& launch, DeliverF&& deliver) {
    std::lock_guard lock(mutex_);  // one batch at a time per pipeline: the slots are shared
    const auto t0 = std::chrono::steady_clock::now();
    size_t pos = 0;
    try {
      for (int c = 0; pos < n; ++c) {
        Slot& s = slots_[size_t(c % SLOTS)];
        s.finish(times);
        const ChunkPlan p = plan(pos);
        s.ensure(p);
        s.chunk_times = PhaseTimes{};
        s.phases.emplace(times ? &s.chunk_times : nullptr, s.stream.get());
        pack(pos, p, s.host_in.data());
        s.phases->mark("pack");
        if (p.in_bytes) s.dev_in.upload(s.host_in.data(), p.in_bytes, s.stream);
        s.phases->mark("upload");
        // Poison: a result the kernels fail to write shows as 0xAB, never as stale memory.
        if (p.out_bytes) ZKGPU_CUDA_CHECK(cudaMemsetAsync(s.dev_out.data(), 0xAB, p.out_bytes, s.stream));
        launch(s, pos, p);
        if (p.out_bytes) s.dev_out.download(s.host_out.data(), p.out_bytes, s.stream);
        s.phases->mark("download");
        s.deliver = [&deliver, pos, p](const uint8_t* out) { deliver(pos, p, out); };
        s.busy = true;
        pos = p.end;
      }
      for (Slot& s : slots_) s.finish(times);
    } catch (...) {
      for (Slot& s : slots_) {  // leave no work in flight on buffers the next call reuses
        cudaStreamSynchronize(s.stream);
        s.deliver = nullptr;
        s.phases.reset();
        s.busy = false;
      }
      throw;
    }
    if (times)
      times->wall_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  // Frees the slots' buffers (the streams stay); the next run allocates them again.
  void release() {
    std::lock_guard lock(mutex_);
    for (Slot& s : slots_) {
      s.host_in = PinnedBuffer<uint8_t>();
      s.host_out = PinnedBuffer<uint8_t>();
      s.dev_in.reset(), s.dev_out.reset(), s.dev_scratch.reset();
    }
  }

 private:
  std::mutex mutex_;
  std::array<Slot, SLOTS> slots_;
};

// The pipeline of one operation family (Tag): created on first use and never destroyed (no CUDA
// calls during static teardown); zkgpu::release_gpu_caches() frees its buffers.
template <class Tag>
Pipeline& pipeline() {
  static Pipeline* p = [] {
    ::zkgpu::runtime::register_device_cache([] { pipeline<Tag>().release(); });
    return new Pipeline();
  }();
  return *p;
}

// Chunk size for n items: enough chunks for the slots to overlap, none below `min_items`. Rounded
// up, so n splits into 2 * SLOTS chunks and no tail chunk of a few items is left: such a chunk
// runs last, alone, and its kernels' latency adds straight to the call.
inline size_t chunk_items(size_t n, size_t min_items, size_t max_items) {
  return std::clamp((n + 2 * Pipeline::SLOTS - 1) / (2 * Pipeline::SLOTS), min_items, max_items);
}

inline size_t align64(size_t x) { return (x + 63) / 64 * 64; }

}  // namespace zkgpu::cuda::pq_launch
