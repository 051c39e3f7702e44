// The persistent CUDA context of Ed25519 verification and the chunked, overlapped batch driver.
// Nothing is compiled or allocated per call once the buffers have grown to the batch shape: the
// base-point table is uploaded once, pinned staging and device buffers are reused, and NUM_SLOTS
// streams let chunk c+1 be packed on the host while chunk c is uploaded, verified and downloaded.
#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <mutex>

#include "runtime/cuda/runtime.cuh"
#include "ed25519/cuda/backend.hpp"
#include "ed25519/cuda/kernels.cuh"
#include "runtime/device_caches.hpp"

namespace zkgpu::ed25519::cuda {
namespace {

using zkgpu::cuda::DeviceBuffer;
using zkgpu::cuda::PinnedBuffer;
using zkgpu::cuda::Stream;

constexpr int NUM_SLOTS = 3;
constexpr size_t MIN_CHUNK_ITEMS = size_t{1} << 12;  // below this, one chunk: latency over overlap

struct Slot {
  Stream stream;
  PinnedBuffer<uint8_t> host_in, host_out;
  DeviceBuffer<uint8_t> dev_in, dev_out;
  size_t first = 0, n = 0;
  bool busy = false;

  void ensure(size_t in_bytes, size_t items) {
    if (host_in.size() < in_bytes) host_in = PinnedBuffer<uint8_t>(std::max(in_bytes, 2 * host_in.size()));
    if (host_out.size() < items) host_out = PinnedBuffer<uint8_t>(std::max(items, 2 * host_out.size()));
    dev_in.ensure(host_in.size());
    dev_out.ensure(host_out.size());
  }
};

struct Context {
  DeviceBuffer<GePrecomp<DeviceFe>> table{BASE_MULTIPLES_SIZE};  // 0B .. 128B
  std::array<Slot, NUM_SLOTS> slots;

  Context() {
    GePrecomp<DeviceFe> host[BASE_MULTIPLES_SIZE];
    ed25519_base_multiples(host);
    table.upload(host, BASE_MULTIPLES_SIZE);
    ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
  }
};

std::mutex g_mutex;  // one batch at a time per process: the context's buffers are shared
std::unique_ptr<Context> g_context;

Context& context() {
  if (!g_context) {
    ::zkgpu::runtime::register_device_cache(&release_context);
    g_context = std::make_unique<Context>();
  }
  return *g_context;
}

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
            size_t coop_max, bool poison) {
  if (poison) ZKGPU_CUDA_CHECK(cudaMemsetAsync(dev_out, 0xAB, n, s));
  if (n <= coop_max) {
    ed25519_verify_coop_kernel<<<zkgpu::cuda::ceil_div(size_t{n} * COOP_LANES, VERIFY_BLOCK), VERIFY_BLOCK, 0, s>>>(
        dev_chunk, n, FixedBaseTable<DeviceFe>{ctx.table.data()}, mode, dev_out);
  } else {
    ed25519_verify_kernel<<<zkgpu::cuda::ceil_div(n, VERIFY_BLOCK), VERIFY_BLOCK, 0, s>>>(
        dev_chunk, n, FixedBaseTable<DeviceFe>{ctx.table.data()}, mode, dev_out);
  }
  ZKGPU_CUDA_CHECK_LAUNCH();
}

void finish(Slot& s, std::span<uint8_t> out) {
  if (!s.busy) return;
  s.stream.sync();
  std::memcpy(out.data() + s.first, s.host_out.data(), s.n);
  s.busy = false;
}

}  // namespace

void verify_items(std::span<const Ed25519Item> items, std::span<uint8_t> out, VerifyMode mode,
                  const VerifyOptions& options) {
  std::lock_guard lock(g_mutex);
  Context& ctx = context();
  // Enough chunks for the streams to overlap on big batches, one chunk for small ones.
  const size_t chunk_items = std::clamp(items.size() / (2 * NUM_SLOTS), MIN_CHUNK_ITEMS, MAX_CHUNK_ITEMS);
  size_t pos = 0;
  try {
    for (int c = 0; pos < items.size(); ++c) {
      Slot& s = ctx.slots[static_cast<size_t>(c % NUM_SLOTS)];
      finish(s, out);
      ChunkLayout lay;
      size_t end = pos;
      while (end < items.size() && end - pos < chunk_items &&
             (end == pos || lay.msg_bytes + items[end].message.size() <= options.max_chunk_msg_bytes)) {
        lay.msg_bytes += items[end].message.size();
        ++end;
      }
      lay.n = end - pos;
      s.ensure(lay.bytes(), lay.n);
      pack(s.host_in.data(), items.subspan(pos, lay.n), lay);
      s.dev_in.upload(s.host_in.data(), lay.bytes(), s.stream);
      launch(ctx, s.dev_in.data(), static_cast<uint32_t>(lay.n), mode, s.dev_out.data(), s.stream, options.coop_max,
             options.result_poison);
      s.dev_out.download(s.host_out.data(), lay.n, s.stream);
      s.first = pos;
      s.n = lay.n;
      s.busy = true;
      pos = end;
    }
    for (Slot& s : ctx.slots) finish(s, out);
  } catch (...) {
    for (Slot& s : ctx.slots) {  // leave no work in flight on buffers the next call reuses
      cudaStreamSynchronize(s.stream);
      s.busy = false;
    }
    throw;
  }
}

void release_context() {
  std::lock_guard lock(g_mutex);
  g_context.reset();
}

std::vector<double> time_verify_device(std::span<const Ed25519Item> items, VerifyMode mode, int warmup, int runs,
                                       const VerifyOptions& options) {
  if (items.empty()) return {};
  std::lock_guard lock(g_mutex);
  Context& ctx = context();
  ChunkLayout lay;
  lay.n = items.size();
  for (const auto& it : items) lay.msg_bytes += it.message.size();
  Slot& s = ctx.slots[0];
  s.ensure(lay.bytes(), lay.n);
  pack(s.host_in.data(), items, lay);
  s.dev_in.upload(s.host_in.data(), lay.bytes(), s.stream);
  zkgpu::cuda::Event start, stop;
  std::vector<double> ms;
  for (int r = 0; r < warmup + runs; ++r) {
    start.record(s.stream);
    launch(ctx, s.dev_in.data(), static_cast<uint32_t>(lay.n), mode, s.dev_out.data(), s.stream, options.coop_max,
           false);
    stop.record(s.stream);
    stop.sync();
    if (r >= warmup) ms.push_back(stop.since(start));
  }
  return ms;
}

}  // namespace zkgpu::ed25519::cuda
