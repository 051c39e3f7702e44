// The tables of the WHIR prover and the operations on them, behind one interface so that the
// transcript logic (prover.cpp) is written once and runs on the CPU (prover_cpu.cpp) or on the GPU
// (cuda/backend.cu). A backend owns the current multilinear table T (2^m entries: the base-field
// witness until the first bind, extension-field after), the combined weight table W (2^m EF), the
// committed codewords and their Merkle trees. Only transcript values cross this interface.
//
// Conventions are those of spec §1: x_0 is the MSB of a table index, a bind fixes x_0.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/hash/pow.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir::detail {

// What a backend must hold at once, so it can check memory before starting.
struct ProverShape {
  unsigned num_variables = 0;
  // One entry per commitment, in order (the initial one first): the table's variables m, the
  // folding factor k (2^k columns) and log2 of the codeword's rows.
  struct Commit {
    unsigned m = 0, k = 0, log_height = 0;
    bool ext = false;  // extension-field table (every commitment but the initial one)
  };
  std::vector<Commit> commits;
};

class ProverBackend {
 public:
  using EF = BabyBear4;
  virtual ~ProverBackend() = default;

  // Commits to T: reshaped to 2^k columns (row j, column c holds T[c 2^(m-k) + j]), zero-padded to
  // 2^log_height rows, each column evaluated over the subgroup of that order (spec §3), then a
  // Merkle tree whose leaf i is row i (an EF row as its 4 * 2^k base words). Commitments are
  // numbered 0, 1, ... in call order; returns the root.
  virtual Digest commit(unsigned k, unsigned log_height) = 0;
  // Rows and authentication paths of commitment `tree` at the given row indices. Backends keep
  // the two most recent commitments; asking for an older one is a caller bug (Error).
  virtual std::vector<MerkleOpening> open(size_t tree, std::span<const size_t> indices) = 0;

  // (h(0), h(2)) of the sumcheck round binding x_0 of sum_x W(x) T(x).
  virtual std::pair<EF, EF> sumcheck_coeffs() = 0;
  // Binds x_0 of T and W to r; both halve.
  virtual void bind(const EF& r) = 0;
  // W[j] += sum_p eq_scales[p] * eq(eq_points[p], j) + sum_l select_scales[l] * zs[l]^j; every
  // eq point has m coordinates.
  virtual void add_weights(std::span<const std::vector<EF>> eq_points, std::span<const EF> eq_scales,
                           std::span<const BabyBear> zs, std::span<const EF> select_scales) = 0;
  // The multilinear extension of T at `point` (m coordinates).
  virtual EF evaluate(std::span<const EF> point) = 0;
  // T and W as host vectors (the prover asks only once they are small). T must be EF by then.
  virtual std::vector<EF> table() = 0;
  virtual std::vector<EF> weights() = 0;

  // The smallest proof-of-work witness for `in` (canonical), when this backend searches it itself;
  // nullopt leaves the search to the CPU. Either way the witness is the same.
  virtual std::optional<uint32_t> grind(const PowInput& in) = 0;
};

// The shape of a prove() run for cfg (the commitments it will make).
ProverShape prover_shape(const WhirConfig& cfg);

// The prover's transcript logic over any backend (prove() picks the CPU or the GPU one). Tests
// drive it with dishonest backends to check that the verifier catches them.
Proof prove_with_backend(const WhirConfig& cfg, ProverBackend& be, std::span<const Claim> claims);

// CPU backend over the caller's witness (not copied; it must outlive the backend).
std::unique_ptr<ProverBackend> make_cpu_backend(std::span<const BabyBear> evals);

}  // namespace zkgpu::whir::detail
