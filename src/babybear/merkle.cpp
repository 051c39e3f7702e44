#include "zkgpu/merkle.hpp"

#include <bit>
#include <limits>
#include <string>

#include "cpu/merkle/merkle.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "cuda/api.hpp"
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
                       Backend backend)
    : matrix_(std::move(matrix)), rows_(rows), cols_(cols), log_rows_(static_cast<unsigned>(std::countr_zero(rows))) {
  nodes_.resize(2 * rows - 1);
  if (resolve_backend(backend, rows, MERKLE_GPU_CROSSOVER_ROWS) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::merkle_build_host(matrix_.data(), rows, cols, p, nodes_.data());
    return;
#endif
  }
  cpu::merkle_build(matrix_.data(), rows, cols, p, nodes_.data());
}

MerkleTree MerkleTree::build(std::span<const BabyBear> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             Backend backend) {
  check_shape(matrix.size(), rows, cols, "base-field");
  return MerkleTree(std::vector<BabyBear>(matrix.begin(), matrix.end()), rows, cols, p, backend);
}

MerkleTree MerkleTree::build(std::vector<BabyBear>&& matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             Backend backend) {
  check_shape(matrix.size(), rows, cols, "base-field");
  return MerkleTree(std::move(matrix), rows, cols, p, backend);
}

MerkleTree MerkleTree::build(std::span<const BabyBear4> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                             Backend backend) {
  check_shape(matrix.size(), rows, cols, "extension-field");
  // BabyBear4 is c0..c3 contiguous (static_assert in babybear_ext4.hpp), which is exactly
  // ExtensionMmcs's flattening order.
  std::vector<BabyBear> flat(matrix.size() * 4);
  for (size_t i = 0; i < matrix.size(); ++i)
    for (int k = 0; k < 4; ++k) flat[4 * i + k] = matrix[i].c[k];
  return MerkleTree(std::move(flat), rows, 4 * cols, p, backend);
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

bool merkle_verify(const Digest& root, size_t rows, size_t cols, size_t index, const MerkleOpening& opening,
                   const Poseidon2Params<16>& p) {
  if (rows == 0 || !std::has_single_bit(rows) || index >= rows) return false;
  if (opening.siblings.size() != static_cast<size_t>(std::countr_zero(rows))) return false;
  if (opening.row.size() != cols) return false;
  // Words >= p are not field elements; Montgomery arithmetic on them would be meaningless.
  for (const BabyBear& x : opening.row)
    if (x.v >= BabyBear::P) return false;
  for (const Digest& s : opening.siblings)
    for (const BabyBear& x : s.e)
      if (x.v >= BabyBear::P) return false;
  for (const BabyBear& x : root.e)
    if (x.v >= BabyBear::P) return false;

  Digest d = sponge_hash(opening.row.data(), opening.row.size(), p);
  size_t i = index;
  for (const Digest& s : opening.siblings) {
    d = (i & 1) ? compress(s, d, p) : compress(d, s, p);
    i >>= 1;
  }
  return d == root;
}

}  // namespace zkgpu
