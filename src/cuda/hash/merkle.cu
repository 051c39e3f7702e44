// Merkle tree build, fused: each block hashes its rows and compresses them up several levels in
// shared memory, writing every node; later launches continue from the last level written, the
// top one runs a single block up to the root. All launches are queued on one stream with no
// synchronisation between them (stream order carries the dependency between levels).
#include <climits>
#include <cstdint>
#include <string>

#include "cuda/api.hpp"
#include "cuda/hash/hash.cuh"
#include "cuda/hash/kernels.cuh"
#include "cuda/runtime.cuh"

namespace zkgpu::cuda {
namespace hash_detail {
namespace {

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
void launch_level(const BabyBear* matrix, size_t cols, Digest* nodes, size_t src_off, size_t base_off,
                  size_t base_count, int extra, unsigned bs, const Poseidon2Params<16>& p, cudaStream_t s) {
  const size_t blocks = base_count / bs;
  if (blocks > size_t(INT_MAX)) throw_invalid("merkle_build_device: too many rows");
  merkle_kernel<LEAF, K, VEC><<<static_cast<unsigned>(blocks), bs, 0, s>>>(matrix, cols, nodes, src_off, base_off,
                                                                         base_count, extra, p);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

template <PermKind K>
void build(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* d_nodes,
           cudaStream_t s) {
  // Level l starts at 2*rows - 2*(rows >> l).
  auto level_off = [rows](int l) { return 2 * rows - 2 * (rows >> l); };
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
    launch_level<true, K, true>(d_matrix, cols, d_nodes, 0, 0, rows, extra, bs, p, s);
  else
    launch_level<true, K, false>(d_matrix, cols, d_nodes, 0, 0, rows, extra, bs, p, s);
  int level = extra;
  size_t count = rows >> extra;
  while (count > 1) {
    const size_t base_count = count / 2;
    plan(base_count, bs, extra);
    launch_level<false, K, false>(nullptr, 0, d_nodes, level_off(level), level_off(level + 1), base_count, extra, bs,
                                  p, s);
    level += 1 + extra;
    count = base_count >> extra;
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
  switch (perm_kind_for(p)) {
    case PermKind::Generic:
      build<PermKind::Generic>(d_matrix, rows, cols, p, d_nodes, s);
      break;
    case PermKind::StdUnrolled:
      build<PermKind::StdUnrolled>(d_matrix, rows, cols, p, d_nodes, s);
      break;
    case PermKind::StdRolled:
      build<PermKind::StdRolled>(d_matrix, rows, cols, p, d_nodes, s);
      break;
  }
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
