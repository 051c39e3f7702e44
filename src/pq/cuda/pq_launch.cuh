// Shared by the ML-KEM / ML-DSA kernel files: the launch shape, the host copies of packing and
// delivery, the chunk sizes, and the per-device contexts the batches run in (one per operation
// family, each with the host layer's chunked pipeline, runtime/cuda/batch_pipeline.cuh).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/cuda/batch_pipeline.cuh"

namespace zkgpu::cuda::pq_launch {

constexpr int PQ_THREADS = 64;  // small blocks: each thread holds kilobytes of local memory

inline unsigned blocks_for(size_t n) { return unsigned((n + PQ_THREADS - 1) / PQ_THREADS); }

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

// The context of one operation family (Tag): its streams, its arena and its pipeline, one per
// device; zkgpu::release_gpu_caches() frees it. Families do not wait for each other.
template <class Tag>
struct PqContext {
  GpuContext gpu{"the ML-KEM / ML-DSA batches", BatchPipeline::SLOTS};
  BatchPipeline pipeline{gpu};
};

// The family's context for one call, with the call's device-memory budget (0: none).
template <class Tag>
auto pq_context(uint64_t budget) {
  auto ctx = context_cache<PqContext<Tag>>().acquire();
  ctx->gpu.begin_call(budget);
  return ctx;
}

// Chunk size for n items: enough chunks for the slots to overlap, none below `min_items`. Rounded
// up, so n splits into 2 * SLOTS chunks and no tail chunk of a few items is left: such a chunk
// runs last, alone, and its kernels' latency adds straight to the call.
inline size_t chunk_items(size_t n, size_t min_items, size_t max_items) {
  return std::clamp((n + 2 * BatchPipeline::SLOTS - 1) / (2 * BatchPipeline::SLOTS), min_items, max_items);
}

inline size_t align64(size_t x) { return (x + 63) / 64 * 64; }

// The plan function of a batch of n items of a fixed size: chunks of chunk_items(n, min_items,
// max_items) items, fewer when the budget needs it. plan_of(end, m): the plan of m items ending
// before item `end`.
template <class F>
auto fixed_chunks(size_t n, size_t min_items, size_t max_items, uint64_t budget, F plan_of, const char* what) {
  const size_t chunk = BatchPipeline::chunk_under_budget(
      chunk_items(n, min_items, max_items), budget, [&](size_t m) { return plan_of(m, m); }, what);
  return [=](size_t first) {
    const size_t end = std::min(n, first + chunk);
    return plan_of(end, end - first);
  };
}

}  // namespace zkgpu::cuda::pq_launch
