#include "zkgpu/merkle.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <string>

#include "merkle/cpu/merkle_cpu.hpp"
#include "poseidon2/cpu/batch.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "merkle/cuda/api.hpp"
#include "runtime/cuda/caller_memory.hpp"
#endif

namespace zkgpu {
namespace {

void check_shape(size_t matrix_size, size_t rows, size_t cols, const char* what) {
  if (rows == 0 || !std::has_single_bit(rows))
    throw_invalid(std::string("Merkle tree: ") + what + " rows = " + std::to_string(rows) +
                  " must be a power of two >= 1 (pad the matrix to the next power of two)");
  if (cols == 0) throw_invalid(std::string("Merkle tree: ") + what + " cols must be >= 1");
  if (cols > std::numeric_limits<size_t>::max() / rows || matrix_size != rows * cols)
    throw_invalid(std::string("Merkle tree: ") + what + " matrix has " + std::to_string(matrix_size) +
                  " elements, expected rows * cols = " + std::to_string(rows) + " * " + std::to_string(cols));
}

}  // namespace

MerkleTree::MerkleTree(std::vector<BabyBear>&& matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                       const MerkleOptions& options)
    : matrix_(std::move(matrix)), rows_(rows), cols_(cols), log_rows_(static_cast<unsigned>(std::countr_zero(rows))) {
  nodes_.resize(2 * rows - 1);
  if (resolve_backend(options.backend, rows, options.gpu_crossover) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::merkle_build_host(matrix_.data(), rows, cols, p, nodes_.data());
    return;
#endif
  }
  cpu::merkle_build(matrix_.data(), rows, cols, p, nodes_.data());
}

MerkleTree MerkleTree::build(std::span<const BabyBear> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             const MerkleOptions& options) {
  check_shape(matrix.size(), rows, cols, "base-field");
  return MerkleTree(std::vector<BabyBear>(matrix.begin(), matrix.end()), rows, cols, p, options);
}

MerkleTree MerkleTree::build(std::vector<BabyBear>&& matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             const MerkleOptions& options) {
  check_shape(matrix.size(), rows, cols, "base-field");
  return MerkleTree(std::move(matrix), rows, cols, p, options);
}

MerkleTree MerkleTree::build(std::span<const BabyBear4> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             const MerkleOptions& options) {
  check_shape(matrix.size(), rows, cols, "extension-field");
  // BabyBear4 is c0..c3 contiguous (static_assert in babybear_ext4.hpp), which is exactly
  // ExtensionMmcs's flattening order.
  std::vector<BabyBear> flat(matrix.size() * 4);
  for (size_t i = 0; i < matrix.size(); ++i)
    for (int k = 0; k < 4; ++k) flat[4 * i + k] = matrix[i].c[k];
  return MerkleTree(std::move(flat), rows, 4 * cols, p, options);
}

// The bare-Backend builds: the default crossover.
MerkleTree MerkleTree::build(std::span<const BabyBear> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             Backend backend) {
  return build(matrix, rows, cols, p, MerkleOptions{.backend = backend});
}
MerkleTree MerkleTree::build(std::vector<BabyBear>&& matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             Backend backend) {
  return build(std::move(matrix), rows, cols, p, MerkleOptions{.backend = backend});
}
MerkleTree MerkleTree::build(std::span<const BabyBear4> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             Backend backend) {
  return build(matrix, rows, cols, p, MerkleOptions{.backend = backend});
}

MerkleOpening MerkleTree::open(size_t index) const {
  if (index >= rows_)
    throw_invalid("Merkle opening index " + std::to_string(index) + " is out of range: the tree has " +
                  std::to_string(rows_) + " rows");
  MerkleOpening o;
  o.row.assign(matrix_.begin() + index * cols_, matrix_.begin() + (index + 1) * cols_);
  o.siblings.reserve(log_rows_);
  size_t level_start = 0, i = index;
  for (size_t n = rows_; n > 1; n /= 2) {
    o.siblings.push_back(nodes_[level_start + (i ^ 1)]);
    level_start += n;
    i >>= 1;
  }
  return o;
}

namespace {

// The checks merkle_verify makes before hashing: shape, and every word a field element (words >= p
// are not field elements; Montgomery arithmetic on them would be meaningless).
bool opening_well_formed(const Digest& root, size_t rows, size_t cols, size_t index, const MerkleOpening& opening) {
  if (rows == 0 || !std::has_single_bit(rows) || index >= rows) return false;
  if (opening.siblings.size() != static_cast<size_t>(std::countr_zero(rows))) return false;
  if (opening.row.size() != cols) return false;
  for (const BabyBear& x : opening.row)
    if (x.v >= BabyBear::P) return false;
  for (const Digest& s : opening.siblings)
    for (const BabyBear& x : s.e)
      if (x.v >= BabyBear::P) return false;
  for (const BabyBear& x : root.e)
    if (x.v >= BabyBear::P) return false;
  return true;
}

}  // namespace

bool merkle_verify(const Digest& root, size_t rows, size_t cols, size_t index, const MerkleOpening& opening,
                   const Poseidon2Params<16>& p) {
  if (!opening_well_formed(root, rows, cols, index, opening)) return false;
  Digest d = sponge_hash(opening.row.data(), opening.row.size(), p);
  size_t i = index;
  for (const Digest& s : opening.siblings) {
    d = (i & 1) ? compress(s, d, p) : compress(d, s, p);
    i >>= 1;
  }
  return d == root;
}

namespace {

// Hashes the paths of `items` (indices into checks, all well formed) up to their roots: the leaves
// as one batched sponge per row width, then level by level one batched compression of every path
// still below its root. Writes ok[i] for each item.
void verify_paths(std::span<const MerkleCheck> checks, std::span<const size_t> items, const Poseidon2Params<16>& p,
                  uint8_t* ok) {
  std::vector<Digest> node(items.size());
  std::map<size_t, std::vector<size_t>> by_width;  // width -> positions in items
  for (size_t j = 0; j < items.size(); ++j) by_width[checks[items[j]].cols].push_back(j);
  std::vector<BabyBear> rows;
  std::vector<Digest> leaves;
  for (const auto& [cols, pos] : by_width) {
    rows.resize(pos.size() * cols);
    for (size_t k = 0; k < pos.size(); ++k) {
      const std::vector<BabyBear>& row = checks[items[pos[k]]].opening->row;
      std::copy(row.begin(), row.end(), rows.begin() + k * cols);
    }
    leaves.resize(pos.size());
    cpu::hash_rows(rows.data(), pos.size(), cols, p, leaves.data());
    for (size_t k = 0; k < pos.size(); ++k) node[pos[k]] = leaves[k];
  }
  std::vector<Digest> pairs, parents;
  std::vector<size_t> active;  // positions in items
  for (unsigned level = 0;; ++level) {
    active.clear();
    for (size_t j = 0; j < items.size(); ++j)
      if (level < checks[items[j]].opening->siblings.size()) active.push_back(j);
    if (active.empty()) break;
    pairs.resize(2 * active.size());
    for (size_t k = 0; k < active.size(); ++k) {
      const MerkleCheck& c = checks[items[active[k]]];
      const Digest& sib = c.opening->siblings[level];
      const bool right = (c.index >> level) & 1;
      pairs[2 * k] = right ? sib : node[active[k]];
      pairs[2 * k + 1] = right ? node[active[k]] : sib;
    }
    parents.resize(active.size());
    cpu::compress_pairs(pairs.data(), active.size(), p, parents.data());
    for (size_t k = 0; k < active.size(); ++k) node[active[k]] = parents[k];
  }
  for (size_t j = 0; j < items.size(); ++j) ok[items[j]] = node[j] == *checks[items[j]].root;
}

}  // namespace

std::vector<uint8_t> merkle_verify_batch(std::span<const MerkleCheck> checks, const Poseidon2Params<16>& p) {
  std::vector<uint8_t> ok(checks.size(), 0);
  std::vector<size_t> live;  // well-formed checks, the only ones hashed
  for (size_t i = 0; i < checks.size(); ++i) {
    const MerkleCheck& c = checks[i];
    if (c.root && c.opening && opening_well_formed(*c.root, c.rows, c.cols, c.index, *c.opening)) live.push_back(i);
  }
  // Threads take whole groups of paths through every level: one fork/join per batch, not one per
  // level (a WHIR proof has a few hundred paths of ~20 levels; per-level regions cost more than
  // they save on a loaded machine). The batched hashes inside run on one thread each (OpenMP does
  // not nest by default), 64 paths filling four AVX-512 blocks.
  constexpr size_t GROUP = 64;
  const long long groups = static_cast<long long>((live.size() + GROUP - 1) / GROUP);
#pragma omp parallel for schedule(dynamic) if (groups > 1)
  for (long long g = 0; g < groups; ++g) {
    const size_t begin = static_cast<size_t>(g) * GROUP;
    verify_paths(checks, std::span<const size_t>(live).subspan(begin, std::min(GROUP, live.size() - begin)), p,
                 ok.data());
  }
  return ok;
}

void merkle_build_device(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                         Digest* d_nodes, GpuStream stream) {
  if (rows == 0 || !std::has_single_bit(rows) || rows > (size_t(1) << 40))
    throw_invalid("merkle_build_device: rows = " + std::to_string(rows) + " must be a power of two in [1, 2^40]");
  if (cols == 0) throw_invalid("merkle_build_device: cols must be >= 1");
  if (cols > std::numeric_limits<size_t>::max() / sizeof(BabyBear) / rows)
    throw_invalid("merkle_build_device: rows * cols overflows size_t");
  resolve_backend(Backend::Cuda, rows, 0);  // Error(Unavailable) without a usable GPU
#if ZKGPU_HAVE_CUDA
  const size_t matrix_bytes = rows * cols * sizeof(BabyBear), nodes_bytes = (2 * rows - 1) * sizeof(Digest);
  cuda::require_device_pointer(d_matrix, matrix_bytes, "merkle_build_device: d_matrix");
  cuda::require_device_pointer(d_nodes, nodes_bytes, "merkle_build_device: d_nodes");
  cuda::require_disjoint(d_nodes, nodes_bytes, d_matrix, matrix_bytes, "merkle_build_device");
  cuda::merkle_build_on_stream(d_matrix, rows, cols, p, d_nodes, stream.handle);
#else
  (void)d_matrix, (void)p, (void)d_nodes, (void)stream;
#endif
}

}  // namespace zkgpu
