// Bucket sums by fixed chunks of the sorted entries (bucket_sums.cuh): one thread per chunk, every
// thread the same number of additions, so skewed scalars stay load-balanced; the buckets that cross
// chunks leave partial sums, summed the same way at the next level until none is left.
#include <cub/device/device_scan.cuh>

#include "msm/cuda/bucket_sums.cuh"
#include "msm/plan.hpp"

namespace zkgpu::bls12_377::cuda {

namespace {

// The bucket-sum kernels use about 160 registers: 12 warps fit an SM, which 256-thread blocks
// (8 warps) would cut to 8.
constexpr unsigned SUM_BLOCK = 128;

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

// One level of chunk sums over L sorted entries into ws.buckets: level 0 over signed indices into
// `bases` (vals), each run that starts in a chunk starting from old[key] when old is not null;
// later levels over the partial sums `sums` of the level before. The partial sums it leaves go to
// ws.part_keys[out] and ws.sums[out] and are counted in readback[1] + readback[2] once the stream
// gets there.
void queue_level(Workspace& ws, int level, uint32_t L, const uint32_t* cur_keys, const uint32_t* vals,
                 const TeExtended* cur_sums, const TePrecomputed* bases, const TeExtended* old, uint32_t* counts,
                 int out, cudaStream_t stream) {
  const uint32_t S = gpu_plan::chunk_entries(L, resident_sum_threads()),
                 chunks = static_cast<uint32_t>(gpu_plan::chunks_for(L, resident_sum_threads()));
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
  TeExtended* target = ws.buckets.data();
  const unsigned grid = rt::ceil_div(chunks, SUM_BLOCK);
  const uint32_t* pos = ws.pos.data();
  if (level == 0)
    chunk_sums_bases_kernel<<<grid, SUM_BLOCK, 0, stream>>>(cur_keys, vals, bases, L, S, chunks, pos, target, out_keys,
                                                            out_sums, old);
  else
    chunk_sums_kernel<<<grid, SUM_BLOCK, 0, stream>>>(cur_keys, cur_sums, L, S, chunks, pos, target, out_keys,
                                                      out_sums);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

}  // namespace

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

void fill_identity(TeExtended* p, size_t n, cudaStream_t stream) {
  fill_identity_kernel<<<rt::ceil_div(12 * n, BLOCK), BLOCK, 0, stream>>>(reinterpret_cast<uint4*>(p), n);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

void sum_buckets(Workspace& ws, const SortedEntries& in, const TePrecomputed* bases, bool onto_buckets,
                 ::zkgpu::cuda::PhaseProfiler& phases, cudaStream_t stream) {
  // Slices after the first add onto the buckets in place: their level-0 runs start from the
  // buckets' values so far (chunk_sums_bases_kernel's `old`).
  const TeExtended* old = onto_buckets ? ws.buckets.data() : nullptr;
  queue_level(ws, 0, in.valid, in.keys, in.vals, nullptr, bases, old, in.counts, 0, stream);
  phases.mark("sums0");
  ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.level_ready));
  uint32_t L = ws.readback[1] + ws.readback[2];
  for (int level = 1, out = 1; L > 0; ++level, out ^= 1) {
    queue_level(ws, level, L, ws.part_keys[out ^ 1].data(), nullptr, ws.sums[out ^ 1].data(), bases, nullptr, in.counts,
                out, stream);
    ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.level_ready));
    L = ws.readback[1] + ws.readback[2];
  }
  phases.mark("sums1+");
}

}  // namespace zkgpu::bls12_377::cuda
