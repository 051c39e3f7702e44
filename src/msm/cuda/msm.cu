// GPU Pippenger for BLS12-377 (docs/msm.md): signed digits -> radix sort of (bucket, point) pairs
// -> bucket sums by fixed chunks of the sorted entries (one thread each, every thread the same
// number of additions, so skewed scalars stay load-balanced), repeated on the partial sums of the
// buckets that cross chunks until none is left -> bucket reduction by partitioned running sums ->
// a pairwise tree. Resident bases with a window table (2^(c*j) * P per window) use one bucket set
// for all windows; otherwise each window has its own, and the W window sums are combined on the
// host (Horner's c doublings per window are a serial chain, which one CPU core runs faster than
// one GPU thread).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "core/bls12_377/signed_digits.hpp"
#include "cuda/runtime.cuh"
#include "msm/cuda/api.hpp"

namespace zkgpu::bls12_377 {

namespace detail {
struct DeviceBases {
  ::zkgpu::cuda::DeviceBuffer<TePrecomputed> points;
  size_t n = 0;
  // Window copies for repeated MSMs: table[j*n + i] = 2^(table_c*j) * points[i] for j < table_windows
  // (j = 0 is `points` itself), so every window adds into one shared bucket set (docs/msm.md).
  // table_windows = 0 when they did not fit in device memory.
  ::zkgpu::cuda::DeviceBuffer<TePrecomputed> table;
  unsigned table_c = 0, table_windows = 0;
};
}  // namespace detail

namespace cuda {
namespace rt = ::zkgpu::cuda;

namespace {

// Entries summed by one thread (fewer when that leaves the GPU idle). Longer chunks leave fewer
// partial sums for the next level: about two per chunk when buckets span several chunks.
constexpr uint32_t MAX_CHUNK = 64;
constexpr uint32_t FILL_THREADS = 1u << 18;  // about five waves of bucket-sum threads on an H200
constexpr uint32_t PART = 64;        // most buckets per thread in the window reduction
constexpr size_t REDUCE_THREADS = size_t{1} << 16;
constexpr uint32_t NEG_BIT = 0x80000000u;
constexpr unsigned BLOCK = 256;
// The bucket-sum kernels use about 160 registers: 12 warps fit an SM, which 256-thread blocks
// (8 warps) would cut to 8.
constexpr unsigned SUM_BLOCK = 128;

// Points [first, first + count) of n; keys/vals are window-major (index w*n + i). Per window
// buckets (shared = false): key = (w, |d| - 1), value = base index i. One shared bucket set over the
// window table (shared = true): key = |d| - 1, value = table index w*n + i. Zero digits get the
// sentinel key, which sorts last.
__global__ void digits_kernel(const Scalar* scalars, uint32_t first, uint32_t count, uint32_t n, unsigned c,
                              unsigned windows, bool shared, uint32_t* keys, uint32_t* vals) {
  uint32_t i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= first + count) return;
  const Scalar s = scalars[i];
  const uint32_t sentinel = static_cast<uint32_t>(shared ? 1 : windows) << (c - 1);
  uint32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    int32_t d = next_signed_digit(s, w, c, carry);
    size_t o = static_cast<size_t>(w) * n + i;
    if (d == 0) {
      keys[o] = sentinel;
      vals[o] = 0;
    } else {
      uint32_t mag = static_cast<uint32_t>(d < 0 ? -d : d);
      keys[o] = shared ? mag - 1 : (static_cast<uint32_t>(w) << (c - 1)) | (mag - 1);
      vals[o] = static_cast<uint32_t>(shared ? o : i) | (d < 0 ? NEG_BIT : 0u);
    }
  }
}

// Window table step: next[i] = 2^c * prev[i] for TABLE_BATCH consecutive points per thread, with
// one inversion per batch to bring the results back to the stored affine form. The projective
// (X, Y, Z) of each result waits in its output slot between the two passes (TePrecomputed has room
// for three coordinates), so the doublings run once.
constexpr uint32_t TABLE_BATCH = 16;
__global__ void window_table_kernel(const TePrecomputed* prev, TePrecomputed* next, uint32_t n, unsigned c,
                                    Fp half) {
  const uint32_t first = (blockIdx.x * blockDim.x + threadIdx.x) * TABLE_BATCH;
  if (first >= n) return;
  const uint32_t count = n - first < TABLE_BATCH ? n - first : TABLE_BATCH;
  Fp prefix[TABLE_BATCH];
  Fp acc = Fp::one();
  for (uint32_t b = 0; b < count; ++b) {
    const TePrecomputed p = prev[first + b];
    const Fp x = (p.ypx - p.ymx) * half, y = (p.ypx + p.ymx) * half;  // stored (y - x, y + x)
    TeExtended q{x, y, Fp::one(), x * y};
    for (unsigned k = 0; k < c; ++k) q = te_double(q);
    next[first + b] = TePrecomputed{q.x, q.y, q.z};
    prefix[b] = acc;
    acc *= q.z;  // never zero: the doubling formulas are complete on G1
  }
  Fp inv = acc.inverse();
  for (uint32_t b = count; b-- > 0;) {
    const TePrecomputed q = next[first + b];
    const Fp zi = inv * prefix[b];
    inv *= q.kt;  // the slot's third word holds Z
    next[first + b] = te_precompute(q.ymx * zi, q.ypx * zi);
  }
}

// The number of keys below the sentinel (keys are sorted): the one index where the sentinel starts.
__global__ void count_valid_kernel(const uint32_t* keys, uint32_t n, uint32_t sentinel, uint32_t* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (keys[i] >= sentinel && (i == 0 || keys[i - 1] < sentinel)) *out = i;
}

// Bucket sums over the sorted entries in fixed chunks of S entries, one chunk per thread, so every
// thread does the same number of additions whatever the distribution of the scalars (all equal
// puts a whole window in one bucket). A run of equal keys that lies wholly inside a chunk is a
// finished bucket sum and is written straight into the dense bucket array; a run that crosses a
// chunk boundary leaves partial sums (at most two per chunk: the run continuing from the chunk
// before, the run continuing into the next), which the next level sums the same way. Partial sums
// keep the key order, so all partials of a bucket are adjacent at the next level too.
__device__ __forceinline__ void chunk_range(uint32_t t, uint32_t S, uint32_t L, uint32_t& b, uint32_t& e) {
  b = t * S;
  e = b + S < L ? b + S : L;
}

// The number of partial sums chunk t leaves (0, 1 or 2); the same rule as chunk_sums_kernel.
__global__ void partial_count_kernel(const uint32_t* keys, uint32_t L, uint32_t S, uint32_t chunks, uint32_t* count) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= chunks) return;
  uint32_t b, e;
  chunk_range(t, S, L, b, e);
  const uint32_t first = keys[b], last = keys[e - 1];
  const bool head = b > 0 && keys[b - 1] == first;
  const bool tail = e < L && keys[e] == last && !(head && first == last);
  count[t] = static_cast<uint32_t>(head) + static_cast<uint32_t>(tail);
}

// Level 0 (BASES): entries are signed base indices, added with the 7M mixed adder. Later levels:
// entries are the partial sums of the level before. pos[t] is where chunk t's partials go.
template <bool BASES, int MIN_BLOCKS>
__global__ void __launch_bounds__(SUM_BLOCK, MIN_BLOCKS) chunk_sums_kernel(const uint32_t* keys, const uint32_t* vals, const TePrecomputed* bases,
                                  const TeExtended* in, uint32_t L, uint32_t S, uint32_t chunks, const uint32_t* pos,
                                  TeExtended* buckets, uint32_t* out_keys, TeExtended* out) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= chunks) return;
  uint32_t b, e;
  chunk_range(t, S, L, b, e);
  const bool head = b > 0 && keys[b - 1] == keys[b];
  uint32_t o = pos[t];
  uint32_t cur = keys[b];
  bool first_run = true;
  TeExtended acc = TeExtended::identity();
  for (uint32_t i = b; i < e; ++i) {
    const uint32_t k = keys[i];
    if (k != cur) {  // the run of `cur` ends inside this chunk
      if (first_run && head) {
        out_keys[o] = cur;
        out[o++] = acc;
      } else {
        buckets[cur] = acc;
      }
      first_run = false;
      cur = k;
      acc = TeExtended::identity();
    }
    if constexpr (BASES) {
      const uint32_t v = vals[i];
      TePrecomputed p = bases[v & ~NEG_BIT];
      if (v & NEG_BIT) p = p.neg();
      acc = te_add_precomputed(acc, p);
    } else {
      acc = te_add(acc, in[i]);
    }
  }
  const bool tail = e < L && keys[e] == cur;
  if ((first_run && head) || tail) {
    out_keys[o] = cur;
    out[o] = acc;
  } else {
    buckets[cur] = acc;
  }
}

// Bases from host memory to the stored TE form: CONVERT_BATCH consecutive points per thread with one
// inversion (sw_to_te_batch, the function the CPU's precompute_te runs per thread).
constexpr uint32_t CONVERT_BATCH = 32;
__global__ void sw_to_te_kernel(const G1Affine* in, TePrecomputed* out, uint32_t n, uint32_t* bad) {
  uint32_t first = (blockIdx.x * blockDim.x + threadIdx.x) * CONVERT_BATCH;
  if (first >= n) return;
  uint32_t count = n - first < CONVERT_BATCH ? n - first : CONVERT_BATCH;
  Fp prefix[CONVERT_BATCH];
  size_t b = sw_to_te_batch(in + first, out + first, count, prefix);
  if (b != count) atomicMin(bad, first + static_cast<uint32_t>(b));
}

__global__ void fill_identity_kernel(TeExtended* p, size_t n) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = TeExtended::identity();
}

// One thread per PART buckets of a window: sum_j (j+1) B_j over its range [lo, lo+len) as
// running sums (giving sum (j-lo+1) B_j) plus lo times the range's plain sum.
__global__ void window_parts_kernel(const TeExtended* buckets, uint32_t buckets_per_window, uint32_t len,
                                    uint32_t parts_per_window, uint32_t total_parts, TeExtended* parts) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= total_parts) return;
  uint32_t w = t / parts_per_window, part = t % parts_per_window;
  uint32_t lo = part * len;
  const TeExtended* b = buckets + static_cast<size_t>(w) * buckets_per_window;
  TeExtended run = TeExtended::identity(), acc = TeExtended::identity();
  for (uint32_t j = lo + len; j-- > lo;) {
    run = te_add(run, b[j]);
    acc = te_add(acc, run);
  }
  TeExtended scaled = TeExtended::identity();  // lo * run by double-and-add from lo's top bit
  for (int bit = lo ? 31 - __clz(lo) : -1; bit >= 0; --bit) {
    scaled = te_double(scaled);
    if ((lo >> bit) & 1) scaled = te_add(scaled, run);
  }
  parts[t] = te_add(acc, scaled);
}

// out[w][j] = in[w][2j] + in[w][2j+1]: one level of a pairwise tree per window.
__global__ void pair_reduce_kernel(const TeExtended* in, TeExtended* out, uint32_t width, uint32_t windows) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t half = width / 2;
  if (t >= half * windows) return;
  uint32_t w = t / half, j = t % half;
  out[static_cast<size_t>(w) * half + j] =
      te_add(in[static_cast<size_t>(w) * width + 2 * j], in[static_cast<size_t>(w) * width + 2 * j + 1]);
}

template <class T>
void grow(rt::DeviceBuffer<T>& b, size_t n) {
  b.ensure(std::max<size_t>(n, 1));
}

// Process-wide buffers, grown on demand and reused (one MSM at a time).
struct Workspace {
  std::mutex mu;
  rt::DeviceBuffer<Scalar> scalars;
  rt::DeviceBuffer<TePrecomputed> points;  // for inputs that come from the host each call
  rt::DeviceBuffer<G1Affine> sw_points;
  rt::DeviceBuffer<uint32_t> keys[2], vals[2], pos, part_keys[2];
  rt::DeviceBuffer<uint32_t> counters;  // [0] valid entries, [1] segments
  rt::DeviceBuffer<uint32_t> bad;       // the first base where the TE map is undefined (from-host bases)
  rt::DeviceBuffer<TeExtended> sums[2], buckets, parts[2];  // sums: partial bucket sums per level
  rt::DeviceBuffer<unsigned char> temp;
  // Inputs from host memory go through two pinned staging buffers: the copy into pinned memory
  // (CPU threads), the upload (copy engine, on copy_stream) and the kernels on the chunks already
  // landed (SMs) overlap.
  static constexpr size_t STAGE_BYTES = size_t{32} << 20;
  rt::PinnedBuffer<unsigned char> stage[2];
  cudaEvent_t stage_free[2] = {nullptr, nullptr};  // recorded on copy_stream after each upload
  cudaEvent_t compute_ready = nullptr, landed = nullptr, valid_ready = nullptr;
  std::unique_ptr<rt::Stream> copy_stream;
  bool poison = false;
};
Workspace& workspace() {
  static Workspace ws;
  return ws;
}

template <class T>
void poison_fill(rt::DeviceBuffer<T>& b, cudaStream_t s) {
  if (b.size()) ZKGPU_CUDA_CHECK(cudaMemsetAsync(b.data(), 0xff, b.size() * sizeof(T), s));
}

void ensure_temp(Workspace& ws, size_t bytes) { grow(ws.temp, bytes); }

unsigned blocks_for(size_t n) { return rt::ceil_div(std::max<size_t>(n, 1), BLOCK); }

// Level-0 bucket sums capped at 128 registers (16 warps per SM, about 90 bytes of spills) instead
// of 168 (12 warps): ZKGPU_MSM_SUM_REGS=128 picks the capped build while the two are compared on
// the H200 (docs/msm.md).
bool capped_sum_registers() {
  static const bool capped = [] {
    const char* e = std::getenv("ZKGPU_MSM_SUM_REGS");
    return e && std::string(e) == "128";
  }();
  return capped;
}

// Entries per chunk for L sorted entries: MAX_CHUNK, or fewer (down to 4) when that many chunks
// would leave the GPU without enough threads.
uint32_t chunk_entries(size_t L) {
  return static_cast<uint32_t>(std::clamp<size_t>((L + FILL_THREADS - 1) / FILL_THREADS, 4, MAX_CHUNK));
}
size_t chunks_for(size_t L) { return std::max<size_t>(1, (L + chunk_entries(L) - 1) / chunk_entries(L)); }
// The most chunks any L <= entries gives (chunks_for is not monotonic: 4F entries make F chunks of
// 4, 4F + 1 make fewer chunks of 5), so buffers sized by it fit the first level (L = the nonzero
// digits) and every later one (at most 2 * chunks entries).
size_t chunk_capacity(size_t entries) {
  return std::max<size_t>({1, (entries + MAX_CHUNK - 1) / MAX_CHUNK, std::min<size_t>((entries + 3) / 4, FILL_THREADS)});
}

// memcpy with several threads: one core copies pageable memory at about 10 GB/s, a fraction of
// what the PCIe upload behind it takes.
void parallel_memcpy(void* dst, const void* src, size_t bytes) {
  static const unsigned max_threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  constexpr size_t MIN_SLICE = size_t{1} << 20;
  const unsigned t = static_cast<unsigned>(std::min<size_t>(max_threads, std::max<size_t>(1, bytes / MIN_SLICE)));
  const size_t slice = (bytes / t + 63) & ~size_t{63};
  std::vector<std::thread> workers;
  for (unsigned k = 1; k < t; ++k) {
    const size_t b = std::min(bytes, k * slice), e = std::min(bytes, b + slice);
    if (b < e)
      workers.emplace_back([=] { std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, e - b); });
  }
  std::memcpy(dst, src, std::min(bytes, slice));
  for (auto& w : workers) w.join();
}

void ensure_staging(Workspace& ws) {
  for (int k = 0; k < 2; ++k) {
    if (!ws.stage[k].data()) ws.stage[k] = rt::PinnedBuffer<unsigned char>(Workspace::STAGE_BYTES);
    if (!ws.stage_free[k]) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&ws.stage_free[k], cudaEventDisableTiming));
  }
  if (!ws.compute_ready) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&ws.compute_ready, cudaEventDisableTiming));
  if (!ws.landed) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&ws.landed, cudaEventDisableTiming));
  if (!ws.valid_ready) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&ws.valid_ready, cudaEventDisableTiming));
  if (!ws.copy_stream) ws.copy_stream = std::make_unique<rt::Stream>();
}

// Uploads count elements from pageable host memory to dst (device) through the pinned staging
// buffers on ws.copy_stream (when poisoning, after the work queued on `compute`: the fill of dst).
// After each chunk's upload is queued, on_chunk(first, count, landed_event) may queue work on the
// chunk: `compute` must wait for landed_event first.
template <class T, class F>
void staged_upload(Workspace& ws, T* dst, const T* host, size_t count, size_t chunk, cudaStream_t compute,
                   F&& on_chunk) {
  ensure_staging(ws);
  cudaStream_t copy = *ws.copy_stream;
  if (ws.poison) {  // the poison fill of dst, queued on compute, comes first
    ZKGPU_CUDA_CHECK(cudaEventRecord(ws.compute_ready, compute));
    ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(copy, ws.compute_ready, 0));
  }
  int k = 0;
  for (size_t first = 0; first < count; first += chunk, k ^= 1) {
    const size_t c = std::min(chunk, count - first);
    ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.stage_free[k]));  // the buffer's previous upload is done
    parallel_memcpy(ws.stage[k].data(), host + first, c * sizeof(T));
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(dst + first, ws.stage[k].data(), c * sizeof(T), cudaMemcpyHostToDevice, copy));
    ZKGPU_CUDA_CHECK(cudaEventRecord(ws.stage_free[k], copy));
    on_chunk(first, c, ws.stage_free[k]);
  }
}

// Uploads n scalars from pageable host memory into ws.scalars chunk by chunk and computes the
// digits of each chunk as it lands.
void upload_scalars_and_digits(Workspace& ws, const Scalar* host, uint32_t n, unsigned c, unsigned W, bool shared,
                               cudaStream_t stream) {
  grow(ws.scalars, n);
  if (ws.poison) poison_fill(ws.scalars, stream);
  staged_upload(ws, ws.scalars.data(), host, n, Workspace::STAGE_BYTES / sizeof(Scalar), stream,
                [&](size_t first, size_t count, cudaEvent_t landed) {
                  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, landed, 0));
                  digits_kernel<<<blocks_for(count), BLOCK, 0, stream>>>(
                      ws.scalars.data(), static_cast<uint32_t>(first), static_cast<uint32_t>(count), n, c, W, shared,
                      ws.keys[0].data(), ws.vals[0].data());
                  ZKGPU_CUDA_CHECK_LAUNCH();
                });
}

void upload_and_convert_bases(Workspace& ws, const G1Affine* host_points, uint32_t n, cudaStream_t stream);

// ZKGPU_MSM_PHASES set: one line per MSM on stderr with the time between marks (events on the
// compute stream, so host waits in between count too), the breakdown the benchmark totals lack.
class PhaseTimer {
 public:
  explicit PhaseTimer(cudaStream_t s) : s_(s), on_(std::getenv("ZKGPU_MSM_PHASES") != nullptr) { mark("start"); }
  ~PhaseTimer() {
    for (auto& m : marks_) cudaEventDestroy(m.second);
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  void mark(const char* name) {
    if (!on_) return;
    cudaEvent_t e;
    ZKGPU_CUDA_CHECK(cudaEventCreate(&e));
    marks_.push_back({name, e});
    ZKGPU_CUDA_CHECK(cudaEventRecord(e, s_));
  }
  void report(uint32_t n, unsigned c, double host_ms) {
    if (!on_ || marks_.size() < 2) return;
    ZKGPU_CUDA_CHECK(cudaEventSynchronize(marks_.back().second));
    std::fprintf(stderr, "msm phases ms (n=%u c=%u):", n, c);
    float total = 0;
    for (size_t i = 1; i < marks_.size(); ++i) {
      float ms = 0;
      ZKGPU_CUDA_CHECK(cudaEventElapsedTime(&ms, marks_[i - 1].second, marks_[i].second));
      total += ms;
      std::fprintf(stderr, " %s %.2f", marks_[i].first, ms);
    }
    std::fprintf(stderr, " | device %.2f host-horner %.2f\n", total, host_ms);
  }

 private:
  cudaStream_t s_;
  bool on_;
  std::vector<std::pair<const char*, cudaEvent_t>> marks_;
};

// host_scalars (pageable host memory) or d_scalars (device memory): exactly one is non-null.
// With host_points (SW, pageable host memory) instead of d_points, the bases are uploaded while the
// GPU sorts, and converted on the device into ws.points (see check_bases).
TeExtended msm_on_device(Workspace& ws, const TePrecomputed* d_points, unsigned table_windows,
                         const G1Affine* host_points, const Scalar* d_scalars, const Scalar* host_scalars, uint32_t n,
                         unsigned c, cudaStream_t stream) {
  const unsigned W = msm_window_count(c);
  const bool shared = table_windows != 0;  // d_points is a window table: one bucket set for all windows
  if (shared && table_windows != W) throw_invalid("MSM window table built for another window size");
  const unsigned BW = shared ? 1 : W;  // bucket sets
  const uint32_t buckets_per_window = 1u << (c - 1);
  const uint32_t sentinel = BW << (c - 1);
  const size_t entries = static_cast<size_t>(W) * n;
  if (entries >= (size_t{1} << 31)) throw_invalid("MSM too large for 32-bit entry indices; use a wider window");

  // Rough upper bound of the device memory this call adds, checked before anything is allocated.
  const size_t nbuckets = size_t{BW} * buckets_per_window;
  const size_t max_chunks = chunk_capacity(entries), max_parts = 2 * max_chunks;
  // Buckets per thread in the window reduction: each thread is one serial chain, so take fewer
  // buckets per thread (down to 4) until about 64k threads run.
  uint32_t len = std::min(PART, buckets_per_window);
  while (len > 4 && size_t{BW} * buckets_per_window / len < REDUCE_THREADS) len /= 2;
  const uint32_t parts_per_window = buckets_per_window / len;  // both powers of two
  size_t need = entries * 4 * 4 + max_chunks * 4 + max_parts * (2 * sizeof(TeExtended) + 8) +
                nbuckets * sizeof(TeExtended) + size_t{BW} * parts_per_window * 2 * sizeof(TeExtended);
  size_t have = 0;
  for (auto* b : {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos}) have += b->size() * 4;
  for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets}) have += b->size() * sizeof(TeExtended);
  if (need > have) rt::require_device_memory(need - std::min(need, have), "the BLS12-377 MSM workspace");

  for (int k = 0; k < 2; ++k) {
    grow(ws.keys[k], entries);
    grow(ws.vals[k], entries);  // the sort's spare value buffer later holds the per-chunk counts
    grow(ws.part_keys[k], max_parts);
    grow(ws.sums[k], max_parts);
    grow(ws.parts[k], size_t{BW} * parts_per_window);
  }
  grow(ws.pos, max_chunks);
  grow(ws.counters, 2);
  grow(ws.buckets, nbuckets);
  if (ws.poison) {
    for (auto* b : {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1],
                    &ws.counters})
      poison_fill(*b, stream);
    for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]}) poison_fill(*b, stream);
  }

  // 1. digits, 2. sort by bucket key.
  PhaseTimer phases(stream);
  if (host_scalars) {
    upload_scalars_and_digits(ws, host_scalars, n, c, W, shared, stream);
  } else {
    digits_kernel<<<blocks_for(n), BLOCK, 0, stream>>>(d_scalars, 0, n, n, c, W, shared, ws.keys[0].data(),
                                                       ws.vals[0].data());
    ZKGPU_CUDA_CHECK_LAUNCH();
  }
  cub::DoubleBuffer<uint32_t> dk(ws.keys[0].data(), ws.keys[1].data()), dv(ws.vals[0].data(), ws.vals[1].data());
  int end_bit = 1;
  while ((uint64_t{1} << end_bit) <= sentinel) ++end_bit;
  size_t temp_bytes = 0;
  ZKGPU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, dk, dv, entries, 0, end_bit, stream));
  ensure_temp(ws, temp_bytes);
  temp_bytes = ws.temp.size();
  phases.mark("digits");
  ZKGPU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ws.temp.data(), temp_bytes, dk, dv, entries, 0, end_bit, stream));
  phases.mark("sort");
  uint32_t* keys = dk.Current();
  uint32_t* vals = dv.Current();

  uint32_t total = static_cast<uint32_t>(entries);
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(ws.counters.data(), &total, 4, cudaMemcpyHostToDevice, stream));
  count_valid_kernel<<<blocks_for(total), BLOCK, 0, stream>>>(keys, total, sentinel, ws.counters.data());
  ZKGPU_CUDA_CHECK_LAUNCH();
  uint32_t valid = 0;
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&valid, ws.counters.data(), 4, cudaMemcpyDeviceToHost, stream));
  ensure_staging(ws);
  ZKGPU_CUDA_CHECK(cudaEventRecord(ws.valid_ready, stream));
  if (host_points) {  // the host copies the bases into the staging buffers while the GPU sorts
    upload_and_convert_bases(ws, host_points, n, stream);
    d_points = ws.points.data();
    phases.mark("bases");
  }
  ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.valid_ready));
  if (valid == 0) return TeExtended::identity();  // every scalar is zero

  // 3. bucket sums by fixed chunks, level by level, until no partial sums are left.
  fill_identity_kernel<<<blocks_for(nbuckets), BLOCK, 0, stream>>>(ws.buckets.data(), nbuckets);
  ZKGPU_CUDA_CHECK_LAUNCH();
  uint32_t* counts = ws.vals[dv.selector ^ 1].data();  // the sort's spare value buffer is free now
  uint32_t L = valid;
  const uint32_t* cur_keys = keys;
  const TeExtended* cur_sums = nullptr;  // null at level 0 (entries refer to the bases)
  for (int level = 0, out = 0; L > 0; ++level, out ^= 1) {
    const uint32_t S = chunk_entries(L), chunks = static_cast<uint32_t>(chunks_for(L));
    if (chunks > ws.pos.size() || 2 * size_t{chunks} > ws.sums[out].size())
      throw Error(ErrorCode::CudaError, "MSM bucket sums: chunk buffers sized too small (a bug)");
    partial_count_kernel<<<blocks_for(chunks), BLOCK, 0, stream>>>(cur_keys, L, S, chunks, counts);
    ZKGPU_CUDA_CHECK_LAUNCH();
    temp_bytes = 0;
    ZKGPU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts, ws.pos.data(), chunks, stream));
    ensure_temp(ws, temp_bytes);
    temp_bytes = ws.temp.size();
    ZKGPU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(ws.temp.data(), temp_bytes, counts, ws.pos.data(), chunks, stream));
    uint32_t last[2] = {0, 0};
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&last[0], ws.pos.data() + chunks - 1, 4, cudaMemcpyDeviceToHost, stream));
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&last[1], counts + chunks - 1, 4, cudaMemcpyDeviceToHost, stream));
    uint32_t* out_keys = ws.part_keys[out].data();
    TeExtended* out_sums = ws.sums[out].data();
    const unsigned grid = rt::ceil_div(chunks, SUM_BLOCK);
    if (level == 0 && capped_sum_registers()) {
      chunk_sums_kernel<true, 4><<<grid, SUM_BLOCK, 0, stream>>>(cur_keys, vals, d_points, nullptr, L, S, chunks,
                                                                ws.pos.data(), ws.buckets.data(), out_keys, out_sums);
    } else if (level == 0) {
      chunk_sums_kernel<true, 1><<<grid, SUM_BLOCK, 0, stream>>>(cur_keys, vals, d_points, nullptr, L, S, chunks,
                                                                ws.pos.data(), ws.buckets.data(), out_keys, out_sums);
    } else {
      chunk_sums_kernel<false, 1><<<grid, SUM_BLOCK, 0, stream>>>(cur_keys, nullptr, nullptr, cur_sums, L, S, chunks,
                                                                 ws.pos.data(), ws.buckets.data(), out_keys, out_sums);
    }
    ZKGPU_CUDA_CHECK_LAUNCH();
    ZKGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
    cur_keys = out_keys;
    cur_sums = out_sums;
    L = last[0] + last[1];
    if (level == 0) phases.mark("sums0");
  }
  phases.mark("sums1+");

  // 4. window reduction.
  const uint32_t total_parts = BW * parts_per_window;
  window_parts_kernel<<<rt::ceil_div(total_parts, 64), 64, 0, stream>>>(ws.buckets.data(), buckets_per_window, len,
                                                                         parts_per_window, total_parts,
                                                                         ws.parts[0].data());
  ZKGPU_CUDA_CHECK_LAUNCH();
  int src = 0;
  for (uint32_t width = parts_per_window; width > 1; width /= 2) {
    pair_reduce_kernel<<<blocks_for(size_t{BW} * width / 2), BLOCK, 0, stream>>>(ws.parts[src].data(),
                                                                                 ws.parts[src ^ 1].data(), width, BW);
    ZKGPU_CUDA_CHECK_LAUNCH();
    src ^= 1;
  }
  std::vector<TeExtended> window_sums(BW);
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(window_sums.data(), ws.parts[src].data(), BW * sizeof(TeExtended),
                                   cudaMemcpyDeviceToHost, stream));
  phases.mark("reduce");
  ZKGPU_CUDA_CHECK(cudaStreamSynchronize(stream));

  // 5. Horner over the windows (host: a serial chain of W*c doublings); the window table already
  // put every window at its weight.
  const auto h0 = std::chrono::steady_clock::now();
  TeExtended result = shared ? window_sums[0] : TeExtended::identity();
  for (unsigned w = BW; !shared && w-- > 0;) {
    for (unsigned k = 0; k < c; ++k) result = te_double(result);
    result = te_add(result, window_sums[w]);
  }
  phases.report(n, c, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - h0).count());
  return result;
}

void check_n(size_t n) {
  if (n > MSM_MAX_POINTS) throw_invalid("MSM of " + std::to_string(n) + " points exceeds the supported 2^26");
}

unsigned pick_window(size_t n, unsigned c) {
  if (c) return c;
  return default_window_bits(n);
}

}  // namespace

unsigned default_window_bits(size_t n) {
  unsigned lg = 0;
  while ((size_t{1} << lg) < n) ++lg;
  // About n/16 buckets per window, between 2^5 and 2^15 (W = 16 windows of 16 bits at 2^20+).
  return std::clamp(lg >= 4 ? lg - 4 : 2u, 6u, 16u);
}

unsigned table_window_bits(size_t n) {
  // With one shared bucket set the cost is about n*W additions into buckets plus 2.5 per bucket
  // (identity fill, running sums); c <= 23 keeps the sorted keys at 23 bits (three radix passes).
  unsigned best = 8;
  double best_cost = 1e300;
  for (unsigned c = 8; c <= 23; ++c) {
    const double cost = static_cast<double>(n) * msm_window_count(c) + 2.5 * static_cast<double>(1u << (c - 1));
    if (cost < best_cost) best_cost = cost, best = c;
  }
  return best;
}

namespace {
// The window table of b (b.n > 0), when it fits in at most half of the free device memory (the
// MSM workspace needs the rest); otherwise b keeps no table and MSMs take the per-window buckets.
void build_window_table(detail::DeviceBases& b) {
  const unsigned c = table_window_bits(b.n), W = msm_window_count(c);
  const size_t bytes = size_t{W} * b.n * sizeof(TePrecomputed);
  if (size_t{W} * b.n >= (size_t{1} << 31)) return;  // table indices carry a sign bit in 32 bits
  size_t free_b = 0, total_b = 0;
  ZKGPU_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (bytes > free_b / 2) return;
  b.table = rt::DeviceBuffer<TePrecomputed>(size_t{W} * b.n);
  ZKGPU_CUDA_CHECK(cudaMemcpy(b.table.data(), b.points.data(), b.n * sizeof(TePrecomputed), cudaMemcpyDeviceToDevice));
  const Fp half = Fp::one().dbl().inverse();
  const uint32_t n = static_cast<uint32_t>(b.n);
  const unsigned threads = rt::ceil_div(n, TABLE_BATCH);
  for (unsigned j = 1; j < W; ++j) {
    window_table_kernel<<<rt::ceil_div(threads, 128), 128>>>(b.table.data() + size_t{j - 1} * n,
                                                             b.table.data() + size_t{j} * n, n, c, half);
    ZKGPU_CUDA_CHECK_LAUNCH();
  }
  ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
  b.table_c = c;
  b.table_windows = W;
}
}  // namespace

std::shared_ptr<detail::DeviceBases> upload_bases(const TePrecomputed* points, size_t n) {
  check_n(n);
  rt::require_device_memory(n * sizeof(TePrecomputed), "the BLS12-377 MSM bases");
  auto b = std::make_shared<detail::DeviceBases>();
  b->points = rt::DeviceBuffer<TePrecomputed>(n);
  b->n = n;
  if (n) {
    b->points.upload(points, n);
    ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
    build_window_table(*b);
  }
  return b;
}

const TePrecomputed* device_points(const detail::DeviceBases& b) { return b.points.data(); }
unsigned window_table_bits(const detail::DeviceBases& b) { return b.table_windows ? b.table_c : 0; }

TeExtended msm_device(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned c) {
  check_n(n);
  if (n == 0) return TeExtended::identity();
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  rt::Stream stream;
  return msm_on_device(ws, d_points, 0, nullptr, d_scalars, nullptr, static_cast<uint32_t>(n), pick_window(n, c),
                       stream);
}

TeExtended msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n, unsigned c) {
  check_n(n);
  if (n != bases.n) throw_invalid("MSM needs one scalar per base");
  if (n == 0) return TeExtended::identity();
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  rt::Stream stream;
  if (bases.table_windows && (c == 0 || c == bases.table_c))
    return msm_on_device(ws, bases.table.data(), bases.table_windows, nullptr, nullptr, host_scalars,
                         static_cast<uint32_t>(n), bases.table_c, stream);
  return msm_on_device(ws, bases.points.data(), 0, nullptr, nullptr, host_scalars, static_cast<uint32_t>(n),
                       pick_window(n, c), stream);
}

namespace {
// Uploads SW bases and converts them on the device into ws.points; Error(InvalidArgument) naming
// the first point where the map is undefined.
// Queues the upload of the SW bases and their conversion on the device into ws.points; the index
// of the first point where the map is undefined lands in ws.bad, which check_bases reads after the
// MSM (nothing waits for it before the bucket sums).
void upload_and_convert_bases(Workspace& ws, const G1Affine* host_points, uint32_t n, cudaStream_t stream) {
  rt::require_device_memory(size_t{n} * (sizeof(G1Affine) + sizeof(TePrecomputed)), "the BLS12-377 MSM bases");
  grow(ws.sw_points, n);
  grow(ws.points, n);
  grow(ws.bad, 1);
  if (ws.poison) {
    poison_fill(ws.points, stream);
    poison_fill(ws.sw_points, stream);
  }
  staged_upload(ws, ws.sw_points.data(), host_points, n, Workspace::STAGE_BYTES / sizeof(G1Affine), stream,
                [](size_t, size_t, cudaEvent_t) {});
  ZKGPU_CUDA_CHECK(cudaEventRecord(ws.landed, *ws.copy_stream));
  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, ws.landed, 0));
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(ws.bad.data(), &n, 4, cudaMemcpyHostToDevice, stream));
  const uint32_t threads = rt::ceil_div(n, CONVERT_BATCH);
  sw_to_te_kernel<<<rt::ceil_div(threads, 128), 128, 0, stream>>>(ws.sw_points.data(), ws.points.data(), n,
                                                                  ws.bad.data());
  ZKGPU_CUDA_CHECK_LAUNCH();
}

void check_bases(Workspace& ws, uint32_t n, cudaStream_t stream) {
  uint32_t bad = n;
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&bad, ws.bad.data(), 4, cudaMemcpyDeviceToHost, stream));
  ZKGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (bad != n)
    throw_invalid("point " + std::to_string(bad) + ": the twisted-Edwards map is undefined there (the point is not in G1)");
}
}  // namespace

TeExtended msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c) {
  check_n(n);
  if (n == 0) return TeExtended::identity();
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  rt::Stream stream;
  TeExtended r = msm_on_device(ws, nullptr, 0, host_points, nullptr, host_scalars, static_cast<uint32_t>(n),
                               pick_window(n, c), stream);
  check_bases(ws, static_cast<uint32_t>(n), stream);
  return r;
}

std::vector<double> time_msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n,
                                      unsigned c, int warmup, int runs) {
  // Wall time: each MSM ends with the result on the host (the call synchronises).
  std::vector<double> ms;
  for (int r = 0; r < warmup + runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    (void)msm_resident(bases, host_scalars, n, c);
    auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return ms;
}

std::vector<double> time_msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c,
                                       int warmup, int runs) {
  std::vector<double> ms;
  for (int r = 0; r < warmup + runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    (void)msm_from_host(host_points, host_scalars, n, c);
    auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return ms;
}

void set_msm_poison(bool on) {
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  ws.poison = on;
}

void release_msm_workspace() {
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  ws.scalars.reset();
  ws.points.reset();
  ws.sw_points.reset();
  ws.bad.reset();
  for (int k = 0; k < 2; ++k) ws.stage[k] = rt::PinnedBuffer<unsigned char>();
  for (auto* b : {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1],
                  &ws.counters})
    b->reset();
  for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]}) b->reset();
  ws.temp.reset();
}

}  // namespace cuda
}  // namespace zkgpu::bls12_377
