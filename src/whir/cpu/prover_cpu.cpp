// The CPU backend of the WHIR prover: the tables in host vectors, the loops of poly.cpp (OpenMP),
// the CPU NTT and Merkle builder. The reference the GPU backend must match byte for byte.
#include <optional>
#include <string>

#include "whir/poly.hpp"
#include "whir/prover_backend.hpp"
#include "whir/transcript.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::whir::detail {
namespace {

using poly::EF;

// Reshape the 2^m table to 2^k columns (row j, column c holds T[c 2^(m-k) + j]), zero-pad to
// 2^log_height rows and evaluate each column over the subgroup of that order (spec §3).
template <class T>
std::vector<T> encode(std::span<const T> table, unsigned m, unsigned k, unsigned log_height) {
  const size_t cols = size_t(1) << k, rows = size_t(1) << (m - k), height = size_t(1) << log_height;
  std::vector<T> mat(height * cols);  // zero-initialised: BabyBear{0} is zero
#pragma omp parallel for schedule(static) if (rows * cols >= (size_t(1) << 14))
  for (size_t j = 0; j < rows; ++j)
    for (size_t c = 0; c < cols; ++c) mat[j * cols + c] = table[c * rows + j];
  ntt(std::span<T>(mat), log_height, cols, NttDirection::Forward, BabyBear::one(), Backend::Cpu);
  return mat;
}

unsigned log2_exact(size_t n) {
  unsigned l = 0;
  while ((size_t(1) << l) < n) ++l;
  return l;
}

class CpuBackend final : public ProverBackend {
 public:
  explicit CpuBackend(std::span<const BabyBear> evals)
      : base_(evals), w_(evals.size(), EF::zero()), m_(log2_exact(evals.size())) {}

  Digest commit(unsigned k, unsigned log_height) override {
    if (k > m_ || log_height < m_ - k)
      throw_invalid("WHIR CPU backend: cannot commit 2^" + std::to_string(m_) + " values as 2^" + std::to_string(k) +
                    " columns of 2^" + std::to_string(log_height) + " rows");
    const auto& p2 = whir_poseidon2();
    const size_t cols = size_t(1) << k, rows = size_t(1) << log_height;
    std::optional<MerkleTree> tree;
    if (is_base()) {
      tree.emplace(MerkleTree::build(encode<BabyBear>(base_, m_, k, log_height), rows, cols, p2, Backend::Cpu));
    } else {
      const std::vector<EF> enc = encode<EF>(std::span<const EF>(t_), m_, k, log_height);
      tree.emplace(MerkleTree::build(std::span<const EF>(enc), rows, cols, p2, Backend::Cpu));
    }
    older_ = std::move(newest_);
    newest_ = std::move(tree);
    ++n_commits_;
    return newest_->root();
  }

  std::vector<MerkleOpening> open(size_t tree, std::span<const size_t> indices) override {
    const MerkleTree* t = nullptr;
    if (tree + 1 == n_commits_)
      t = &*newest_;
    else if (tree + 2 == n_commits_ && older_)
      t = &*older_;
    if (!t)
      throw_invalid("WHIR CPU backend: commitment " + std::to_string(tree) + " is not held (" +
                    std::to_string(n_commits_) + " made)");
    std::vector<MerkleOpening> out;
    out.reserve(indices.size());
    for (size_t q : indices) out.push_back(t->open(q));
    return out;
  }

  std::pair<EF, EF> sumcheck_coeffs() override {
    return is_base() ? poly::sumcheck_coeffs(base_, w_) : poly::sumcheck_coeffs(std::span<const EF>(t_), w_);
  }

  void bind(const EF& r) override {
    if (m_ == 0) throw_invalid("WHIR CPU backend: no variable left to bind");
    if (is_base())
      t_ = poly::fold(base_, r);
    else
      poly::fold_in_place(t_, r);
    poly::fold_in_place(w_, r);
    ext_ = true;
    --m_;
  }

  void add_weights(std::span<const std::vector<EF>> eq_points, std::span<const EF> eq_scales,
                   std::span<const BabyBear> zs, std::span<const EF> select_scales) override {
    poly::add_eq_weights(w_, eq_points, eq_scales);
    if (!zs.empty()) poly::add_select_weights(w_, zs, select_scales);
  }

  EF evaluate(std::span<const EF> point) override {
    return is_base() ? poly::evaluate(base_, point) : poly::evaluate(std::span<const EF>(t_), point);
  }

  std::vector<EF> table() override {
    if (is_base()) throw_invalid("WHIR CPU backend: the table is still the base-field witness");
    return t_;
  }
  std::vector<EF> weights() override { return w_; }
  std::optional<uint32_t> grind(const PowInput&) override { return std::nullopt; }

 private:
  bool is_base() const { return !ext_; }

  std::span<const BabyBear> base_;
  std::vector<EF> t_;  // T once x_0 has been bound
  std::vector<EF> w_;
  unsigned m_ = 0;
  bool ext_ = false;  // x_0 has been bound at least once: T lives in t_
  std::optional<MerkleTree> newest_, older_;
  size_t n_commits_ = 0;
};

}  // namespace

std::unique_ptr<ProverBackend> make_cpu_backend(std::span<const BabyBear> evals) {
  return std::make_unique<CpuBackend>(evals);
}

}  // namespace zkgpu::whir::detail
