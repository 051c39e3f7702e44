// Merkle tree build, layered: one launch per level while a level is wide, one node per thread
// (row sponges for the leaves, compressions of the level below, read from global memory), then the
// levels of <= TAIL_BLOCK nodes in one single-block launch, where only latency counts. Every
// kernel has a single permutation call site, the rolled standard-diag form (or the core form for
// other diag constants): one small permutation in the instruction cache. On the H200 this measured
// faster than the other structures tried: a fused build (several levels per block in shared
// memory), subtrees of 2 or 4 base nodes per thread, and the fully unrolled permutation in either.
// All launches are queued on one stream with no synchronisation between them (stream order carries
// the dependency between levels).
#include <climits>
#include <cstdint>
#include <string>

#include "merkle/cuda/api.hpp"
#include "merkle/cuda/merkle.cuh"
#include "poseidon2/cuda/permute.cuh"
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda {
namespace hash_detail {
namespace {

// Level l of a tree with `rows` leaves starts at node 2*rows - 2*(rows >> l).
inline size_t level_offset(size_t rows, int l) { return 2 * rows - 2 * (rows >> l); }

constexpr unsigned LEVEL_BLOCK = 128;  // small blocks spread the narrow levels over more SMs
constexpr unsigned TAIL_BLOCK = 128;   // the tail launch computes levels of <= TAIL_BLOCK nodes

// Thread t computes node t of a level of `count` nodes, written at dst_off: LEAF, the sponge of
// matrix row t; else the compression of the nodes 2t, 2t + 1 at src_off.
//
// One loop, one permutation call site: each iteration sets up the state (the next row chunk, or
// the pair) and permutes once; only a leaf with more than 8 columns iterates again.
template <bool LEAF, bool VEC, PermKind K>
__global__ void __launch_bounds__(LEVEL_BLOCK)
    level_kernel(const BabyBear* __restrict__ matrix, size_t cols, Digest* __restrict__ nodes, size_t src_off,
                 size_t dst_off, size_t count, const __grid_constant__ Poseidon2Params<16> p) {
  const size_t t = size_t(blockIdx.x) * LEVEL_BLOCK + threadIdx.x;
  if (t >= count) return;
  BabyBear s[16];
  size_t off = 0;  // LEAF: next chunk of row t
#pragma unroll 1
  for (;;) {
    if constexpr (LEAF) {
      if (off == 0) {
#pragma unroll
        for (int i = 0; i < 16; ++i) s[i] = BabyBear::zero();
      }
      const BabyBear* row = matrix + t * cols + off;
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
      const uint4* q = reinterpret_cast<const uint4*>(nodes + src_off + 2 * t);
#pragma unroll
      for (int k = 0; k < 4; ++k) unpack4(__ldg(q + k), &s[4 * k]);
    }
    if (!LEAF || cols > 0) permute<16, K>(s, p);  // 0 columns: the zero digest
    if (LEAF && off + 8 < cols) {
      off += 8;
      continue;
    }
    break;
  }
  uint4* q = reinterpret_cast<uint4*>(nodes + dst_off + t);
  q[0] = pack4(&s[0]);
  q[1] = pack4(&s[4]);
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

template <bool LEAF, bool VEC, PermKind K>
void launch_level(const BabyBear* matrix, size_t cols, Digest* nodes, size_t src_off, size_t dst_off, size_t count,
                  const Poseidon2Params<16>& p, cudaStream_t s) {
  const size_t blocks = (count + LEVEL_BLOCK - 1) / LEVEL_BLOCK;
  if (blocks > size_t(INT_MAX)) throw_invalid("merkle_build_device: too many rows");
  level_kernel<LEAF, VEC, K>
      <<<static_cast<unsigned>(blocks), LEVEL_BLOCK, 0, s>>>(matrix, cols, nodes, src_off, dst_off, count, p);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

template <PermKind K>
void build_layered(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* d_nodes,
                   cudaStream_t s) {
  const bool vec = cols % 4 == 0 && reinterpret_cast<uintptr_t>(d_matrix) % 16 == 0;
  if (vec)
    launch_level<true, true, K>(d_matrix, cols, d_nodes, 0, 0, rows, p, s);
  else
    launch_level<true, false, K>(d_matrix, cols, d_nodes, 0, 0, rows, p, s);
  int level = 0;
  size_t count = rows;
  while (count > 1) {
    if (count <= 2 * TAIL_BLOCK) {
      tail_kernel<K><<<1, TAIL_BLOCK, 0, s>>>(d_nodes, level_offset(rows, level), static_cast<unsigned>(count), p);
      ZKGPU_CUDA_CHECK_LAUNCH();
      return;
    }
    count /= 2;
    launch_level<false, false, K>(nullptr, 0, d_nodes, level_offset(rows, level), level_offset(rows, level + 1), count,
                                  p, s);
    ++level;
  }
}

}  // namespace
}  // namespace hash_detail

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
  if (perm_kind_for(p) == PermKind::StdRolled)
    build_layered<PermKind::StdRolled>(d_matrix, rows, cols, p, d_nodes, s);
  else
    build_layered<PermKind::Generic>(d_matrix, rows, cols, p, d_nodes, s);
}

void merkle_build_on_stream(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                            Digest* d_nodes, void* stream) {
  merkle_build_device(d_matrix, rows, cols, p, d_nodes, static_cast<cudaStream_t>(stream));
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
