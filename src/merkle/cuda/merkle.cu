// Merkle tree build. Several structures (set_merkle_variant, hash_tuning.hpp) that write identical
// nodes, so one device run can time them all:
//  - fused: each block hashes its rows and compresses them up several levels in shared memory;
//    later launches continue from the last level written, the top one runs a single block to the
//    root. Its kernels hold two inlined permutations (base and in-block levels).
//  - subtree-h (h = 0 is "layered"): each thread computes 2^h nodes of a base level (row sponges or
//    compressions of the level below, read from global memory) and the h levels above them in
//    registers. Every thread is busy for the whole launch (no in-block levels where most threads
//    idle) and the kernel has a single permutation call site: one permutation's code in the
//    instruction cache, which the fully unrolled form (~100 KB of SASS at width 16) nearly fills.
//    The levels of <= TAIL_BLOCK nodes run in one single-block launch: there only latency counts.
// All launches are queued on one stream with no synchronisation between them (stream order carries
// the dependency between levels).
#include <atomic>
#include <climits>
#include <cstdint>
#include <string>

#include "merkle/cuda/api.hpp"
#include "merkle/cuda/merkle.cuh"
#include "merkle/cuda/tuning.hpp"
#include "poseidon2/cuda/permute.cuh"
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda {
namespace hash_detail {
namespace {

// Level l of a tree with `rows` leaves starts at node 2*rows - 2*(rows >> l).
inline size_t level_offset(size_t rows, int l) { return 2 * rows - 2 * (rows >> l); }

// ---- fused ------------------------------------------------------------------------------------

constexpr unsigned MERKLE_BLOCK = 256;
constexpr int LOG_MERKLE_BLOCK = 8;
// In-block levels stop while a level still has a full warp of nodes per block: below that, lanes
// idle through whole permutations. The last (single-block) launch goes all the way to the root.
constexpr int LOG_WARP = 5;

// One launch: base level nodes [base_off, base_off + base_count) are computed (LEAF: hash of
// matrix row i; else compress of nodes src_off + 2i, 2i + 1), then `extra` levels above them inside
// each block. blockDim.x divides base_count, and the grid covers base_count exactly.
template <bool LEAF, PermKind K, bool VEC>
__global__ void __launch_bounds__(MERKLE_BLOCK)
    merkle_kernel(const BabyBear* __restrict__ matrix, size_t cols, Digest* __restrict__ nodes, size_t src_off,
                  size_t base_off, size_t base_count, int extra, const __grid_constant__ Poseidon2Params<16> p) {
  __shared__ uint4 sh[2 * MERKLE_BLOCK];  // one digest (two uint4) per thread
  const unsigned tid = threadIdx.x, bs = blockDim.x;
  const size_t i = size_t(blockIdx.x) * bs + tid;
  Digest d;
  if constexpr (LEAF) {
    d = leaf_hash<K, VEC>(matrix + i * cols, cols, p);
  } else {
    d = compress_pair<K>(load_digest(nodes + src_off + 2 * i), load_digest(nodes + src_off + 2 * i + 1), p);
  }
  store_digest(nodes + base_off + i, d);

  size_t off = base_off + base_count;  // offset of the next level
  size_t cnt = base_count >> 1;        // its node count
  for (int l = 1; l <= extra; ++l) {
    const unsigned active = bs >> l;  // nodes of level l in this block
    if (tid < 2 * active) {
      sh[2 * tid] = pack4(&d.e[0]);
      sh[2 * tid + 1] = pack4(&d.e[4]);
    }
    __syncthreads();
    if (tid < active) {
      Digest l2, r2;
      unpack4(sh[4 * tid], &l2.e[0]);
      unpack4(sh[4 * tid + 1], &l2.e[4]);
      unpack4(sh[4 * tid + 2], &r2.e[0]);
      unpack4(sh[4 * tid + 3], &r2.e[4]);
      d = compress_pair<K>(l2, r2, p);
      store_digest(nodes + off + size_t(blockIdx.x) * active + tid, d);
    }
    __syncthreads();  // the next level overwrites sh[] that this one just read
    off += cnt;
    cnt >>= 1;
  }
}

template <bool LEAF, PermKind K, bool VEC>
void launch_fused_level(const BabyBear* matrix, size_t cols, Digest* nodes, size_t src_off, size_t base_off,
                        size_t base_count, int extra, unsigned bs, const Poseidon2Params<16>& p, cudaStream_t s) {
  const size_t blocks = base_count / bs;
  if (blocks > size_t(INT_MAX)) throw_invalid("merkle_build_device: too many rows");
  merkle_kernel<LEAF, K, VEC>
      <<<static_cast<unsigned>(blocks), bs, 0, s>>>(matrix, cols, nodes, src_off, base_off, base_count, extra, p);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

template <PermKind K>
void build_fused(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* d_nodes,
                 cudaStream_t s) {
  auto plan = [](size_t count, unsigned& bs, int& extra) {
    if (count <= MERKLE_BLOCK) {
      bs = static_cast<unsigned>(count);
      extra = 0;
      while ((size_t(1) << extra) < count) ++extra;  // up to the root
    } else {
      bs = MERKLE_BLOCK;
      extra = LOG_MERKLE_BLOCK - LOG_WARP;
    }
  };
  unsigned bs = 0;
  int extra = 0;
  plan(rows, bs, extra);
  const bool vec = cols % 4 == 0 && reinterpret_cast<uintptr_t>(d_matrix) % 16 == 0;
  if (vec)
    launch_fused_level<true, K, true>(d_matrix, cols, d_nodes, 0, 0, rows, extra, bs, p, s);
  else
    launch_fused_level<true, K, false>(d_matrix, cols, d_nodes, 0, 0, rows, extra, bs, p, s);
  int level = extra;
  size_t count = rows >> extra;
  while (count > 1) {
    const size_t base_count = count / 2;
    plan(base_count, bs, extra);
    launch_fused_level<false, K, false>(nullptr, 0, d_nodes, level_offset(rows, level), level_offset(rows, level + 1),
                                        base_count, extra, bs, p, s);
    level += 1 + extra;
    count = base_count >> extra;
  }
}

// ---- subtree / layered ------------------------------------------------------------------------

constexpr unsigned SUBTREE_BLOCK = 128;  // small blocks spread the narrow levels over more SMs
constexpr unsigned TAIL_BLOCK = 128;     // the tail launch computes levels of <= TAIL_BLOCK nodes
// A launch computes h > 0 levels per thread only while its top level still has this many nodes
// (threads): about the resident-thread capacity of an H200 at these kernels' register counts.
constexpr size_t DEFAULT_MIN_SUBTREE_THREADS = size_t(1) << 17;
std::atomic<size_t> g_min_subtree_threads{DEFAULT_MIN_SUBTREE_THREADS};

// Thread t computes base nodes [t*2^H, (t+1)*2^H) (LEAF: sponge of matrix rows; else compress of
// the nodes 2i, 2i+1 at src_off) written at dst_off, and the H levels above them (level l of this
// launch starts at dst_off + 2*base_count - 2*(base_count >> l)). base_count is a multiple of 2^H.
//
// One loop, one permutation call site: each iteration sets up the state (next row chunk, next
// base pair, or pending left sibling + last output) and permutes once. The nodes are produced in
// post-order, so the pending left siblings form a stack of at most H digests, the top (the
// deepest level) in pending[0]; push and pop shift the whole stack, so it is indexed only by
// constants and stays in registers (a run-time index would put it in local memory). Every thread
// of a launch takes the same branches.
template <bool LEAF, bool VEC, int H, PermKind K>
__global__ void __launch_bounds__(SUBTREE_BLOCK)
    subtree_kernel(const BabyBear* __restrict__ matrix, size_t cols, Digest* __restrict__ nodes, size_t src_off,
                   size_t dst_off, size_t base_count, const __grid_constant__ Poseidon2Params<16> p) {
  const size_t t = size_t(blockIdx.x) * SUBTREE_BLOCK + threadIdx.x;
  if (t >= (base_count >> H)) return;
  const size_t first = t << H;
  Digest pending[H > 0 ? H : 1];
  BabyBear s[16];
  unsigned j = 0;  // base node (within this subtree) whose row or pair is being hashed
  int lvl = 0;     // level (within this launch) of the node the next permutation completes
  size_t off = 0;  // LEAF: next chunk of row first + j
#pragma unroll 1
  for (;;) {
    if (lvl == 0) {
      if constexpr (LEAF) {
        if (off == 0) {
#pragma unroll
          for (int i = 0; i < 16; ++i) s[i] = BabyBear::zero();
        }
        const BabyBear* row = matrix + (first + j) * cols + off;
        if constexpr (VEC) {
          // cols % 4 == 0: a chunk is 4 or 8 words (overwrite mode leaves the rest of the rate).
          if (off < cols) unpack4(__ldg(reinterpret_cast<const uint4*>(row)), &s[0]);
          if (off + 4 < cols) unpack4(__ldg(reinterpret_cast<const uint4*>(row) + 1), &s[4]);
        } else {
#pragma unroll
          for (int i = 0; i < 8; ++i)
            if (off + i < cols) s[i] = row[i];
        }
      } else {
        const uint4* q = reinterpret_cast<const uint4*>(nodes + src_off + 2 * (first + j));
#pragma unroll
        for (int k = 0; k < 4; ++k) unpack4(__ldg(q + k), &s[4 * k]);
      }
    } else {
      // Right child: the last output, s[0..8). Left child: the pending sibling at level lvl - 1,
      // the top of the stack: pop it.
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        s[8 + i] = s[i];
        s[i] = pending[0].e[i];
      }
#pragma unroll
      for (int l = 0; l + 1 < H; ++l) pending[l] = pending[l + 1];
    }
    if (!LEAF || lvl > 0 || cols > 0) permute<16, K>(s, p);  // 0 columns: the zero digest
    if (LEAF && lvl == 0 && off + 8 < cols) {
      off += 8;
      continue;
    }
    {
      const size_t level_base = dst_off + 2 * base_count - 2 * (base_count >> lvl);
      uint4* q = reinterpret_cast<uint4*>(nodes + level_base + ((first + j) >> lvl));
      q[0] = pack4(&s[0]);
      q[1] = pack4(&s[4]);
    }
    if (lvl == H) break;
    if ((j >> lvl) & 1u) {
      ++lvl;  // a right child: compress it with its pending left sibling next
    } else {
      // A left child: push it.
#pragma unroll
      for (int l = H - 1; l > 0; --l) pending[l] = pending[l - 1];
#pragma unroll
      for (int i = 0; i < 8; ++i) pending[0].e[i] = s[i];
      ++j;
      lvl = 0;
      off = 0;
    }
  }
}

// Levels above a level of `count` nodes (2 <= count <= 2*TAIL_BLOCK) at src_off, up to the root,
// in one block: the src level is staged in shared memory and each level reads its inputs there.
template <PermKind K>
__global__ void __launch_bounds__(TAIL_BLOCK) tail_kernel(Digest* __restrict__ nodes, size_t src_off, unsigned count,
                                                          const __grid_constant__ Poseidon2Params<16> p) {
  __shared__ uint4 sh[2 * 2 * TAIL_BLOCK];  // count digests, two uint4 each
  const unsigned tid = threadIdx.x;
  const uint4* src = reinterpret_cast<const uint4*>(nodes + src_off);
  for (unsigned k = tid; k < 2 * count; k += TAIL_BLOCK) sh[k] = src[k];
  __syncthreads();
  size_t off = src_off + count;
#pragma unroll 1
  for (unsigned n = count / 2; n >= 1; off += n, n /= 2) {
    BabyBear s[16];
    if (tid < n) {
#pragma unroll
      for (int k = 0; k < 4; ++k) unpack4(sh[4 * tid + k], &s[4 * k]);
    }
    __syncthreads();  // every input read before any thread overwrites sh[0..n)
    if (tid < n) {
      permute<16, K>(s, p);
      const uint4 a = pack4(&s[0]), b = pack4(&s[4]);
      uint4* q = reinterpret_cast<uint4*>(nodes + off + tid);
      q[0] = a;
      q[1] = b;
      sh[2 * tid] = a;
      sh[2 * tid + 1] = b;
    }
    __syncthreads();
  }
}

template <bool LEAF, bool VEC, int H, PermKind K>
void launch_subtree(const BabyBear* matrix, size_t cols, Digest* nodes, size_t src_off, size_t dst_off,
                    size_t base_count, const Poseidon2Params<16>& p, cudaStream_t s) {
  const size_t threads = base_count >> H;
  const size_t blocks = (threads + SUBTREE_BLOCK - 1) / SUBTREE_BLOCK;
  if (blocks > size_t(INT_MAX)) throw_invalid("merkle_build_device: too many rows");
  subtree_kernel<LEAF, VEC, H, K>
      <<<static_cast<unsigned>(blocks), SUBTREE_BLOCK, 0, s>>>(matrix, cols, nodes, src_off, dst_off, base_count, p);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

// Levels per thread for a launch whose base level has `count` nodes: the most (<= H) that still
// leave merkle_subtree_min_threads() threads (and at least one).
template <int H>
int subtree_height(size_t count) {
  const size_t min_threads = g_min_subtree_threads.load(std::memory_order_relaxed);
  int h = H;
  while (h > 0 && (count >> h) < min_threads) --h;
  return h;
}

template <bool LEAF, bool VEC, PermKind K, int H>
void launch_subtree_h(int h, const BabyBear* matrix, size_t cols, Digest* nodes, size_t src_off, size_t dst_off,
                      size_t base_count, const Poseidon2Params<16>& p, cudaStream_t s) {
  if constexpr (H > 0) {
    if (h == H) return launch_subtree<LEAF, VEC, H, K>(matrix, cols, nodes, src_off, dst_off, base_count, p, s);
    return launch_subtree_h<LEAF, VEC, K, H - 1>(h, matrix, cols, nodes, src_off, dst_off, base_count, p, s);
  } else {
    launch_subtree<LEAF, VEC, 0, K>(matrix, cols, nodes, src_off, dst_off, base_count, p, s);
  }
}

// BIG: the permutation form of the wide launches, TAIL: of the single-block tail.
template <int H, PermKind BIG, PermKind TAIL>
void build_subtree(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* d_nodes,
                   cudaStream_t s) {
  int h = subtree_height<H>(rows);
  const bool vec = cols % 4 == 0 && reinterpret_cast<uintptr_t>(d_matrix) % 16 == 0;
  if (vec)
    launch_subtree_h<true, true, BIG, H>(h, d_matrix, cols, d_nodes, 0, 0, rows, p, s);
  else
    launch_subtree_h<true, false, BIG, H>(h, d_matrix, cols, d_nodes, 0, 0, rows, p, s);
  int level = h;
  size_t count = rows >> h;
  while (count > 1) {
    if (count <= 2 * TAIL_BLOCK) {
      tail_kernel<TAIL><<<1, TAIL_BLOCK, 0, s>>>(d_nodes, level_offset(rows, level), static_cast<unsigned>(count), p);
      ZKGPU_CUDA_CHECK_LAUNCH();
      return;
    }
    const size_t base_count = count / 2;
    h = subtree_height<H>(base_count);
    launch_subtree_h<false, false, BIG, H>(h, nullptr, 0, d_nodes, level_offset(rows, level),
                                           level_offset(rows, level + 1), base_count, p, s);
    level += 1 + h;
    count = base_count >> h;
  }
}

// ---- variants ---------------------------------------------------------------------------------

constexpr int DEFAULT_MERKLE_VARIANT = 2;  // layered, rolled: fastest on the H200 (16.2 ms at 2^24 x 16, 2026-11-30)
constexpr int N_MERKLE_VARIANTS = 7;
const char* const VARIANT_NAMES[N_MERKLE_VARIANTS] = {
    "fused", "layered_u_tail_r", "layered_r", "layered_u", "subtree1_u_tail_r", "subtree2_u_tail_r", "subtree2_r"};
std::atomic<int> g_merkle_variant{DEFAULT_MERKLE_VARIANT};

void build(int variant, PermKind kind, const BabyBear* m, size_t rows, size_t cols, const Poseidon2Params<16>& p,
           Digest* nodes, cudaStream_t s) {
  constexpr PermKind U = PermKind::StdUnrolled, R = PermKind::StdRolled, G = PermKind::Generic;
  if (variant == 0) {
    switch (kind) {
      case G: return build_fused<G>(m, rows, cols, p, nodes, s);
      case U: return build_fused<U>(m, rows, cols, p, nodes, s);
      case R: return build_fused<R>(m, rows, cols, p, nodes, s);
    }
  }
  // Without the standard diag (or with kind 0 forced) every structured variant runs layered over
  // the core permutation: correctness only, one instantiation.
  if (kind == G) return build_subtree<0, G, G>(m, rows, cols, p, nodes, s);
  switch (variant) {
    case 1: return build_subtree<0, U, R>(m, rows, cols, p, nodes, s);
    case 2: return build_subtree<0, R, R>(m, rows, cols, p, nodes, s);
    case 3: return build_subtree<0, U, U>(m, rows, cols, p, nodes, s);
    case 4: return build_subtree<1, U, R>(m, rows, cols, p, nodes, s);
    case 5: return build_subtree<2, U, R>(m, rows, cols, p, nodes, s);
    case 6: return build_subtree<2, R, R>(m, rows, cols, p, nodes, s);
  }
  throw_invalid("merkle_build_device: unknown variant " + std::to_string(variant));
}

}  // namespace
}  // namespace hash_detail

void set_merkle_variant(int variant) {
  if (variant < 0 || variant >= hash_detail::N_MERKLE_VARIANTS)
    throw_invalid("merkle variant must be in 0.." + std::to_string(hash_detail::N_MERKLE_VARIANTS - 1) + ", got " +
                  std::to_string(variant));
  hash_detail::g_merkle_variant.store(variant, std::memory_order_relaxed);
}
int merkle_variant() { return hash_detail::g_merkle_variant.load(std::memory_order_relaxed); }
int merkle_variant_count() { return hash_detail::N_MERKLE_VARIANTS; }
const char* merkle_variant_name(int variant) {
  if (variant < 0 || variant >= hash_detail::N_MERKLE_VARIANTS)
    throw_invalid("merkle variant must be in 0.." + std::to_string(hash_detail::N_MERKLE_VARIANTS - 1) + ", got " +
                  std::to_string(variant));
  return hash_detail::VARIANT_NAMES[variant];
}

void set_merkle_subtree_min_threads(size_t threads) {
  if (threads == 0) throw_invalid("merkle subtree min threads must be >= 1");
  hash_detail::g_min_subtree_threads.store(threads, std::memory_order_relaxed);
}
size_t merkle_subtree_min_threads() { return hash_detail::g_min_subtree_threads.load(std::memory_order_relaxed); }

void merkle_build_device(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                         Digest* d_nodes, cudaStream_t s) {
  using namespace hash_detail;
  if (rows == 0 || (rows & (rows - 1)) != 0)
    throw_invalid("merkle_build: rows must be a power of two (Plonky3 MMCS), got " + std::to_string(rows));
  if (rows > (size_t(1) << 40)) throw_invalid("merkle_build: rows " + std::to_string(rows) + " is too large");
  if (cols > SIZE_MAX / rows / sizeof(BabyBear)) throw_invalid("merkle_build: rows * cols overflows");
  if (!d_nodes) throw_invalid("merkle_build_device: d_nodes is null");
  if (reinterpret_cast<uintptr_t>(d_nodes) % 16 != 0)
    throw_invalid("merkle_build_device: d_nodes must be 16-byte aligned (cudaMalloc memory is)");
  if (cols > 0 && !d_matrix) throw_invalid("merkle_build_device: d_matrix is null with cols > 0");
  build(merkle_variant(), perm_kind_for(p), d_matrix, rows, cols, p, d_nodes, s);
}

void merkle_build_host(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes) {
  if (rows == 0 || (rows & (rows - 1)) != 0)
    throw_invalid("merkle_build: rows must be a power of two (Plonky3 MMCS), got " + std::to_string(rows));
  if (rows > (size_t(1) << 40)) throw_invalid("merkle_build: rows " + std::to_string(rows) + " is too large");
  if (cols > SIZE_MAX / rows / sizeof(BabyBear)) throw_invalid("merkle_build: rows * cols overflows");
  if (!nodes || (cols > 0 && !matrix)) throw_invalid("merkle_build_host: null matrix or nodes");
  const size_t words = rows * cols, n_nodes = 2 * rows - 1;
  require_device_memory(words * sizeof(BabyBear) + n_nodes * sizeof(Digest), "Merkle tree build");
  Stream stream;
  DeviceBuffer<BabyBear> d_matrix(words);
  DeviceBuffer<Digest> d_nodes(n_nodes);
  if (words) d_matrix.upload(matrix, words, stream);
  merkle_build_device(d_matrix.data(), rows, cols, p, d_nodes.data(), stream);
  d_nodes.download(nodes, n_nodes, stream);
  stream.sync();
}

}  // namespace zkgpu::cuda
