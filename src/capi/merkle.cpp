// The C ABI's Merkle commitment (include/zkgpu.h), over include/zkgpu/merkle.hpp: the tree is an
// opaque handle owning a zkgpu::MerkleTree and the representation its digests are returned in.
#include <bit>
#include <string>
#include <utility>

#include "capi/babybear.hpp"
#include "capi/capi.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/poseidon2.hpp"

struct zkgpu_merkle_tree {
  zkgpu::MerkleTree tree;
  zkgpu::capi::Repr repr;
};

using namespace zkgpu;
using namespace zkgpu::capi;

namespace {

// The caller's words in the tree's representation, checked against the capacity it gave.
void require_capacity(size_t got, size_t want, const char* what) {
  if (got != want)
    throw_invalid(std::string(what) + " is " + std::to_string(got) + " words, the tree needs " + std::to_string(want));
}

}  // namespace

extern "C" {

zkgpu_status zkgpu_merkle_build(const uint32_t* matrix, size_t rows, size_t cols, const char* constants,
                                zkgpu_babybear_repr repr, zkgpu_backend backend, zkgpu_merkle_tree** out_tree) {
  return guarded([&] {
    require(out_tree, "out_tree");
    *out_tree = nullptr;
    const Backend b = backend_of(backend);
    const Repr r = repr_of(repr);
    const Poseidon2Params<16> p = poseidon2_params<16>(constants_of(constants));
    const size_t elems = checked_mul(rows, cols, "rows * cols");
    require(matrix, elems, "matrix");
    // The tree keeps its own copy: the converted one when there is one, else a copy of the view.
    FieldInput input(matrix, elems, r, "matrix");
    MerkleTree tree = MerkleTree::build(std::move(input).take(), rows, cols, p, b);
    *out_tree = new zkgpu_merkle_tree{std::move(tree), r};
  });
}

void zkgpu_merkle_free(zkgpu_merkle_tree* tree) { delete tree; }

zkgpu_status zkgpu_merkle_shape(const zkgpu_merkle_tree* tree, size_t* rows, size_t* cols, size_t* depth) {
  return guarded([&] {
    require(tree, "tree");
    if (rows) *rows = tree->tree.rows();
    if (cols) *cols = tree->tree.cols();
    if (depth) *depth = tree->tree.log_rows();
  });
}

zkgpu_status zkgpu_merkle_root(const zkgpu_merkle_tree* tree, uint32_t* root) {
  return guarded([&] {
    require(tree, "tree");
    require(root, "root");
    write_digest(tree->tree.root(), root, tree->repr);
  });
}

zkgpu_status zkgpu_merkle_nodes(const zkgpu_merkle_tree* tree, uint32_t* nodes, size_t nodes_words) {
  return guarded([&] {
    require(tree, "tree");
    const std::span<const Digest> all = tree->tree.nodes();
    require_capacity(nodes_words, all.size() * Digest::ELEMS, "nodes_words");
    require(nodes, nodes_words, "nodes");
    for (size_t i = 0; i < all.size(); ++i) write_digest(all[i], nodes + i * Digest::ELEMS, tree->repr);
  });
}

zkgpu_status zkgpu_merkle_open(const zkgpu_merkle_tree* tree, size_t index, uint32_t* row, size_t row_len,
                               uint32_t* siblings, size_t siblings_words) {
  return guarded([&] {
    require(tree, "tree");
    const MerkleTree& t = tree->tree;
    if (index >= t.rows())
      throw_invalid("index " + std::to_string(index) + " is out of range: the tree has " + std::to_string(t.rows()) +
                    " rows");
    require_capacity(row_len, t.cols(), "row_len");
    require_capacity(siblings_words, size_t{t.log_rows()} * Digest::ELEMS, "siblings_words");
    require(row, row_len, "row");
    require(siblings, siblings_words, "siblings");
    require_disjoint(row, row_len * 4, "row", siblings, siblings_words * 4, "siblings");
    const MerkleOpening o = t.open(index);
    write_words(o.row, row, tree->repr);
    for (size_t i = 0; i < o.siblings.size(); ++i)
      write_digest(o.siblings[i], siblings + i * Digest::ELEMS, tree->repr);
  });
}

zkgpu_status zkgpu_merkle_verify(const uint32_t* root, size_t rows, size_t cols, size_t index, const uint32_t* row,
                                 const uint32_t* siblings, size_t depth, const char* constants,
                                 zkgpu_babybear_repr repr, uint8_t* accepted) {
  return guarded([&] {
    require(accepted, "accepted");
    require(root, "root");
    const Repr r = repr_of(repr);
    const Poseidon2Params<16> p = poseidon2_params<16>(constants_of(constants));
    const Digest want = read_digest(root, r, "root");  // the verifier's own: a bad word is an error
    // The shape must be that of a real tree before the opening's words are read (their count
    // follows from it): anything else is a rejection, as merkle_verify's.
    const bool shape_ok =
        rows != 0 && std::has_single_bit(rows) && depth == size_t(std::countr_zero(rows)) && index < rows && cols != 0;
    if (shape_ok) {
      require(row, cols, "row");
      require(siblings, depth, "siblings");
    }
    *accepted = 0;
    if (!shape_ok) return;
    // The opening is untrusted: a word >= p rejects it.
    const auto canonical_words = [](const uint32_t* w, size_t n) {
      for (size_t i = 0; i < n; ++i)
        if (w[i] >= BabyBear::P) return false;
      return true;
    };
    if (!canonical_words(row, cols) || !canonical_words(siblings, depth * Digest::ELEMS)) return;
    MerkleOpening o;
    o.row.resize(cols);
    for (size_t i = 0; i < cols; ++i) o.row[i] = from_word(row[i], r);
    o.siblings.resize(depth);
    for (size_t i = 0; i < depth; ++i)
      for (int j = 0; j < Digest::ELEMS; ++j) o.siblings[i].e[j] = from_word(siblings[i * Digest::ELEMS + j], r);
    *accepted = merkle_verify(want, rows, cols, index, o, p) ? 1 : 0;
  });
}

zkgpu_status zkgpu_merkle_build_device(const uint32_t* d_matrix, size_t rows, size_t cols, const char* constants,
                                       uint32_t* d_nodes, void* stream) {
  return guarded([&] {
    const Poseidon2Params<16> p = poseidon2_params<16>(constants_of(constants));
    merkle_build_device(reinterpret_cast<const BabyBear*>(d_matrix), rows, cols, p, reinterpret_cast<Digest*>(d_nodes),
                        GpuStream{stream});
  });
}

}  // extern "C"
