// The persistent CUDA context of Ed25519 verification (one per device) and its batches on the
// host layer's chunked pipeline (runtime/cuda/batch_pipeline.cuh). Nothing is compiled or
// allocated per call once the buffers have grown to the batch shape: the base-point table is
// uploaded once, pinned staging and device blocks are reused, and the pipeline's streams let chunk
// c+1 be packed on the host while chunk c is uploaded, verified and downloaded.
#include <algorithm>
#include <cstring>
#include <string>

#include "ed25519/cuda/backend.hpp"
#include "ed25519/cuda/kernels.cuh"
#include "runtime/cuda/batch_pipeline.cuh"

namespace zkgpu::ed25519::cuda {
namespace {

using zkgpu::cuda::BatchPipeline;
using zkgpu::cuda::BatchSlot;
using zkgpu::cuda::ChunkPlan;
using zkgpu::cuda::DeviceBuffer;

constexpr size_t MIN_CHUNK_ITEMS = size_t{1} << 12;  // below this, one chunk: latency over overlap

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

// Writes items into `dst` in the chunk layout.
void pack(uint8_t* dst, std::span<const Ed25519Item> items, const ChunkLayout& lay) {
  const auto n = static_cast<int64_t>(items.size());
  // Message offsets are a prefix sum, computed serially; the copies run in parallel for big chunks.
  uint64_t* off = reinterpret_cast<uint64_t*>(dst + lay.offsets());
  uint64_t* len = reinterpret_cast<uint64_t*>(dst + lay.lengths());
  uint64_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    off[i] = pos;
    len[i] = items[static_cast<size_t>(i)].message.size();
    pos += len[i];
  }
#pragma omp parallel for schedule(static) if (n >= 4096)
  for (int64_t i = 0; i < n; ++i) {
    const Ed25519Item& it = items[static_cast<size_t>(i)];
    std::memcpy(dst + lay.pk() + 32 * i, it.public_key.data(), 32);
    std::memcpy(dst + lay.sig() + 64 * i, it.signature.data(), 64);
    if (!it.message.empty()) std::memcpy(dst + lay.msgs() + off[i], it.message.data(), it.message.size());
  }
}

void launch(const Context& ctx, const uint8_t* dev_chunk, uint32_t n, VerifyMode mode, uint8_t* dev_out, cudaStream_t s,
            size_t coop_max) {
  if (n <= coop_max) {
    ed25519_verify_coop_kernel<<<zkgpu::cuda::ceil_div(size_t{n} * COOP_LANES, VERIFY_BLOCK), VERIFY_BLOCK, 0, s>>>(
        dev_chunk, n, FixedBaseTable<DeviceFe>{ctx.table.data()}, mode, dev_out);
  } else {
    ed25519_verify_kernel<<<zkgpu::cuda::ceil_div(n, VERIFY_BLOCK), VERIFY_BLOCK, 0, s>>>(
        dev_chunk, n, FixedBaseTable<DeviceFe>{ctx.table.data()}, mode, dev_out);
  }
  ZKGPU_CUDA_CHECK_LAUNCH();
}

}  // namespace

void verify_items(std::span<const Ed25519Item> items, std::span<uint8_t> out, VerifyMode mode,
                  const VerifyOptions& options) {
  auto ctx = context();
  ctx->gpu.begin_call(options.memory_budget);
  // Enough chunks for the streams to overlap on big batches, one chunk for small ones.
  const size_t chunk_items = std::clamp(items.size() / (2 * BatchPipeline::SLOTS), MIN_CHUNK_ITEMS, MAX_CHUNK_ITEMS);
  auto plan = [&](size_t pos) {
    return BatchPipeline::fill_chunk(
        pos, items.size(), chunk_items, options.max_chunk_msg_bytes, options.memory_budget,
        [&](size_t i) { return items[i].message.size(); },
        [](size_t end, size_t n, size_t msg_bytes) {
          return chunk_plan(end, ChunkLayout{n, msg_bytes});
        },
        "Ed25519 batch verification");
  };
  // The layout back from a plan: its input is 112 bytes per item and the messages.
  auto layout = [](size_t first, const ChunkPlan& p) {
    const size_t n = p.end - first;
    return ChunkLayout{n, p.in_bytes - ChunkLayout{n, 0}.bytes()};
  };
  auto pack_chunk = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
    pack(h, items.subspan(first, p.end - first), layout(first, p));
  };
  auto launch_chunk = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
    launch(*ctx, s.dev_in, static_cast<uint32_t>(p.end - first), mode, s.dev_out, s.stream, options.coop_max);
  };
  auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
    std::memcpy(out.data() + first, h, p.end - first);
  };
  ctx->pipeline.run(items.size(), {.times = nullptr, .poison_outputs = options.result_poison}, plan, pack_chunk,
                    launch_chunk, deliver);
}

void release_context() { zkgpu::cuda::context_cache<Context>().release(); }

std::vector<double> time_verify_device(std::span<const Ed25519Item> items, VerifyMode mode, int warmup, int runs,
                                       const VerifyOptions& options) {
  if (items.empty()) return {};
  auto ctx = context();
  ctx->gpu.begin_call(0);
  ChunkLayout lay;
  lay.n = items.size();
  for (const auto& it : items) lay.msg_bytes += it.message.size();
  BatchSlot& s = ctx->pipeline.slot_for(0, chunk_plan(lay.n, lay));
  pack(s.host_in.data(), items, lay);
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(s.dev_in, s.host_in.data(), lay.bytes(), cudaMemcpyHostToDevice, s.stream));
  zkgpu::cuda::Event start, stop;
  std::vector<double> ms;
  for (int r = 0; r < warmup + runs; ++r) {
    start.record(s.stream);
    launch(*ctx, s.dev_in, static_cast<uint32_t>(lay.n), mode, s.dev_out, s.stream, options.coop_max);
    stop.record(s.stream);
    stop.sync();
    if (r >= warmup) ms.push_back(stop.since(start));
  }
  return ms;
}

}  // namespace zkgpu::ed25519::cuda
