// The ML-KEM / ML-DSA device-pointer calls (pq_cuda.hpp, *_device): the kernels of the host
// calls launched on the caller's buffers and stream, in chunks that reuse one stream-ordered
// scratch buffer, and the step that turns the kernels' ok bytes into PqStatus values (the host
// calls do that on the host after the download).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "pq/cuda/pq_launch.cuh"
#include "pq/pq_cuda.hpp"
#include "runtime/budget.hpp"
#include "runtime/cuda/phase_profiler.cuh"
#include "runtime/cuda/stream_buffer.cuh"

namespace zkgpu::cuda::pq_device {

// Items per chunk of a device call: as many as the host pipeline keeps in flight on its streams
// (SLOTS chunks of its largest size), so a device call holds no more scratch than a host call.
constexpr size_t chunk_items(size_t host_max_chunk) { return BatchPipeline::SLOTS * host_max_chunk; }

// Runs items [0, n) on the caller's stream in chunks of at most max_items, one after the other;
// each chunk reuses one scratch buffer of scratch_bytes(m) bytes for the largest chunk m (the
// stream orders the chunks, and frees the buffer after the last). Under a budget the chunks shrink
// until their scratch fits it; Error(OutOfMemory) naming `what` when one item's does not.
// launch(first, m, scratch, phases) enqueues chunk [first, first + m) on `st`. With phase times
// asked for, the call waits for its work, since the events must be read.
template <class ScratchF, class LaunchF>
void run_on_stream(size_t n, size_t max_items, cudaStream_t st, const PqGpuOptions& options, ScratchF&& scratch_bytes,
                   LaunchF&& launch, const char* what) {
  if (n == 0) return;
  size_t chunk = std::min(n, max_items);
  if (const uint64_t budget = options.memory_budget) {
    chunk = runtime::largest_fitting(chunk, [&](size_t m) { return scratch_bytes(m) <= budget; });
    if (chunk == 0)
      runtime::throw_over_budget(std::string(what) + " (one item on the caller's stream)", scratch_bytes(size_t{1}),
                                 budget);
  }
  StreamBuffer<uint8_t> scratch(scratch_bytes(chunk), st, what);
  PhaseProfiler phases(options.phases, st);
  for (size_t first = 0; first < n; first += chunk) launch(first, std::min(chunk, n - first), scratch.data(), phases);
  phases.finish();
}

// An output that a rejected item gets zeroed: `bytes` per item from base.
struct RejectedOutput {
  uint8_t* base = nullptr;
  size_t bytes = 0;
};

// In place over n items: status[i] = PqStatus::Ok where the kernels left ok byte 1 there, else
// PqStatus::InvalidInput with the item's outputs a and b zeroed, as the host calls give them.
void finish_statuses(cudaStream_t st, size_t n, uint8_t* status, RejectedOutput a, RejectedOutput b = {});

}  // namespace zkgpu::cuda::pq_device
