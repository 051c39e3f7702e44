// The persistent CUDA context of Ed25519 verification (one per device) and its batches on the
// host layer's chunked pipeline (runtime/cuda/batch_pipeline.cuh). Nothing is compiled or
// allocated per call once the buffers have grown to the batch shape: the base-point table is
// uploaded once, pinned staging and device blocks are reused, and the pipeline's streams let chunk
// c+1 be packed on the host while chunk c is uploaded, verified and downloaded. Arrays already on
// the device (verify_on_stream) go to the kernels as they are.
#include <cstring>
#include <type_traits>

#include "ed25519/chunk_pack.hpp"
#include "ed25519/cuda/backend.hpp"
#include "ed25519/cuda/kernels.cuh"
#include "runtime/cuda/batch_pipeline.cuh"

namespace zkgpu::ed25519::cuda {
namespace {

using zkgpu::cuda::BatchPipeline;
using zkgpu::cuda::BatchSlot;
using zkgpu::cuda::ChunkPlan;
using zkgpu::cuda::DeviceBuffer;

static_assert(PIPELINE_SLOTS == BatchPipeline::SLOTS);

// Launches of the device-pointer call hold at most this many items: 4 lanes each still index
// below 2^32 in the kernels' 32-bit thread numbers.
constexpr size_t MAX_LAUNCH_ITEMS = size_t{1} << 28;

struct Context {
  zkgpu::cuda::GpuContext gpu{"Ed25519 batch verification", BatchPipeline::SLOTS};
  // A constant of the context, outside the arena: the budget bounds the batch's chunks.
  DeviceBuffer<GePrecomp<DeviceFe>> table{BASE_MULTIPLES_SIZE};  // 0B .. 128B
  BatchPipeline pipeline{gpu};

  Context() {
    GePrecomp<DeviceFe> host[BASE_MULTIPLES_SIZE];
    ed25519_base_multiples(host);
    table.upload(host, BASE_MULTIPLES_SIZE);
    ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
  }
};

auto context() { return zkgpu::cuda::context_cache<Context>().acquire(); }

// A chunk ending at item `end`: its layout in, one verdict per item out.
ChunkPlan chunk_plan(size_t end, const ChunkLayout& lay) { return ChunkPlan{end, lay.bytes(), lay.n, 0}; }

// The device arrays of a chunk packed at dev_chunk.
ItemArrays chunk_arrays(const uint8_t* dev_chunk, const ChunkLayout& lay) {
  return {dev_chunk + lay.pk(),   dev_chunk + lay.sig(), reinterpret_cast<const uint64_t*>(dev_chunk + lay.offsets()),
          dev_chunk + lay.msgs(), lay.msg_bytes,         lay.n};
}

void launch(const Context& ctx, const ItemArrays& a, VerifyMode mode, uint8_t* dev_out, cudaStream_t s,
            size_t coop_max) {
  const auto n = static_cast<uint32_t>(a.n);
  const FixedBaseTable<DeviceFe> table{ctx.table.data()};
  if (a.n <= coop_max) {
    ed25519_verify_coop_kernel<<<zkgpu::cuda::ceil_div(a.n * COOP_LANES, VERIFY_BLOCK), VERIFY_BLOCK, 0, s>>>(
        a.public_keys, a.signatures, a.offsets, a.messages, a.message_bytes, n, table, mode, dev_out);
  } else {
    ed25519_verify_kernel<<<zkgpu::cuda::ceil_div(a.n, VERIFY_BLOCK), VERIFY_BLOCK, 0, s>>>(
        a.public_keys, a.signatures, a.offsets, a.messages, a.message_bytes, n, table, mode, dev_out);
  }
  ZKGPU_CUDA_CHECK_LAUNCH();
}

// The chunk from `pos`: chunk_items items while their messages fit the chunk's byte budget (and
// the memory budget). Packed (or filled) input without a memory budget reads the chunk's bytes off the
// offsets instead of adding the items up one by one.
template <class Src>
ChunkPlan plan_chunk(const Src& items, size_t pos, size_t chunk_items, const VerifyOptions& options) {
  if constexpr (std::is_same_v<Src, PackedItems> || std::is_same_v<Src, FilledItems>) {
    const size_t end = std::min(items.size(), pos + chunk_items);
    if constexpr (std::is_same_v<Src, FilledItems>)  // checked here, before this chunk's callback
      check_nondecreasing(items.offsets, pos, end, "zkgpu_ed25519_verify_batch_fill");
    const uint64_t bytes = items.offsets[end] - items.offsets[pos];
    if (!options.memory_budget && bytes <= options.max_chunk_msg_bytes)
      return chunk_plan(end, ChunkLayout{end - pos, static_cast<size_t>(bytes)});
  }
  return BatchPipeline::fill_chunk(
      pos, items.size(), chunk_items, options.max_chunk_msg_bytes, options.memory_budget,
      [&](size_t i) { return items.message_size(i); },
      [](size_t end, size_t n, size_t msg_bytes) {
        return chunk_plan(end, ChunkLayout{n, msg_bytes});
      },
      "Ed25519 batch verification");
}

template <class Src>
void run_batch(Context& ctx, const Src& items, std::span<uint8_t> out, VerifyMode mode, const VerifyOptions& options) {
  ctx.gpu.begin_call(options.memory_budget);
  const size_t chunk_items = chunk_items_for(items.size(), options.min_chunk_items);
  auto plan = [&](size_t pos) { return plan_chunk(items, pos, chunk_items, options); };
  // The layout back from a plan: its input is the fixed part per item and the messages.
  auto layout = [](size_t first, const ChunkPlan& p) {
    const size_t n = p.end - first;
    return ChunkLayout{n, p.in_bytes - ChunkLayout{n, 0}.bytes()};
  };
  auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
    pack_chunk(h, items.slice(first, p.end - first), layout(first, p));
  };
  auto launch_chunk = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
    launch(ctx, chunk_arrays(s.dev_in, layout(first, p)), mode, s.dev_out, s.stream, options.coop_max);
  };
  auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
    std::memcpy(out.data() + first, h, p.end - first);
    // The kernel judged a malformed item's zero key and signature: its verdict is 0 by definition.
    if constexpr (std::is_same_v<Src, PointerItems>)
      for (size_t i = first; i < p.end; ++i)
        if (!items.well_formed(i)) out[i] = 0;
  };
  ctx.pipeline.run(items.size(), {.times = nullptr, .poison_outputs = options.result_poison}, plan, pack, launch_chunk,
                   deliver);
}

}  // namespace

void verify_items(const ItemSource& items, std::span<uint8_t> out, VerifyMode mode, const VerifyOptions& options) {
  auto ctx = context();
  items.visit([&](const auto& src) { run_batch(*ctx, src, out, mode, options); });
}

void verify_filled(const FilledItems& items, std::span<uint8_t> out, VerifyMode mode, const VerifyOptions& options) {
  auto ctx = context();
  run_batch(*ctx, items, out, mode, options);
}

void verify_on_stream(const ItemArrays& items, uint8_t* verdicts, VerifyMode mode, void* stream,
                      const VerifyOptions& options) {
  if (items.n == 0) return;
  // The lease ends when this returns, with the kernels still queued: they read only the table,
  // which lives until release_gpu_caches() (whose cudaFree waits for the device).
  auto ctx = context();
  const auto s = static_cast<cudaStream_t>(stream);
  const bool coop = items.n <= options.coop_max;  // the kernel a chunk of all n items would run
  for (size_t first = 0; first < items.n; first += MAX_LAUNCH_ITEMS) {
    const size_t count = std::min(MAX_LAUNCH_ITEMS, items.n - first);
    launch(*ctx, items.slice(first, count), mode, verdicts + first, s, coop ? SIZE_MAX : 0);
  }
}

void release_context() { zkgpu::cuda::context_cache<Context>().release(); }

}  // namespace zkgpu::ed25519::cuda
