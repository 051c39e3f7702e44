// ML-DSA signing on the GPU: the drivers of the persistent kernel (mldsa_sign.cuh), for the host
// calls (the chunked pipeline over pinned staging) and the device calls (the caller's buffers and
// stream).
#include <algorithm>
#include <cstdint>

#include "pq/cuda/mldsa_sign.cuh"
#include "pq/cuda/pq_device.cuh"
#include "pq/pq_cuda.hpp"

namespace zkgpu::cuda {

namespace {
using namespace mldsa_sign;

// Blocks of the persistent kernel: as many as are resident on the device at once (at most
// max_blocks when that is nonzero), fewer for a small chunk.
template <class P>
unsigned sign_blocks(size_t n, unsigned max_blocks) {
  static const unsigned resident = [] {
    int dev = 0, sms = 0, per_sm = 0;
    ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
    ZKGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    ZKGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sign_kernel<P>, 32 * SIGN_WARPS, 0));
    return unsigned(std::max(1, sms * std::max(1, per_sm)));
  }();
  const unsigned cap = max_blocks ? std::min(resident, max_blocks) : resident;
  return unsigned(std::min<size_t>(cap, (n + SIGN_WARPS - 1) / SIGN_WARPS));
}

template <class P>
size_t sign_scratch_bytes(size_t n, unsigned max_blocks) {
  return size_t(sign_blocks<P>(n, max_blocks)) * SIGN_WARPS * WarpSlot<P>::BYTES + 256;  // + the work counter
}

// Items per chunk: enough chunks for the pipeline's streams to overlap one chunk's tail (the
// warps still on their last items) with the next chunk.
constexpr size_t SIGN_MIN_CHUNK = size_t(1) << 11, SIGN_MAX_CHUNK = size_t(1) << 14;

struct SignTag;

// Chunk layout in pinned host and device memory: sk | meta | rnd | blob; results: sig | ok.
template <class P>
struct SignLayout {
  size_t n = 0, blob = 0;
  size_t meta() const { return align64(n * P::SK_BYTES); }
  size_t rnd() const { return meta() + align64(n * sizeof(mldsa_msg::MsgMeta)); }
  size_t blob_at() const { return rnd() + align64(n * 32); }
  size_t bytes() const { return blob_at() + blob; }
  size_t ok() const { return align64(n * P::SIG_BYTES); }
  bool profiled = false;                             // the counters follow the results
  size_t prof() const { return align64(ok() + n); }  // the counters, when profiled
  size_t out_bytes() const { return prof() + (profiled ? PROF_SLOTS * sizeof(unsigned long long) : 0); }
};

// Adds one chunk's counters to the caller's profile.
inline void add_profile(MlDsaSignProfile& out, size_t n, const unsigned long long* prof) {
  if (out.phase_cycles.empty())
    for (int p = 0; p < PHASES; ++p) out.phase_cycles.emplace_back(PHASE_NAMES[p], 0);
  for (int p = 0; p < PHASES; ++p) out.phase_cycles[size_t(p)].second += prof[p];
  out.attempts += prof[PHASES];
  out.items += n;
}

// Enqueues the persistent kernel for the m items of g on st, with sign_scratch_bytes<P>(m,
// max_blocks) bytes at slots for the warps' slots and the work counter: what a chunk of the host
// pipeline and a chunk of a device call both run.
template <class P>
void sign_chunk(cudaStream_t st, size_t m, SignArgs g, uint8_t* slots, unsigned max_blocks) {
  const unsigned blocks = sign_blocks<P>(m, max_blocks);
  g.slots = slots;
  g.next_item = reinterpret_cast<uint32_t*>(slots + size_t(blocks) * SIGN_WARPS * WarpSlot<P>::BYTES);
  ZKGPU_CUDA_CHECK(cudaMemsetAsync(g.next_item, 0, sizeof(uint32_t), st));
  if (g.prof) ZKGPU_CUDA_CHECK(cudaMemsetAsync(g.prof, 0, PROF_SLOTS * sizeof(unsigned long long), st));
  sign_kernel<P><<<blocks, 32 * SIGN_WARPS, 0, st>>>(m, g);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

// A device call's chunk scratch: the kernel's, then the chunk's MsgMeta and valid bytes, and 32
// zero bytes, the rnd of every item when the caller gives none.
template <class P>
struct DeviceSignScratch {
  size_t n;
  size_t meta() const { return align64(sign_scratch_bytes<P>(n, 0)); }
  size_t valid() const { return meta() + align64(n * sizeof(mldsa_msg::MsgMeta)); }
  size_t zero_rnd() const { return valid() + align64(n); }
  size_t bytes() const { return zero_rnd() + 32; }
};

constexpr size_t SIGN_DEVICE_CHUNK = pq_device::chunk_items(SIGN_MAX_CHUNK);

}  // namespace

void mldsa_sign_items(int level, std::span<const MlDsaSignItem> items, uint8_t* sigs, uint8_t* ok,
                      const MlDsaSignGpuOptions& options) {
  const unsigned max_blocks = options.max_blocks;
  const bool profiled = options.profile != nullptr;
  std::vector<uint32_t> todo;  // the items to sign, packed
  for (size_t i = 0; i < items.size(); ++i)
    if (ok[i]) todo.push_back(uint32_t(i));
  if (todo.empty()) return;
  mldsa_warp::with_level(level, [&]<class P>() {
    const size_t chunk = chunk_items(todo.size(), SIGN_MIN_CHUNK, SIGN_MAX_CHUNK);
    auto layout = [&](size_t first, size_t end) {
      SignLayout<P> lay{end - first};
      lay.profiled = profiled;
      for (size_t j = first; j < end; ++j) lay.blob += mldsa_msg::blob_bytes(items[todo[j]]);
      return lay;
    };
    auto plan = [&](size_t first) {
      return BatchPipeline::fill_chunk(
          first, todo.size(), chunk, SIZE_MAX, options.memory_budget,
          [&](size_t j) { return mldsa_msg::blob_bytes(items[todo[j]]); },
          [&](size_t end, size_t m, size_t blob) {
            SignLayout<P> lay{m, blob};
            lay.profiled = profiled;
            return ChunkPlan{end, lay.bytes(), lay.out_bytes(), sign_scratch_bytes<P>(m, max_blocks)};
          },
          "ML-DSA signing");
    };
    auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
      const SignLayout<P> lay = layout(first, p.end);
      auto* meta = reinterpret_cast<mldsa_msg::MsgMeta*>(h + lay.meta());
      mldsa_msg::set_meta(meta, items, todo.data() + first, lay.n);
      const auto n = int64_t(lay.n);
#pragma omp parallel for schedule(static) if (n >= 1024)
      for (int64_t j = 0; j < n; ++j) {
        const MlDsaSignItem& it = items[todo[first + size_t(j)]];
        std::memcpy(h + j * P::SK_BYTES, it.sk.data(), P::SK_BYTES);
        uint8_t* r = h + lay.rnd() + j * 32;
        if (it.rnd.empty())
          std::memset(r, 0, 32);  // deterministic signing: rnd = 0^32
        else
          std::memcpy(r, it.rnd.data(), 32);
        mldsa_msg::copy_message(h + lay.blob_at(), meta[j], it);
      }
    };
    auto launch = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
      const SignLayout<P> lay = layout(first, p.end);
      const uint8_t* in = s.dev_in;
      SignArgs g{};
      g.sk = in;
      g.msg = {reinterpret_cast<const mldsa_msg::MsgMeta*>(in + lay.meta()), in + lay.blob_at(), in + lay.blob_at()};
      g.rnd = in + lay.rnd();
      g.rnd_stride = 32;
      g.sig = s.dev_out;
      g.ok = s.dev_out + lay.ok();
      if (profiled) g.prof = reinterpret_cast<unsigned long long*>(s.dev_out + lay.prof());
      sign_chunk<P>(s.stream, lay.n, g, s.dev_scratch, max_blocks);
      s.phases->mark("sign");
    };
    auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
      const size_t n = p.end - first;
      const size_t ok_at = align64(n * P::SIG_BYTES);
#pragma omp parallel for schedule(static) if (n >= 1024)
      for (int64_t j = 0; j < int64_t(n); ++j) {
        const size_t i = todo[first + size_t(j)];
        ok[i] = h[ok_at + size_t(j)];
        std::memcpy(sigs + i * P::SIG_BYTES, h + size_t(j) * P::SIG_BYTES, P::SIG_BYTES);
      }
      if (profiled) {
        const SignLayout<P> lay{n};
        add_profile(*options.profile, n, reinterpret_cast<const unsigned long long*>(h + lay.prof()));
      }
    };
    pq_context<SignTag>(options.memory_budget)
        ->pipeline.run(todo.size(), {.times = options.phases}, plan, pack, launch, deliver);
  });
}

void mldsa_sign_device(int level, const MlDsaPackedSignBatch& batch, uint8_t* sigs, uint8_t* status, void* stream,
                       const PqGpuOptions& options) {
  const auto st = static_cast<cudaStream_t>(stream);
  mldsa_warp::with_level(level, [&]<class P>() {
    const size_t n = batch.secret_keys.size() / P::SK_BYTES;
    auto launch = [&](size_t first, size_t m, uint8_t* x, PhaseProfiler& ph) {
      const DeviceSignScratch<P> sc{m};
      auto* meta = reinterpret_cast<mldsa_msg::MsgMeta*>(x + sc.meta());
      mldsa_msg::device_meta(st, first, m, batch.messages, meta, x + sc.valid());
      ph.mark("offsets");
      SignArgs g{};
      g.sk = batch.secret_keys.data() + first * P::SK_BYTES;
      g.msg = {meta, batch.messages.messages.data(), batch.messages.contexts.data()};
      g.valid = x + sc.valid();
      if (batch.rnds.empty()) {
        ZKGPU_CUDA_CHECK(cudaMemsetAsync(x + sc.zero_rnd(), 0, 32, st));  // deterministic: rnd = 0^32
        g.rnd = x + sc.zero_rnd();
      } else {
        g.rnd = batch.rnds.data() + first * 32;
        g.rnd_stride = 32;
      }
      g.sig = sigs + first * P::SIG_BYTES;
      g.ok = status + first;
      sign_chunk<P>(st, m, g, x, 0);
      ph.mark("sign");
      pq_device::finish_statuses(st, m, g.ok, {g.sig, P::SIG_BYTES});
      ph.mark("status");
    };
    pq_device::run_on_stream(
        n, SIGN_DEVICE_CHUNK, st, options, [](size_t m) { return DeviceSignScratch<P>{m}.bytes(); }, launch,
        "ML-DSA signing");
  });
}

}  // namespace zkgpu::cuda
