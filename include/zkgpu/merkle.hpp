// Merkle commitment to one matrix, as Plonky3's MerkleTreeMmcs with arity 2, cap height 0 and the
// Poseidon2-16 sponge/compression of spec §5 (spec §6): leaf i = sponge_hash(row i), parent =
// compress(left, right), openings list sibling digests from the leaf level upward.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {

// Backend::Auto builds on the GPU from this many rows up.
inline constexpr uint64_t MERKLE_GPU_CROSSOVER_ROWS = uint64_t(1) << 12;

// What travels with one tree build: the backend and, for Auto, the GPU crossover in rows.
struct MerkleOptions {
  Backend backend = Backend::Auto;
  uint64_t gpu_crossover = MERKLE_GPU_CROSSOVER_ROWS;
};

struct MerkleOpening {
  std::vector<BabyBear> row;     // the opened matrix row (base-field elements)
  std::vector<Digest> siblings;  // log2(rows) digests, leaf level first
};

class MerkleTree {
 public:
  // rows must be a power of two >= 1, cols >= 1 and matrix.size() == rows * cols (row-major);
  // Error(InvalidArgument) otherwise. The tree keeps a copy of the matrix to answer openings.
  static MerkleTree build(std::span<const BabyBear> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                          Backend backend = Backend::Auto);
  // Same, taking ownership of the matrix instead of copying it.
  static MerkleTree build(std::vector<BabyBear>&& matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                          Backend backend = Backend::Auto);
  // Extension-field matrix (rows x cols elements of BabyBear4), committed as Plonky3's ExtensionMmcs
  // does: as the rows x 4*cols base matrix [e0.c0, e0.c1, e0.c2, e0.c3, e1.c0, ...]. The resulting
  // tree is that base tree: cols() is 4*cols and openings hold base elements.
  static MerkleTree build(std::span<const BabyBear4> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                          Backend backend = Backend::Auto);
  // The same three with the per-call options.
  static MerkleTree build(std::span<const BabyBear> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                          const MerkleOptions& options);
  static MerkleTree build(std::vector<BabyBear>&& matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                          const MerkleOptions& options);
  static MerkleTree build(std::span<const BabyBear4> matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                          const MerkleOptions& options);

  const Digest& root() const { return nodes_.back(); }
  // Error(InvalidArgument) if index >= rows().
  MerkleOpening open(size_t index) const;

  size_t rows() const { return rows_; }
  size_t cols() const { return cols_; }
  unsigned log_rows() const { return log_rows_; }
  std::span<const BabyBear> matrix() const { return matrix_; }
  // 2*rows - 1 digests: nodes[0..rows) are the leaf digests, then each level up; the root is
  // nodes[2*rows - 2] (the layout of zkgpu::cuda::merkle_build_host).
  std::span<const Digest> nodes() const { return nodes_; }

 private:
  MerkleTree(std::vector<BabyBear>&& matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
             const MerkleOptions& options);

  std::vector<BabyBear> matrix_;
  std::vector<Digest> nodes_;
  size_t rows_ = 0, cols_ = 0;
  unsigned log_rows_ = 0;
};

// Accepts iff index < rows, rows is a power of two, opening.siblings.size() == log2(rows),
// opening.row.size() == cols, every element is a valid word (< p), and the recomputed root equals
// root. The length checks are stricter than Plonky3 090b's; honest openings always pass them.
[[nodiscard]] bool merkle_verify(const Digest& root, size_t rows, size_t cols, size_t index,
                                 const MerkleOpening& opening, const Poseidon2Params<16>& p);

// One opening to check against a commitment, for merkle_verify_batch (pointers, not copies: a
// verifier checks the openings a parsed proof holds).
struct MerkleCheck {
  const Digest* root = nullptr;
  size_t rows = 0, cols = 0, index = 0;
  const MerkleOpening* opening = nullptr;
};

// merkle_verify of every check (1 accepted, 0 rejected, null pointers rejected), with the leaves
// and each tree level hashed as one batch over all checks: the SIMD, multi-threaded Poseidon2 of
// the CPU backend instead of one scalar permutation at a time.
[[nodiscard]] std::vector<uint8_t> merkle_verify_batch(std::span<const MerkleCheck> checks,
                                                       const Poseidon2Params<16>& p);

// The tree's digests of a rows x cols matrix already in GPU memory (Montgomery words, row-major;
// rows a power of two, cols >= 1) into d_nodes (2*rows - 1 digests in the layout of
// MerkleTree::nodes(): leaves first, the root last), enqueued on the caller's stream without
// waiting (see ntt_device for the rules on device buffers). Error(Unavailable) without a usable GPU.
void merkle_build_device(const BabyBear* d_matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p,
                         Digest* d_nodes, GpuStream stream);

}  // namespace zkgpu
