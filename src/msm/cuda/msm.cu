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
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "msm/bucket_reduce.hpp"
#include "msm/signed_digits.hpp"
#include "runtime/cuda/runtime.cuh"
#include "msm/cuda/api.hpp"
#include "runtime/device_caches.hpp"
#include "runtime/env.hpp"

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
// Bucket reduction: about this many parts in all (LANE_PARTS per block of bucket_lanes_kernel),
// each a chain of about len additions per lane; then folds of up to FOLD_PAIRS pairs per block
// until at most HOST_FOLD_PAIRS pairs are left in all (one per window at least), which the host
// folds: the last levels have a few threads each, two dependent additions of some 10 us per level
// on the GPU against about 2 us per pair on one CPU core.
// The blocks of a wave run their lanes, then their folds (on two warps of three), together, so
// each wave ends in a stretch of latency-bound additions: about one wave of blocks (528 of three
// lanes on an H200) is best. H200 run of 3f4b1c9 (lanes, parts of consecutive buckets), reduction
// at 2^20 / 2^24 (c = 23): 2^14 parts 1.11 / 6.55 ms, 2^15 1.29 / 6.65, 2^16 1.59 / 6.91.
constexpr size_t REDUCE_PARTS = size_t{1} << 14;
constexpr uint32_t MAX_REDUCE_LEN = 256;
constexpr unsigned FOLD_PAIRS = 128;
constexpr uint32_t HOST_FOLD_PAIRS = 16;
// Smallest first slice of inputs from host memory (plan_slices): below it, a slice's sort and
// bucket-sum launches and host round trips cost more than its upload.
constexpr uint32_t MIN_SLICE = 1u << 16;
constexpr uint32_t NEG_BIT = 0x80000000u;
constexpr unsigned BLOCK = 256;
// The bucket-sum kernels use about 160 registers: 12 warps fit an SM, which 256-thread blocks
// (8 warps) would cut to 8.
constexpr unsigned SUM_BLOCK = 128;

// Points [first, first + count) of n, all inside the slice [slice_first, slice_first + slice_count)
// whose entries keys/vals point at; a slice's entries are window-major (index w * slice_count + i -
// slice_first). Per-window buckets (shared = false): key = (w, |d| - 1), value = base index i. One
// shared bucket set over the window table (shared = true, canonical scalars, which the API
// checks): key = |d| - 1, value = table index w*n + i. Zero digits get the sentinel key, which
// sorts last.
__global__ void digits_kernel(const Scalar* scalars, uint32_t first, uint32_t count, uint32_t slice_first,
                              uint32_t slice_count, uint32_t n, unsigned c, unsigned windows, bool shared,
                              uint32_t* keys, uint32_t* vals) {
  uint32_t i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= first + count) return;
  Scalar s = scalars[i];
  // The window table has msm_window_count_half(c) windows: scalars above (r - 1)/2 are negated
  // (their digits then take the negated bases).
  const uint32_t flip = shared && negate_above_half(s) ? NEG_BIT : 0u;
  const uint32_t sentinel = static_cast<uint32_t>(shared ? 1 : windows) << (c - 1);
  uint32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    int32_t d = next_signed_digit(s, w, c, carry);
    const size_t o = static_cast<size_t>(w) * slice_count + (i - slice_first);
    if (d == 0) {
      keys[o] = sentinel;
      vals[o] = 0;
    } else {
      uint32_t mag = static_cast<uint32_t>(d < 0 ? -d : d);
      keys[o] = shared ? mag - 1 : (static_cast<uint32_t>(w) << (c - 1)) | (mag - 1);
      const size_t index = shared ? static_cast<size_t>(w) * n + i : i;
      vals[o] = static_cast<uint32_t>(index) | ((d < 0 ? NEG_BIT : 0u) ^ flip);
    }
  }
}

// Window table step: next[i] = 2^c * prev[i] for TABLE_BATCH consecutive points per thread, with
// one inversion per batch to bring the results back to the stored affine form. The projective
// (X, Y, Z) of each result waits in its output slot between the two passes (TePrecomputed has room
// for three coordinates), so the doublings run once.
constexpr uint32_t TABLE_BATCH = 16;
__global__ void window_table_kernel(const TePrecomputed* prev, TePrecomputed* next, uint32_t n, unsigned c, Fp half) {
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

// The number of keys below the sentinel (keys are sorted): the index where the sentinel starts, or
// n when there is none. Exactly one thread writes, so *out needs no initial value.
__global__ void count_valid_kernel(const uint32_t* keys, uint32_t n, uint32_t sentinel, uint32_t* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (keys[i] >= sentinel && (i == 0 || keys[i - 1] < sentinel)) *out = i;
  if (i == n - 1 && keys[i] < sentinel) *out = n;
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

// Where a chunk's runs go: a run that continues from the chunk before (its first run, with a head)
// or into the next (its last, with a tail) is a partial sum for the next level (at out[o]); any other
// run lies wholly inside the chunk and is a finished bucket sum.
struct RunSink {
  TeExtended* buckets;
  uint32_t* out_keys;
  TeExtended* out;
  uint32_t o;
  bool head, first_run = true;
  // The run of `key` ended inside the chunk.
  __device__ __forceinline__ void end_run(uint32_t key, const TeExtended& acc) {
    if (first_run && head) {
      out_keys[o] = key;
      out[o++] = acc;
    } else {
      buckets[key] = acc;
    }
    first_run = false;
  }
  // The chunk's last run; tail: it continues into the next chunk.
  __device__ __forceinline__ void end_chunk(uint32_t key, const TeExtended& acc, bool tail) {
    if ((first_run && head) || tail) {
      out_keys[o] = key;
      out[o] = acc;
    } else {
      buckets[key] = acc;
    }
  }
};

// Levels >= 1: the entries are the partial sums of the level before, added with the unified adder.
// pos[t] is where chunk t's partials go. A run starts from its first entry instead of the identity:
// at these levels most runs are pairs (the tail partial of chunk t and the head partial of t + 1)
// that start at the same step in every lane (even chunks, see chunk_entries), so the warp skips
// about half the additions. (The sums are the same points as with identity + entry, not the same
// projective bytes; only the final affine result is compared.)
// H200 (0412948 merged with msm-reduce): sums1+ 1.9 ms at 2^24 and 0.46-0.49 at 2^20, against
// 2.9 and 0.71-0.73 with every run starting from the identity.
__global__ void chunk_sums_kernel(const uint32_t* keys, const TeExtended* in, uint32_t L, uint32_t S, uint32_t chunks,
                                  const uint32_t* pos, TeExtended* buckets, uint32_t* out_keys, TeExtended* out) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= chunks) return;
  uint32_t b, e;
  chunk_range(t, S, L, b, e);
  RunSink sink{buckets, out_keys, out, pos[t], b > 0 && keys[b - 1] == keys[b]};
  uint32_t cur = keys[b];
  TeExtended acc = in[b];
  for (uint32_t i = b + 1; i < e; ++i) {
    const uint32_t k = keys[i];
    if (k != cur) {
      sink.end_run(cur, acc);
      cur = k;
      acc = in[i];
    } else {
      acc = te_add(acc, in[i]);
    }
  }
  sink.end_chunk(cur, acc, e < L && keys[e] == cur);
}

// Level 0: the entries are signed base indices into the stored TE bases (or the window table),
// added with the 7M mixed adder, one chunk of S entries per thread, the same run rules as above but
// every run starting from the identity (runs start at random steps in the lanes of a warp here, so
// starting from the first base would not save the warp an addition). The bases are staged in
// shared memory: while entry i is added, the base of entry i + 1 is copied (cp.async, 16-byte
// pieces, L2 only) into the lane's other slot, so the random gather from the 26.6 GB window table
// overlaps an addition instead of stalling the warp, and the base's words are read from the slot
// where the adder needs them instead of occupying 36 registers across the addition. The warp copies
// its 32 bases together: piece g = 32r + lane of the warp's 32 * 9 pieces (copy r) belongs to lane
// g / 9, so one copy instruction touches the lines of about 4 bases instead of 32. The loop runs S
// steps in every lane (every chunk has S entries but the last), as the copies need the whole warp;
// lanes without an entry skip the addition and copy base 0. The sign is applied by address (ymx
// and ypx swapped) and in the adder (te_add_precomputed_signed).
// H200, 2^24 resident (c = 23), level-0 sums with the IMAD.WIDE multiply: 55.1 ms with the bases
// loaded into registers, 55.8 staged per thread, 52.3 staged by the warp; 57.4 and 56.8 for the two
// staged forms at 4 blocks per SM (128 registers, 46-62 bytes of spills). 2^20: 4.33, 4.31, 4.11.
// This form built for 4 blocks (128 registers, 10 bytes of spills) against 3 (156 registers), in
// one run: 53.6 against 51.9 ms at 2^24, 4.22 against 4.10 at 2^20.
// (Earlier, without staging: a 128-register cap measured 3.6% slower; adding a finished sum to the
// bucket's earlier value inside this loop, for later slices, made the sums 35% slower at 2^24 and
// 2.6x at 2^20: the unified addition is divergent, and in most iterations some lane of the warp
// finishes a run; prefetching the base of entry i + 2 into L2 measured no faster; loading the bases
// around L1 (ld.global.cg) 7% slower.)
constexpr uint32_t BASE_PIECES = sizeof(TePrecomputed) / 16;  // 9
static_assert(sizeof(TePrecomputed) == 16 * BASE_PIECES && 32 % BASE_PIECES == 5);

__device__ __forceinline__ void cp_async16(uint32_t smem, const void* global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(global) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

__global__ void __launch_bounds__(SUM_BLOCK, 3)
    chunk_sums_bases_kernel(const uint32_t* keys, const uint32_t* vals, const TePrecomputed* bases, uint32_t L,
                            uint32_t S, uint32_t chunks, const uint32_t* pos, TeExtended* buckets, uint32_t* out_keys,
                            TeExtended* out, const TeExtended* old) {
  __shared__ uint4 stage[2][SUM_BLOCK][BASE_PIECES];  // 144-byte slots: conflict-free 16-byte reads
  // old (null: none): the buckets' values from the slices before. Every run that starts in this chunk
  // (all but a first run continuing from the chunk before) then starts from old[key] instead of the
  // identity, its two 128-byte lines prefetched into L1 one step ahead (a 192-byte point at a
  // 64-byte multiple); the run's later pieces (other chunks' first runs) start from the identity,
  // so the next level's sum holds the old value once. Only the run's first thread reads old[key]
  // and only a thread holding a whole run writes buckets[key] at this level, so old may be buckets.
  static_assert(sizeof(TeExtended) == 192);
  constexpr uint32_t SLOT = 16 * BASE_PIECES, BUF = SUM_BLOCK * SLOT;
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u;
  if (t - lane >= chunks) return;  // whole warps only: the warp's copies need every lane
  const bool active = t < chunks;
  uint32_t b = L, e = L;
  if (active) chunk_range(t, S, L, b, e);
  // This lane's copies: piece g = 32r + lane lands at byte 16g of the warp's slots and comes from
  // piece g % 9 of lane g / 9's base, i.e. byte offset 16 * (9 * index + g % 9) of the bases.
  const uint32_t to = static_cast<uint32_t>(__cvta_generic_to_shared(&stage[0][threadIdx.x - lane][0])) + 16 * lane;
  const char* from = reinterpret_cast<const char*>(bases);
  auto fetch = [&](uint32_t buf, uint32_t index) {  // this lane's next base index, as one commit group
    uint32_t owner = lane / BASE_PIECES, piece = lane - owner * BASE_PIECES;
#pragma unroll
    for (uint32_t r = 0; r < BASE_PIECES; ++r) {
      const uint32_t idx = __shfl_sync(0xffffffffu, index, owner);
      cp_async16(to + buf * BUF + 512 * r, from + 16 * (size_t{idx} * BASE_PIECES + piece));
      piece += 32 % BASE_PIECES;  // g += 32 = 3 * 9 + 5
      owner += 32 / BASE_PIECES;
      if (piece >= BASE_PIECES) piece -= BASE_PIECES, ++owner;
    }
    cp_async_commit();
  };
  RunSink sink{buckets, out_keys, out, active ? pos[t] : 0, active && b > 0 && keys[b - 1] == keys[b]};
  auto prefetch_old = [&](uint32_t key) {
    const char* p = reinterpret_cast<const char*>(old + key);
    asm volatile("prefetch.global.L1 [%0];\n" ::"l"(p));
    asm volatile("prefetch.global.L1 [%0];\n" ::"l"(p + 128));
  };
  // Keys and values two entries ahead, so a copy's address never waits for a load.
  uint32_t cur = active ? keys[b] : 0, k = cur, kn = b + 1 < e ? keys[b + 1] : 0;
  uint32_t v = active ? vals[b] : 0, vn = b + 1 < e ? vals[b + 1] : 0;
  bool from_old = old && active && !sink.head;  // the current run starts from old[cur]
  if (from_old) prefetch_old(cur);
  TeExtended acc = TeExtended::identity();
  fetch(0, v & ~NEG_BIT);
  for (uint32_t j = 0; j < S; ++j) {
    const uint32_t i = b + j;
    const uint32_t knn = i + 2 < e ? keys[i + 2] : 0, vnn = i + 2 < e ? vals[i + 2] : 0;
    cp_async_wait_all();  // entry i's pieces (and old value) have landed: they were copied a step ago
    __syncwarp();         // ... including those other lanes copied
    if (i < e && k != cur) {
      sink.end_run(cur, acc);
      cur = k;
      acc = TeExtended::identity();
      from_old = old != nullptr;
    }
    if (from_old) {  // 12 16-byte loads, L1 hits after the prefetch
      uint4 w[sizeof(TeExtended) / 16];
#pragma unroll
      for (uint32_t r = 0; r < sizeof(TeExtended) / 16; ++r) w[r] = reinterpret_cast<const uint4*>(old + cur)[r];
      memcpy(&acc, w, sizeof(acc));
      from_old = false;
    }
    // The next entry's base and, when it starts a run, its old bucket value.
    if (j + 1 < S) {
      if (old && i + 1 < e && kn != k) prefetch_old(kn);
      fetch((j + 1) & 1, vn & ~NEG_BIT);
    }
    if (i < e) {
      const Fp* q = reinterpret_cast<const Fp*>(&stage[j & 1][threadIdx.x][0]);
      const bool neg = v & NEG_BIT;
      acc = te_add_precomputed_signed(acc, q[neg ? 1 : 0], q[neg ? 0 : 1], q[2], neg);
    }
    k = kn;
    kn = knn;
    v = vn;
    vn = vnn;
    __syncwarp();  // every lane's reads of this buffer precede the copies into it at the next step
  }
  if (active) sink.end_chunk(cur, acc, e < L && keys[e] == cur);
}

// Bases [first, first + count) from host memory to the stored TE form: CONVERT_BATCH consecutive
// points per thread with one inversion (sw_to_te_batch, the function the CPU's precompute_te runs
// per thread).
constexpr uint32_t CONVERT_BATCH = 32;
__global__ void sw_to_te_kernel(const G1Affine* in, TePrecomputed* out, uint32_t first, uint32_t count, uint32_t* bad) {
  const uint32_t b = (blockIdx.x * blockDim.x + threadIdx.x) * CONVERT_BATCH;
  if (b >= count) return;
  const uint32_t m = count - b < CONVERT_BATCH ? count - b : CONVERT_BATCH;
  Fp prefix[CONVERT_BATCH];
  const size_t r = sw_to_te_batch(in + first + b, out + first + b, m, prefix);
  if (r != m) atomicMin(bad, first + b + static_cast<uint32_t>(r));
}

// n identity points written as 16-byte words in address order, so a warp's stores are contiguous.
// (One thread per 192-byte point made each store instruction touch 32 points 192 bytes apart: the
// two fills of 2^22 buckets, 1.6 GB, are the likely cause of the 5 ms between wall and device time
// at 2^24 in the H200's run 3.) A TeExtended is 12 words: X = 0, Y = Z = one, T = 0.
__global__ void fill_identity_kernel(uint4* p, size_t n) {
  static_assert(sizeof(TeExtended) == 12 * sizeof(uint4) && sizeof(Fp) == 3 * sizeof(uint4));
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= 12 * n) return;
  const unsigned k = static_cast<unsigned>(i % 12);
  uint4 v = make_uint4(0, 0, 0, 0);
  if (k >= 3 && k < 9) {
    const Fp one = Fp::one();
    uint4 w[3];
    memcpy(w, &one, sizeof(w));
    const unsigned m = k % 3;
    v = m == 0 ? w[0] : m == 1 ? w[1] : w[2];
  }
  p[i] = v;
}
void fill_identity(TeExtended* p, size_t n, cudaStream_t stream) {
  fill_identity_kernel<<<rt::ceil_div(12 * n, BLOCK), BLOCK, 0, stream>>>(reinterpret_cast<uint4*>(p), n);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

// Folds the pairs X, Y, U[0, n) in place in groups of `group` consecutive pairs (a power of two)
// down to one pair per group, at index g * group; pairs from `valid` on are never read (groups
// are wholly valid or not). The thread of fold lane `lane` (FOLD_X, FOLD_Y, FOLD_U; others idle)
// and index i takes step i of each level, pairs a = 2*s*i and a + s.
__device__ void fold_block(TeExtended* X, TeExtended* Y, TeExtended* U, uint32_t n, uint32_t group, uint32_t valid,
                           unsigned lane, unsigned i) {
  ZKGPU_NO_UNROLL
  for (uint32_t s = 1; s < group; s *= 2) {
    const uint32_t a = 2 * s * i;
    if (lane <= FOLD_U && a < n && a < valid) {
      const TeExtended r = fold_lane(lane, X[a], Y[a], U[a], X[a + s], Y[a + s], U[a + s]);
      (lane == FOLD_X ? X : lane == FOLD_Y ? Y : U)[a] = r;
    }
    __syncthreads();
  }
}

// Bucket reduction (core/bls12_377/bucket_reduce.hpp), stage 1 and the first folds. A block holds
// LANE_PARTS parts, part = blockIdx.x * LANE_PARTS + i, the (part % P)-th of its window's P parts:
// buckets window_first + part % P + r * P, r < len (interleaved, so a warp reads consecutive
// buckets). One warp per lane of them: warp l is lane l of every part (part_lane_operand), so a
// warp's threads take the same formula, and a part's chain is about len dependent additions
// instead of 2*len in one thread. Lane 0's running sum goes to lane 1 through shared memory, one
// barrier per step. Then the block's pairs (x = y = T, u = V) are folded in shared memory in
// groups of `group` consecutive pairs (group = min(LANE_PARTS, P): groups never cross windows):
// lane 0's warp takes x (threads 0-15) and y (16-31), lane 1's warp u; each group's pair goes to
// xo/yo/uo[blockIdx.x * LANE_PARTS / group + g].
// Every addition of the kernel, whatever the phase, goes through the one te_add call in its loop:
// one copy of the adder (about 80 KB of code) instead of three keeps it in the instruction cache
// while the blocks of an SM are in different phases.
// (This replaced one thread per part holding run, acc and both bucket values: 190 registers, 8
// warps per SM, 0.89 ms of the 1.81 ms reduction at 2^20 on the H200, IPC 1.12.)
constexpr unsigned LANE_PARTS = 32;
// Warps per SM the register cap leaves room for: 12 (168 registers; the H200 register file holds
// two warps per scheduler above that, three up to it).
constexpr unsigned LANE_WARPS_PER_SM = 12;
__global__ void __launch_bounds__(LANE_PARTS* PART_LANES, LANE_WARPS_PER_SM / PART_LANES)
    bucket_lanes_kernel(const TeExtended* buckets, uint32_t len, uint32_t parts_per_window, uint32_t total_parts,
                        uint32_t group, TeExtended* xo, TeExtended* yo, TeExtended* uo) {
  // xchg[parity * LANE_PARTS + i]: lane 0's state after a step of that parity, for lane 1; X, Y, U:
  // the pairs the folds work on.
  __shared__ alignas(16) unsigned char smem[5 * LANE_PARTS * sizeof(TeExtended)];
  TeExtended* xchg = reinterpret_cast<TeExtended*>(smem);
  TeExtended* X = xchg + 2 * LANE_PARTS;
  TeExtended* Y = X + LANE_PARTS;
  TeExtended* U = Y + LANE_PARTS;
  const unsigned lane = threadIdx.x / LANE_PARTS, i = threadIdx.x % LANE_PARTS;
  const uint32_t first = blockIdx.x * LANE_PARTS, part = first + i;
  const bool live = part < total_parts;  // all but a last block of small windows (P * ... < LANE_PARTS)
  // Fold lanes: on lane 0's warp x (threads 0-15) and y (16-31) of steps 0-15 (a level of 16 steps
  // fills it; on two warps, each would run every addition half empty), on lane 1's warp u.
  const unsigned fold = lane == 0 ? (i < LANE_PARTS / 2 ? FOLD_X : FOLD_Y) : FOLD_U;
  const unsigned step = lane == 0 ? i % (LANE_PARTS / 2) : i;
  const size_t bucket0 =
      static_cast<size_t>(part / parts_per_window) * parts_per_window * len + part % parts_per_window;
  const TeExtended* b = buckets + bucket0;
  uint32_t levels = 0;
  while ((1u << levels) < group) ++levels;
  const uint32_t steps = part_steps(len), ops = steps + 2 * levels;
  TeExtended state = TeExtended::identity();
  ZKGPU_NO_UNROLL
  for (uint32_t op = 0; op < ops; ++op) {
    TeExtended q;
    bool add = false;
    uint32_t a = 0;    // fold ops: the pair this thread's step writes
    if (op < steps) {  // running sums on lanes
      add = live && part_lane_operand(lane, op, len, parts_per_window, b, &xchg[((op - 1) & 1) * LANE_PARTS + i], q);
    } else {  // fold level f / 2, addition f % 2
      const uint32_t f = op - steps, s = 1u << (f / 2);
      a = 2 * s * step;
      add = a < LANE_PARTS && first + a < total_parts &&
            fold_operand(fold, static_cast<int>(f % 2), X[a], Y[a], U[a], X[a + s], Y[a + s], U[a + s], state, q);
    }
    if (add) state = te_add(state, q);
    if (op + 1 < steps && lane == 0) xchg[(op & 1) * LANE_PARTS + i] = state;
    if (op + 1 == steps) {
      if (lane == 0) X[i] = Y[i] = state;
      if (lane == 1) U[i] = state;
    }
    if (op >= steps && add && (fold == FOLD_U || (op - steps) % 2 == 1))
      (fold == FOLD_X ? X : fold == FOLD_Y ? Y : U)[a] = state;
    __syncthreads();
  }
  const uint32_t per_block = LANE_PARTS / group;
  if (threadIdx.x < per_block && first + threadIdx.x * group < total_parts) {
    xo[blockIdx.x * per_block + threadIdx.x] = X[threadIdx.x * group];
    yo[blockIdx.x * per_block + threadIdx.x] = Y[threadIdx.x * group];
    uo[blockIdx.x * per_block + threadIdx.x] = U[threadIdx.x * group];
  }
}

// Stage 2: the pairs of one block (blockDim.x / FOLD_LANES_PER_STEP * 2 consecutive pairs of one
// window) folded by halves in place (global memory: __syncthreads makes the block's writes
// visible to the block); the block's pair goes to xo/yo/uo[blockIdx.x]. Thread t takes fold lane
// t % 3 of step t / 3 (fold_lane: the same instructions for x, y and u, so no divergence).
// (The x and y formulas as two branches of one warp ran one after the other and each held its own
// copy of the adder: on the H200, 64 us per halving, 30 us per addition in the one-warp levels,
// most of it instruction fetch; 1.03 ms of the 1.81 ms reduction at 2^20.)
constexpr unsigned FOLD_LANES_PER_STEP = 3;
__global__ void weighted_fold_kernel(TeExtended* x, TeExtended* y, TeExtended* u, TeExtended* xo, TeExtended* yo,
                                     TeExtended* uo) {
  const uint32_t g = blockDim.x / FOLD_LANES_PER_STEP * 2;  // pairs
  const size_t base = static_cast<size_t>(blockIdx.x) * g;
  fold_block(x + base, y + base, u + base, g, g, g, threadIdx.x % FOLD_LANES_PER_STEP,
             threadIdx.x / FOLD_LANES_PER_STEP);
  if (threadIdx.x == 0) {
    xo[blockIdx.x] = x[base];
    yo[blockIdx.x] = y[base];
    uo[blockIdx.x] = u[base];
  }
}

template <class T>
void grow(rt::DeviceBuffer<T>& b, size_t n) {
  b.ensure(std::max<size_t>(n, 1));
}

// A stream whose blocks the block scheduler prefers: the digits and base conversions of the next
// slice run while the bucket sums of the current one fill every SM, and on a normal stream their
// blocks would wait until the last block of those sums had been dispatched.
class PriorityStream {
 public:
  PriorityStream() {
    int least = 0, greatest = 0;
    ZKGPU_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    ZKGPU_CUDA_CHECK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, greatest));
  }
  ~PriorityStream() {
    if (s_) cudaStreamDestroy(s_);
  }
  PriorityStream(const PriorityStream&) = delete;
  PriorityStream& operator=(const PriorityStream&) = delete;
  operator cudaStream_t() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

// Process-wide buffers, grown on demand and reused (one MSM at a time).
struct Workspace {
  std::mutex mu;
  rt::DeviceBuffer<Scalar> scalars;
  rt::DeviceBuffer<TePrecomputed> points;  // for inputs that come from the host each call
  rt::DeviceBuffer<G1Affine> sw_points;
  rt::DeviceBuffer<uint32_t> keys[2], vals[2], pos, part_keys[2];
  rt::DeviceBuffer<uint32_t> counters;  // [0] valid entries, [1] segments
  rt::DeviceBuffer<uint32_t> bad;       // the first base where the TE map is undefined (from-host bases)
  // sums: partial bucket sums per level; parts[k]: the reduction's pairs, x, y and u in thirds.
  rt::DeviceBuffer<TeExtended> sums[2], buckets, parts[2];
  rt::DeviceBuffer<unsigned char> temp;
  // Inputs from host memory go through two pinned staging buffers: the copy into pinned memory
  // (CPU threads), the upload (copy engine, on copy_stream) and the kernels on the chunks already
  // landed (SMs) overlap.
  static constexpr size_t STAGE_BYTES = size_t{32} << 20;
  rt::PinnedBuffer<unsigned char> stage[2];
  cudaEvent_t stage_free[2] = {nullptr, nullptr};  // recorded on copy_stream after each upload
  // start_ready: the compute stream's set-up (poison fills) is done, the other streams wait for it;
  // valid_ready, level_ready: the counts read back into `readback` (pinned, so the reads do not
  // block the host).
  cudaEvent_t start_ready = nullptr, valid_ready = nullptr, level_ready = nullptr;
  rt::PinnedBuffer<uint32_t> readback;  // [0] valid entries, [1] last chunk's position, [2] its count
  std::unique_ptr<rt::Stream> copy_stream;
  std::unique_ptr<PriorityStream> digit_stream;
  // Bases from host are converted chunk by chunk on these streams (upload_bases_slice).
  static constexpr int CONVERT_STREAMS = 4;
  std::unique_ptr<PriorityStream> convert_streams[CONVERT_STREAMS];
  // Per slice of the current MSM: its digits are written (digit_stream), its bases converted (each
  // conversion stream). One set per slice, as the uploads of later slices run ahead of the compute
  // stream (SliceLoader).
  struct SliceEvents {
    cudaEvent_t digits = nullptr;
    cudaEvent_t converted[CONVERT_STREAMS] = {};
  };
  std::vector<SliceEvents> slice_events;
  bool poison = false;
  size_t min_slice = 0;     // tests: smallest first slice (0: MIN_SLICE)
  size_t reduce_parts = 0;  // tests: REDUCE_PARTS (0: the default)
  uint32_t host_pairs = 0;  // tests: HOST_FOLD_PAIRS (0: the default)
};
Workspace& workspace() {
  static Workspace* ws = [] {  // never destroyed: no CUDA calls during static teardown
    ::zkgpu::runtime::register_device_cache(&release_msm_workspace);
    return new Workspace;
  }();
  return *ws;
}

template <class T>
void poison_fill(rt::DeviceBuffer<T>& b, cudaStream_t s) {
  if (b.size()) ZKGPU_CUDA_CHECK(cudaMemsetAsync(b.data(), 0xff, b.size() * sizeof(T), s));
}

void ensure_temp(Workspace& ws, size_t bytes) { grow(ws.temp, bytes); }

unsigned blocks_for(size_t n) { return rt::ceil_div(std::max<size_t>(n, 1), BLOCK); }

// Threads of the level-0 sums kernel the GPU holds at once (3 blocks of 128 per SM: 50688 on an H200).
size_t resident_sum_threads() {
  static const size_t v = [] {
    int dev = 0, sms = 0, blocks = 0;
    ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
    ZKGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    ZKGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, chunk_sums_bases_kernel, SUM_BLOCK, 0));
    return std::max<size_t>(1, size_t{static_cast<unsigned>(sms)} * static_cast<unsigned>(blocks) * SUM_BLOCK);
  }();
  return v;
}

// Entries per chunk for L sorted entries: at most MAX_CHUNK, at least 4, and such that the chunks
// fill whole waves of resident threads: every thread does the same work, so a last wave a sixth
// full (2^20 points: 2^18 chunks of 52 entries made 5.17 waves, with the fixed 2^18 chunks this
// rule replaced) costs as long as a full one.
uint32_t chunk_entries(size_t L) {
  const size_t maxc = MAX_CHUNK;
  const size_t cap = resident_sum_threads();
  const size_t waves = std::max<size_t>(1, (L + maxc * cap - 1) / (maxc * cap));
  const size_t S = std::clamp<size_t>((L + waves * cap - 1) / (waves * cap), 4, maxc);
  // Even: a later level's entries are mostly pairs (the tail partial of chunk t, the head partial
  // of chunk t + 1, at offsets 2t + 1, 2t + 2 once chunk 0's missing head shifts them), which even
  // chunks never split, so that level leaves almost nothing for the next.
  return static_cast<uint32_t>(std::min(S + (S & 1), maxc));
}
size_t chunks_for(size_t L) { return std::max<size_t>(1, (L + chunk_entries(L) - 1) / chunk_entries(L)); }
// The most chunks any L <= entries gives, so buffers sized by it fit the first level (L = the
// nonzero digits) and every later one (at most 2 * chunks entries): S >= 4 gives at most L/4
// chunks; with W waves of C threads, S >= L/(W*C) gives at most W*C <= L/64 + C chunks (C taken
// as at least 2^18, the bound of the former fixed rule).
size_t chunk_capacity(size_t entries) {
  const size_t cap = std::max<size_t>(resident_sum_threads(), size_t{1} << 18);
  return std::max<size_t>(1, std::min<size_t>((entries + 3) / 4, (entries + MAX_CHUNK - 1) / MAX_CHUNK + cap));
}

// memcpy with several threads: one core copies pageable memory at about 10 GB/s, a fraction of
// what the PCIe upload behind it takes. With 8 threads started per chunk, the H200 machine's
// uploads ran at 24-27 GB/s (the copy, not PCIe, set the pace), so every core but one copies, on
// threads kept for the process (starting 15 threads per 32 MiB chunk cost tens of microseconds
// each, and a 2^24-point upload has 70 chunks). One copy at a time (callers hold the workspace
// lock).
class CopyPool {
 public:
  explicit CopyPool(unsigned workers) {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { run(i + 1); });
  }
  ~CopyPool() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
      ++generation_;
    }
    start_.notify_all();
    for (auto& t : threads_) t.join();
  }
  CopyPool(const CopyPool&) = delete;
  CopyPool& operator=(const CopyPool&) = delete;

  void copy(void* dst, const void* src, size_t bytes) {
    constexpr size_t MIN_SLICE = size_t{1} << 20;
    const size_t parts = std::min<size_t>(threads_.size() + 1, std::max<size_t>(1, bytes / MIN_SLICE));
    if (parts == 1) {
      std::memcpy(dst, src, bytes);
      return;
    }
    {
      std::lock_guard<std::mutex> lk(mu_);
      dst_ = static_cast<char*>(dst);
      src_ = static_cast<const char*>(src);
      bytes_ = bytes;
      slice_ = ((bytes + parts - 1) / parts + 63) & ~size_t{63};  // parts * slice_ >= bytes
      parts_ = parts;
      pending_ = threads_.size();
      ++generation_;
    }
    start_.notify_all();
    copy_part(0, dst_, src_, bytes_, slice_);
    std::unique_lock<std::mutex> lk(mu_);
    done_.wait(lk, [&] { return pending_ == 0; });
  }

 private:
  static void copy_part(size_t k, char* dst, const char* src, size_t bytes, size_t slice) {
    const size_t b = std::min(bytes, k * slice), e = std::min(bytes, b + slice);
    if (b < e) std::memcpy(dst + b, src + b, e - b);
  }
  void run(size_t k) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lk(mu_);
    for (;;) {
      start_.wait(lk, [&] { return generation_ != seen; });
      seen = generation_;
      if (stop_) return;
      char* dst = dst_;
      const char* src = src_;
      const size_t bytes = bytes_, slice = slice_, parts = parts_;
      lk.unlock();
      if (k < parts) copy_part(k, dst, src, bytes, slice);
      lk.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable start_, done_;
  uint64_t generation_ = 0;
  bool stop_ = false;
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  size_t bytes_ = 0, slice_ = 0, parts_ = 0, pending_ = 0;
};

void parallel_memcpy(void* dst, const void* src, size_t bytes) {
  // One core is left to the MSM's own thread, which waits for the GPU's counts by spinning while
  // SliceLoader copies: one copy thread more than cores and each chunk waits for the one that was
  // descheduled (H200 run of 755474c, all 16 cores copying: the 2^24 uploads 3-4x slower).
  static CopyPool pool(std::clamp(std::thread::hardware_concurrency(), 2u, 32u) - 2);
  pool.copy(dst, src, bytes);
}

void ensure_staging(Workspace& ws) {
  for (int k = 0; k < 2; ++k) {
    if (!ws.stage[k].data()) ws.stage[k] = rt::PinnedBuffer<unsigned char>(Workspace::STAGE_BYTES);
    if (!ws.stage_free[k]) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&ws.stage_free[k], cudaEventDisableTiming));
  }
  for (cudaEvent_t* e : {&ws.start_ready, &ws.valid_ready, &ws.level_ready})
    if (!*e) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  if (!ws.readback.data()) ws.readback = rt::PinnedBuffer<uint32_t>(4);
  if (!ws.copy_stream) ws.copy_stream = std::make_unique<rt::Stream>();
  if (!ws.digit_stream) ws.digit_stream = std::make_unique<PriorityStream>();
  for (auto& cs : ws.convert_streams)
    if (!cs) cs = std::make_unique<PriorityStream>();
}

// Uploads count elements from pageable host memory to dst (device) through the pinned staging
// buffers on ws.copy_stream. After each chunk's upload is queued, on_chunk(first, count,
// landed_event) may queue work on the chunk, on a stream that waits for landed_event first.
template <class T, class F>
void staged_upload(Workspace& ws, T* dst, const T* host, size_t count, size_t chunk, F&& on_chunk) {
  cudaStream_t copy = *ws.copy_stream;
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

// A slice of the points: [first, first + count); its entries are keys/vals[k][W*first, W*(first + count)).
struct Slice {
  uint32_t first, count;
};

// Scalars (and bases) from host memory are processed in slices, so that the upload of one slice
// overlaps the sort and bucket sums of the slices before it: only the first slice's upload is
// exposed. Later slices add onto the buckets in place (their level-0 runs start from the sums so
// far; before, they summed into a second bucket set, merged after their levels by one unified
// addition per bucket, 3.7 ms at 2^22 buckets on the H200, or for the last slice by a third lane
// of the reduction).
// The first slice is n/div points (at least min_first); each later one is `ratio` times all
// points before it. The bucket sums of a slice must outlast the upload of the next, or the GPU
// waits for the host (H200, 2^24, slices 1/8 and 7/8: 8.5 ms of sums against 13 ms of upload, the
// difference idle): resident bases 1/11, 3/11, 7/11 (ratio 3; session 5's faster sums made the
// first slice of 1/5, about 10.5 ms of sums at 2^24, shorter than the 4/5 upload on slower hosts:
// H200 A/B, two alternating rounds, 2^24: 1/5 + 4/5 66.7 and 77.0 ms, 1/11 ratio 3 65.4 and 66.2,
// 1/16 ratio 2 65.6 and 66.0; 2^20: 7.01 and 7.74, 7.17 and 7.08, 7.26 and 7.25), and no slices
// below 2^20 points, where the
// second slice's launches and bucket set cost about what the upload they hide does (2^20 with a
// separate merge pass: 9.9 ms either way). Bases from host (upload 44-48 ms against 88 of sums
// plus about 30 of the bases' conversion on the GPU): 1/8, 2/8, 5/8 (ratio 2), one merge fewer
// than 1/8, 1/8, 1/4, 1/2 (H200 run 3: merges 3.3 ms, device 148 ms), each slice's work still
// longer than the next slice's upload.
// Div and ratio with resident bases, then with bases from host; D = 1 would give one slice.
struct SlicePlan {
  unsigned div_resident = 11, ratio_resident = 3, div_from_host = 8, ratio_from_host = 2;
};
constexpr uint32_t RESIDENT_SLICE_MIN_N = 1u << 20;

std::vector<Slice> plan_slices(uint32_t n, uint32_t min_first, unsigned div, unsigned ratio) {
  std::vector<Slice> out;
  uint32_t done = 0;
  uint32_t next = div == 1 ? n : std::max<uint32_t>(n / div, min_first);
  while (done < n) {
    uint32_t count = std::min(next, n - done);
    if (n - done - count < min_first / 2) count = n - done;  // no sliver at the end
    out.push_back({done, count});
    done += count;
    next = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{ratio} * done, n));
  }
  return out;
}

// Scalars go up in chunks, so the host's copy of one chunk into pinned memory overlaps the upload
// of the one before and a slice waits about one chunk's copy beyond its upload: a quarter of the
// slice, 1 to 32 MiB (2^20's first slice, 6.7 MB, was one 32 MiB chunk: copy, then upload, in a
// row, all of it exposed). (H200 run of 2930d61, upload phase at 2^24 resident: 3.7-5.3 ms with
// these chunks, 12.8-20.4 with 32 MiB for every slice; at 2^20 too noisy on that host to tell.)
size_t scalar_chunk_bytes(size_t slice_bytes) {
  return std::clamp<size_t>(slice_bytes / 4, size_t{1} << 20, size_t{32} << 20);
}

// Uploads the scalars of slice sl into ws.scalars chunk by chunk and computes the digits of each
// chunk as it lands (on digit_stream); records `ready` when the slice's digits are written.
void upload_scalars_slice(Workspace& ws, const Scalar* host, uint32_t n, Slice sl, unsigned c, unsigned W, bool shared,
                          cudaEvent_t ready) {
  cudaStream_t ds = *ws.digit_stream;
  const size_t base = size_t{W} * sl.first;
  staged_upload(ws, ws.scalars.data() + sl.first, host + sl.first, sl.count,
                scalar_chunk_bytes(size_t{sl.count} * sizeof(Scalar)) / sizeof(Scalar),
                [&](size_t first, size_t count, cudaEvent_t landed) {
                  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(ds, landed, 0));
                  digits_kernel<<<blocks_for(count), BLOCK, 0, ds>>>(
                      ws.scalars.data(), static_cast<uint32_t>(sl.first + first), static_cast<uint32_t>(count),
                      sl.first, sl.count, n, c, W, shared, ws.keys[0].data() + base, ws.vals[0].data() + base);
                  ZKGPU_CUDA_CHECK_LAUNCH();
                });
  ZKGPU_CUDA_CHECK(cudaEventRecord(ready, ds));
}

// Uploads the SW bases of slice sl and converts them on the device into ws.points; records
// converted[*] (one per conversion stream) when they are all converted. The index of the first
// point where the map is undefined lands in ws.bad, which check_bases reads after the MSM.
void upload_bases_slice(Workspace& ws, const G1Affine* host_points, Slice sl, cudaEvent_t* converted) {
  // Each chunk is converted as it lands, round robin over several streams: one chunk's kernel has
  // too few threads to fill the GPU and is latency-bound, so consecutive chunks' kernels must
  // overlap to keep up with the upload.
  size_t k = 0;
  staged_upload(ws, ws.sw_points.data() + sl.first, host_points + sl.first, sl.count,
                Workspace::STAGE_BYTES / sizeof(G1Affine), [&](size_t first, size_t count, cudaEvent_t landed) {
                  cudaStream_t cs = *ws.convert_streams[k++ % Workspace::CONVERT_STREAMS];
                  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(cs, landed, 0));
                  const unsigned threads = rt::ceil_div(count, CONVERT_BATCH);
                  sw_to_te_kernel<<<rt::ceil_div(threads, 64), 64, 0, cs>>>(
                      ws.sw_points.data(), ws.points.data(), static_cast<uint32_t>(sl.first + first),
                      static_cast<uint32_t>(count), ws.bad.data());
                  ZKGPU_CUDA_CHECK_LAUNCH();
                });
  for (int j = 0; j < Workspace::CONVERT_STREAMS; ++j)
    ZKGPU_CUDA_CHECK(cudaEventRecord(converted[j], *ws.convert_streams[j]));
}

// ZKGPU_MSM_PHASES=1: one line per MSM on stderr with the time between marks (events on the
// compute stream, so host waits in between count too), summed per name over the slices: the
// breakdown the benchmark totals lack. "upload" is what the compute stream waited for uploads and
// digits beyond its own work.
class PhaseTimer {
 public:
  explicit PhaseTimer(cudaStream_t s) : s_(s), on_(enabled()) { mark("start"); }
  static bool enabled() {
    static const bool on = env_flag("ZKGPU_MSM_PHASES");
    return on;
  }
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
  void report(uint32_t n, unsigned c, size_t slices, double host_ms) {
    if (!on_ || marks_.size() < 2) return;
    ZKGPU_CUDA_CHECK(cudaEventSynchronize(marks_.back().second));
    std::vector<std::pair<std::string, float>> sums;
    float total = 0;
    for (size_t i = 1; i < marks_.size(); ++i) {
      float ms = 0;
      ZKGPU_CUDA_CHECK(cudaEventElapsedTime(&ms, marks_[i - 1].second, marks_[i].second));
      total += ms;
      auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& p) { return p.first == marks_[i].first; });
      if (it == sums.end())
        sums.push_back({marks_[i].first, ms});
      else
        it->second += ms;
    }
    std::fprintf(stderr, "msm phases ms (n=%u c=%u slices=%zu):", n, c, slices);
    for (const auto& p : sums) std::fprintf(stderr, " %s %.2f", p.first.c_str(), p.second);
    std::fprintf(stderr, " | device %.2f host-folds+horner %.2f\n", total, host_ms);
  }

 private:
  cudaStream_t s_;
  bool on_;
  std::vector<std::pair<const char*, cudaEvent_t>> marks_;
};

// Buckets per part in the reduction's first stage: up to MAX_REDUCE_LEN while that leaves at least
// REDUCE_PARTS parts (a power of two dividing the buckets of a window).
// `forced` (tests), when not 0, replaces it.
uint32_t reduce_len(size_t nbuckets, uint32_t buckets_per_window, size_t forced) {
  const size_t target = forced ? forced : REDUCE_PARTS;
  uint32_t len = 1;
  while (len < MAX_REDUCE_LEN && 2 * len <= buckets_per_window && nbuckets / (2 * len) >= target) len *= 2;
  return len;
}

// Pairs per window the GPU folds leave for the host: a power of two, at most HOST_FOLD_PAIRS in all
// (one per window when the windows alone reach that), at most `per_window`. `forced` (tests), when
// not 0, replaces HOST_FOLD_PAIRS. (H200 run of 3f4b1c9, 2^20: reduction 1.29 ms with 16 pairs
// left for the host, 1.36 with every fold on the GPU.)
uint32_t host_fold_pairs(unsigned windows, uint32_t per_window, uint32_t forced) {
  const uint32_t total = forced ? forced : HOST_FOLD_PAIRS;
  uint32_t p = 1;
  while (2 * p <= per_window && 2 * p * windows <= total) p *= 2;
  return p;
}

// A host thread that loads slices 1.. of an MSM (msm_on_device): loaded(k) after queuing slice k,
// wait_for(k) until then; an exception on the thread comes back from wait_for or finish. The
// destructor joins the thread, so the thread never outlives the MSM's buffers, also when the
// MSM's own thread throws.
class SliceLoader {
 public:
  SliceLoader() = default;
  SliceLoader(const SliceLoader&) = delete;
  SliceLoader& operator=(const SliceLoader&) = delete;
  ~SliceLoader() {
    if (thread_.joinable()) thread_.join();
  }
  template <class F>
  void start(F&& body) {
    thread_ = std::thread([this, body = std::forward<F>(body)]() mutable {
      try {
        body();
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu_);
        error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> lk(mu_);
      ended_ = true;
      cv_.notify_all();
    });
  }
  void loaded(size_t k) {
    std::lock_guard<std::mutex> lk(mu_);
    done_ = k + 1;
    cv_.notify_all();
  }
  void wait_for(size_t k) {
    std::unique_lock<std::mutex> lk(mu_);
    cv_.wait(lk, [&] { return done_ > k || ended_; });
    if (done_ > k) return;
    if (error_) std::rethrow_exception(error_);
    throw Error(ErrorCode::CudaError, "MSM slice loader ended early (a bug)");
  }
  void finish() {
    if (!thread_.joinable()) return;
    thread_.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  size_t done_ = 0;
  bool ended_ = false;
  std::exception_ptr error_;
};

// host_scalars (pageable host memory) or d_scalars (device memory): exactly one is non-null.
// With host_points (SW, pageable host memory) instead of d_points, the bases are uploaded slice by
// slice with the scalars and converted on the device into ws.points (see check_bases).
TeExtended msm_on_device(Workspace& ws, const TePrecomputed* d_points, unsigned table_windows,
                         const G1Affine* host_points, const Scalar* d_scalars, const Scalar* host_scalars, uint32_t n,
                         unsigned c, cudaStream_t stream) {
  const bool shared = table_windows != 0;  // d_points is a window table: one bucket set for all windows
  const unsigned W = shared ? msm_window_count_half(c) : msm_window_count(c);
  if (shared && table_windows != W) throw_invalid("MSM window table built for another window size");
  const unsigned BW = shared ? 1 : W;  // bucket sets
  const uint32_t buckets_per_window = 1u << (c - 1);
  const uint32_t sentinel = BW << (c - 1);
  const size_t entries = static_cast<size_t>(W) * n;
  if (entries >= (size_t{1} << 31)) throw_invalid("MSM too large for 32-bit entry indices; use a wider window");

  const uint32_t min_first = static_cast<uint32_t>(ws.min_slice ? ws.min_slice : MIN_SLICE);
  const SlicePlan plan{};
  std::vector<Slice> slices{{0, n}};
  if (host_points)
    slices = plan_slices(n, min_first, plan.div_from_host, plan.ratio_from_host);
  else if (host_scalars && (n >= RESIDENT_SLICE_MIN_N || ws.min_slice))  // tests slice small inputs too
    slices = plan_slices(n, min_first, plan.div_resident, plan.ratio_resident);
  uint32_t max_count = 0;
  for (const Slice& sl : slices) max_count = std::max(max_count, sl.count);

  // Rough upper bound of the device memory this call adds, checked before anything is allocated.
  const size_t nbuckets = size_t{BW} * buckets_per_window;
  const size_t max_chunks = chunk_capacity(entries), max_parts = 2 * max_chunks;
  const uint32_t len = reduce_len(nbuckets, buckets_per_window, ws.reduce_parts);
  const uint32_t parts = static_cast<uint32_t>(nbuckets / len);
  size_t need = entries * 4 * 4 + max_chunks * 4 + max_parts * (2 * sizeof(TeExtended) + 8) +
                nbuckets * sizeof(TeExtended) + size_t{parts} * 6 * sizeof(TeExtended);
  if (host_scalars) need += size_t{n} * sizeof(Scalar);
  size_t have = 0;
  // Every buffer `need` counts, so a repeated MSM of the same size skips the device-memory query.
  for (auto* b : {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1]})
    have += b->size() * 4;
  for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]})
    have += b->size() * sizeof(TeExtended);
  have += ws.scalars.size() * sizeof(Scalar);
  if (need > have) rt::require_device_memory(need - std::min(need, have), "the BLS12-377 MSM workspace");

  for (int k = 0; k < 2; ++k) {
    grow(ws.keys[k], entries);
    grow(ws.vals[k], entries);  // the sort's spare value buffer later holds the per-chunk counts
    grow(ws.part_keys[k], max_parts);
    grow(ws.sums[k], max_parts);
    grow(ws.parts[k], 3 * size_t{parts});
  }
  grow(ws.pos, max_chunks);
  grow(ws.counters, 2);
  grow(ws.buckets, nbuckets);
  if (host_scalars) grow(ws.scalars, n);
  if (host_points) {
    rt::require_device_memory(size_t{n} * (sizeof(G1Affine) + sizeof(TePrecomputed)), "the BLS12-377 MSM bases");
    grow(ws.sw_points, n);
    grow(ws.points, n);
    grow(ws.bad, 1);
  }
  ensure_staging(ws);
  if (ws.poison) {
    for (auto* b : {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1],
                    &ws.counters})
      poison_fill(*b, stream);
    for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]}) poison_fill(*b, stream);
    if (host_scalars) poison_fill(ws.scalars, stream);
    if (host_points) {
      poison_fill(ws.points, stream);
      poison_fill(ws.sw_points, stream);
    }
  }
  if (host_points) {
    ws.readback[3] = n;  // no bad point yet
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(ws.bad.data(), &ws.readback[3], 4, cudaMemcpyHostToDevice, stream));
  }
  PhaseTimer phases(stream);
  // Every other stream starts after this set-up (poison fills, the bad-point index); the identity
  // fills below touch only the bucket sets, which only this stream uses, so they run beside the
  // first slice's upload (at 2^24, c = 23, two sets of 805 MB: about 0.5 ms the upload waited).
  ZKGPU_CUDA_CHECK(cudaEventRecord(ws.start_ready, stream));
  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(*ws.copy_stream, ws.start_ready, 0));
  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(*ws.digit_stream, ws.start_ready, 0));
  for (auto& cs : ws.convert_streams) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(*cs, ws.start_ready, 0));
  fill_identity(ws.buckets.data(), nbuckets, stream);

  // Temporary storage for the largest sort and scan, sized before anything runs (growing it later
  // would free memory that queued work may still use... and synchronise the device).
  int end_bit = 1;
  while ((uint64_t{1} << end_bit) <= sentinel) ++end_bit;
  {
    size_t sort_bytes = 0, scan_bytes = 0;
    cub::DoubleBuffer<uint32_t> dk(ws.keys[0].data(), ws.keys[1].data()), dv(ws.vals[0].data(), ws.vals[1].data());
    ZKGPU_CUDA_CHECK(
        cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, dk, dv, size_t{W} * max_count, 0, end_bit, stream));
    ZKGPU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, ws.pos.data(), ws.pos.data(),
                                                   static_cast<uint32_t>(max_chunks), stream));
    ensure_temp(ws, std::max(sort_bytes, scan_bytes));
  }

  phases.mark("fill");
  // Queues the loading of slice k: digits (and bases from host) on the other streams, or the digits
  // of device scalars on the compute stream.
  while (ws.slice_events.size() < slices.size()) {
    Workspace::SliceEvents ev;
    ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&ev.digits, cudaEventDisableTiming));
    for (auto& e : ev.converted) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    ws.slice_events.push_back(ev);
  }
  auto load = [&](size_t k) {
    const Slice sl = slices[k];
    if (host_scalars) {
      upload_scalars_slice(ws, host_scalars, n, sl, c, W, shared, ws.slice_events[k].digits);
      if (host_points) upload_bases_slice(ws, host_points, sl, ws.slice_events[k].converted);
    } else {
      digits_kernel<<<blocks_for(n), BLOCK, 0, stream>>>(d_scalars, 0, n, 0, n, n, c, W, shared, ws.keys[0].data(),
                                                         ws.vals[0].data());
      ZKGPU_CUDA_CHECK_LAUNCH();
    }
  };
  // Queues one level of chunk sums over L sorted entries; the partial sums it leaves are counted in
  // readback[1] + readback[2] once the stream gets there.
  const TePrecomputed* bases = host_points ? ws.points.data() : d_points;
  // Slices after the first add onto the buckets in place: their level-0 runs start from the
  // buckets' values so far (chunk_sums_bases_kernel's `old`), so every slice targets ws.buckets.
  const TeExtended* level0_old = nullptr;
  auto queue_level = [&](int level, TeExtended* target, uint32_t L, const uint32_t* cur_keys, const uint32_t* vals,
                         const TeExtended* cur_sums, uint32_t* counts, int out) {
    const uint32_t S = chunk_entries(L), chunks = static_cast<uint32_t>(chunks_for(L));
    if (chunks > ws.pos.size() || 2 * size_t{chunks} > ws.sums[out].size())
      throw Error(ErrorCode::CudaError, "MSM bucket sums: chunk buffers sized too small (a bug)");
    partial_count_kernel<<<blocks_for(chunks), BLOCK, 0, stream>>>(cur_keys, L, S, chunks, counts);
    ZKGPU_CUDA_CHECK_LAUNCH();
    size_t temp_bytes = ws.temp.size();
    ZKGPU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(ws.temp.data(), temp_bytes, counts, ws.pos.data(), chunks, stream));
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&ws.readback[1], ws.pos.data() + chunks - 1, 4, cudaMemcpyDeviceToHost, stream));
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&ws.readback[2], counts + chunks - 1, 4, cudaMemcpyDeviceToHost, stream));
    // Recorded before the sums: the host learns the next level's size and queues it while these run.
    ZKGPU_CUDA_CHECK(cudaEventRecord(ws.level_ready, stream));
    uint32_t* out_keys = ws.part_keys[out].data();
    TeExtended* out_sums = ws.sums[out].data();
    const unsigned grid = rt::ceil_div(chunks, SUM_BLOCK);
    const uint32_t* pos = ws.pos.data();
    if (level == 0)
      chunk_sums_bases_kernel<<<grid, SUM_BLOCK, 0, stream>>>(cur_keys, vals, bases, L, S, chunks, pos, target,
                                                              out_keys, out_sums, level0_old);
    else
      chunk_sums_kernel<<<grid, SUM_BLOCK, 0, stream>>>(cur_keys, cur_sums, L, S, chunks, pos, target, out_keys,
                                                        out_sums);
    ZKGPU_CUDA_CHECK_LAUNCH();
  };

  load(0);
  // Later slices are loaded by their own host thread, back to back, so the next slice's copy
  // starts as soon as the current one's is queued rather than after this thread has queued the
  // current slice's sort and read back its count of nonzero digits (the GPU's sort of slice 0 at
  // 2^24 is 1 ms). This thread runs the sorts and levels meanwhile. (At 2^20 the second slice's
  // upload, about 1 ms, is as long as the first slice's sorting and sums: the compute stream
  // waited 0.4-1.4 ms on uploads in the H200 runs.)
  SliceLoader loader;
  if (host_scalars && slices.size() > 1)
    loader.start([&] {
      for (size_t k = 1; k < slices.size(); ++k) {
        load(k);
        loader.loaded(k);
      }
    });
  for (size_t k = 0; k < slices.size(); ++k) {
    const Slice sl = slices[k];
    const size_t base = size_t{W} * sl.first, count = size_t{W} * sl.count;
    // 1. digits (queued by load), 2. sort of the slice's entries by bucket key.
    if (host_scalars) {
      if (k > 0) loader.wait_for(k);
      ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, ws.slice_events[k].digits, 0));
    }
    phases.mark("upload");
    cub::DoubleBuffer<uint32_t> dk(ws.keys[0].data() + base, ws.keys[1].data() + base),
        dv(ws.vals[0].data() + base, ws.vals[1].data() + base);
    size_t temp_bytes = ws.temp.size();
    ZKGPU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ws.temp.data(), temp_bytes, dk, dv, count, 0, end_bit, stream));
    const uint32_t* keys = dk.Current();
    const uint32_t* vals = dv.Current();
    count_valid_kernel<<<blocks_for(count), BLOCK, 0, stream>>>(keys, static_cast<uint32_t>(count), sentinel,
                                                                ws.counters.data());
    ZKGPU_CUDA_CHECK_LAUNCH();
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&ws.readback[0], ws.counters.data(), 4, cudaMemcpyDeviceToHost, stream));
    ZKGPU_CUDA_CHECK(cudaEventRecord(ws.valid_ready, stream));
    phases.mark("sort");
    ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.valid_ready));
    const uint32_t valid = ws.readback[0];

    // 3. bucket sums by fixed chunks, level by level, until no partial sums are left. Level 0 runs
    // while the host uploads the next slice.
    uint32_t* counts = dv.Alternate();  // the sort's spare value buffer is free now
    // Every slice sums into the buckets; those after the first start their runs from the sums so far.
    TeExtended* target = ws.buckets.data();
    level0_old = k == 0 ? nullptr : ws.buckets.data();
    if (valid) {
      if (host_points)
        for (auto& e : ws.slice_events[k].converted) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, e, 0));
      queue_level(0, target, valid, keys, vals, nullptr, counts, 0);
      phases.mark("sums0");
    }
    if (!valid) continue;
    ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.level_ready));
    uint32_t L = ws.readback[1] + ws.readback[2];
    for (int level = 1, out = 1; L > 0; ++level, out ^= 1) {
      queue_level(level, target, L, ws.part_keys[out ^ 1].data(), nullptr, ws.sums[out ^ 1].data(), counts, out);
      ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.level_ready));
      L = ws.readback[1] + ws.readback[2];
    }
    phases.mark("sums1+");
  }
  // The last slice's bases may have had no entries to sum: wait for their conversion too (check_bases
  // and the next MSM's set-up come after this stream).
  loader.finish();
  if (host_points)
    for (auto& e : ws.slice_events[slices.size() - 1].converted) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, e, 0));

  // 4. window reduction: running sums over parts of len buckets and the first folds (one kernel),
  // then folds down to host_pairs pairs per window, which the host finishes.
  TeExtended* px[2] = {ws.parts[0].data(), ws.parts[1].data()};
  // The lanes kernel's shared memory (30 KB per block) must not be what limits it to fewer blocks
  // per SM than its registers allow.
  static const bool carveout = [] {
    ZKGPU_CUDA_CHECK(cudaFuncSetAttribute(bucket_lanes_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
    return true;
  }();
  (void)carveout;
  const uint32_t P = buckets_per_window / len;  // parts per window
  const uint32_t group = std::min<uint32_t>(LANE_PARTS, P);
  size_t remaining = parts / group;  // pairs in px[src]: x, y, u one after the other
  bucket_lanes_kernel<<<rt::ceil_div(parts, LANE_PARTS), LANE_PARTS * PART_LANES, 0, stream>>>(
      ws.buckets.data(), len, P, parts, group, px[0], px[0] + remaining, px[0] + 2 * remaining);
  ZKGPU_CUDA_CHECK_LAUNCH();
  int src = 0;
  uint32_t per_window = P / group;
  const uint32_t host_pairs = host_fold_pairs(BW, per_window, ws.host_pairs);
  while (per_window > host_pairs) {
    const uint32_t g = std::min<uint32_t>(per_window / host_pairs, FOLD_PAIRS);
    const size_t blocks = remaining / g;
    TeExtended* in = px[src];
    TeExtended* out = px[src ^ 1];
    weighted_fold_kernel<<<static_cast<unsigned>(blocks), g / 2 * FOLD_LANES_PER_STEP, 0, stream>>>(
        in, in + remaining, in + 2 * remaining, out, out + blocks, out + 2 * blocks);
    ZKGPU_CUDA_CHECK_LAUNCH();
    per_window /= g;
    remaining = blocks;
    src ^= 1;
  }
  std::vector<TeExtended> last(3 * remaining);
  ZKGPU_CUDA_CHECK(
      cudaMemcpyAsync(last.data(), px[src], last.size() * sizeof(TeExtended), cudaMemcpyDeviceToHost, stream));
  phases.mark("reduce");
  ZKGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto h0 = std::chrono::steady_clock::now();
  std::vector<TeExtended> window_sums(BW);
  for (unsigned w = 0; w < BW; ++w) {  // the kernels' fold order, on one thread (fold_pair)
    std::vector<FoldPair> pw(per_window);
    for (uint32_t a = 0; a < per_window; ++a) {
      const size_t k = size_t{w} * per_window + a;
      pw[a] = {last[k], last[remaining + k], last[2 * remaining + k]};
    }
    for (uint32_t s = 1; s < per_window; s *= 2)
      for (uint32_t a = 0; a < per_window; a += 2 * s) fold_pair(pw[a], pw[a + s]);
    window_sums[w] = window_sum(pw[0], P);
  }

  // 5. Horner over the windows (host: a serial chain of W*c doublings); the window table already
  // put every window at its weight.
  TeExtended result = shared ? window_sums[0] : TeExtended::identity();
  for (unsigned w = BW; !shared && w-- > 0;) {
    for (unsigned k = 0; k < c; ++k) result = te_double(result);
    result = te_add(result, window_sums[w]);
  }
  phases.report(n, c, slices.size(),
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - h0).count());
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
  // About n/16 buckets per window, between 2^5 and 2^17 (per-window buckets; measured on the H200 at
  // 2^24: c = 18 127.5 ms, 17 130.5, 20 130.8, 16 137.3; at 2^20: 16 13.6 ms, 13 15.2).
  return std::clamp(lg >= 4 ? lg - 4 : 2u, 6u, 18u);
}

namespace {
unsigned forced_table_window = 0;  // tests (set_msm_table_window)
}  // namespace

unsigned table_window_bits(size_t n) {
  // With one shared bucket set the cost is about n*W additions into buckets plus 2.5 per bucket
  // (identity fill, running sums); c <= 23 keeps the sorted keys at 23 bits (three radix passes).
  if (forced_table_window) return forced_table_window;
  unsigned best = 8;
  double best_cost = 1e300;
  for (unsigned c = 8; c <= 23; ++c) {
    const double cost = static_cast<double>(n) * msm_window_count_half(c) + 2.5 * static_cast<double>(1u << (c - 1));
    if (cost < best_cost) best_cost = cost, best = c;
  }
  return best;
}

namespace {
// The window table of b (b.n > 0), when it fits in at most half of the free device memory (the
// MSM workspace needs the rest); otherwise b keeps no table and MSMs take the per-window buckets.
void build_window_table(detail::DeviceBases& b) {
  const unsigned c = table_window_bits(b.n), W = msm_window_count_half(c);
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
void check_bases(Workspace& ws, uint32_t n, cudaStream_t stream) {
  uint32_t bad = n;
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&bad, ws.bad.data(), 4, cudaMemcpyDeviceToHost, stream));
  ZKGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (bad != n)
    throw_invalid("point " + std::to_string(bad) +
                  ": the twisted-Edwards map is undefined there (the point is not in G1)");
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

void set_msm_table_window(unsigned c) {
  if (c != 0 && (c < 2 || c > 23)) throw_invalid("window table bits must be 2..23");
  forced_table_window = c;
}

void set_msm_min_slice(size_t points) {
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  ws.min_slice = points;
}

void set_msm_reduce_shape(unsigned parts_log2, uint32_t host_pairs) {
  if (parts_log2 > 24) throw_invalid("reduction parts must be at most 2^24");
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  ws.reduce_parts = parts_log2 ? size_t{1} << parts_log2 : 0;
  ws.host_pairs = host_pairs;
}

void release_msm_workspace() {
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  ws.scalars.reset();
  ws.points.reset();
  ws.sw_points.reset();
  ws.bad.reset();
  for (int k = 0; k < 2; ++k) ws.stage[k] = rt::PinnedBuffer<unsigned char>();
  ws.readback = rt::PinnedBuffer<uint32_t>();
  for (auto* b :
       {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1], &ws.counters})
    b->reset();
  for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]}) b->reset();
  ws.temp.reset();
}

}  // namespace cuda
}  // namespace zkgpu::bls12_377
