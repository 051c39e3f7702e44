// Merkle commitments (zkgpu/merkle.hpp): a tree object that answers openings, and the check of
// an opening against a root. Digests and rows are canonical uint32 arrays.
#include <nanobind/stl/string.h>

#include <string>

#include "common.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {

struct PyMerkleTree {
  MerkleTree tree;
  std::string constants;
};

PyMerkleTree build(U32In matrix, size_t rows, size_t cols, std::string_view constants, std::string_view backend) {
  const Backend b = backend_arg(backend);
  const Poseidon2Params<16> p = merkle_params(constants);
  nb::gil_scoped_release unlocked;
  std::vector<BabyBear> m = load_canonical(span_of(matrix), "matrix");
  return PyMerkleTree{MerkleTree::build(std::move(m), rows, cols, p, b), std::string(constants)};
}

Digest digest_arg(U32In words, const char* what) {
  if (words.size() != size_t(Digest::ELEMS)) throw_invalid(std::string(what) + " must be 8 words");
  Digest d;
  load_canonical(span_of(words), d.e, what);
  return d;
}

bool verify(U32In root, size_t rows, size_t cols, size_t index, U32In row, U32In siblings, std::string_view constants) {
  const Poseidon2Params<16> p = merkle_params(constants);
  const Digest r = digest_arg(root, "root");
  if (siblings.size() % size_t(Digest::ELEMS) != 0) throw_invalid("siblings must be (depth, 8) words");
  // A word >= p in an opening is a rejection, as merkle_verify makes it, not an error: the
  // opening is the prover's data.
  bool words_ok = true;
  for (size_t i = 0; i < row.size(); ++i) words_ok &= row.data()[i] < BabyBear::P;
  for (size_t i = 0; i < siblings.size(); ++i) words_ok &= siblings.data()[i] < BabyBear::P;
  if (!words_ok) return false;
  MerkleOpening o;
  o.row.resize(row.size());
  o.siblings.resize(siblings.size() / Digest::ELEMS);
  for (size_t i = 0; i < row.size(); ++i) o.row[i] = BabyBear::from_canonical(row.data()[i]);
  for (size_t i = 0; i < o.siblings.size(); ++i)
    for (int j = 0; j < Digest::ELEMS; ++j)
      o.siblings[i].e[j] = BabyBear::from_canonical(siblings.data()[i * Digest::ELEMS + size_t(j)]);
  nb::gil_scoped_release unlocked;
  return merkle_verify(r, rows, cols, index, o, p);
}

}  // namespace

void bind_merkle(nb::module_& m) {
  nb::class_<PyMerkleTree>(m, "MerkleTree")
      .def_prop_ro("rows", [](const PyMerkleTree& t) { return t.tree.rows(); })
      .def_prop_ro("cols", [](const PyMerkleTree& t) { return t.tree.cols(); })
      .def_prop_ro("depth", [](const PyMerkleTree& t) { return t.tree.log_rows(); })
      .def_prop_ro("constants", [](const PyMerkleTree& t) { return t.constants; })
      .def("root", [](const PyMerkleTree& t) { return digest_to_numpy(t.tree.root()); })
      .def("nodes",
           [](const PyMerkleTree& t) {
             const auto nodes = t.tree.nodes();
             std::vector<uint32_t> w(nodes.size() * Digest::ELEMS);
             store_canonical({reinterpret_cast<const BabyBear*>(nodes.data()), w.size()}, w.data());
             return to_numpy(std::move(w), {nodes.size(), size_t(Digest::ELEMS)});
           })
      .def("open", [](const PyMerkleTree& t, size_t index) {
        const MerkleOpening o = t.tree.open(index);
        std::vector<uint32_t> row(o.row.size()), sib(o.siblings.size() * Digest::ELEMS);
        store_canonical(o.row, row.data());
        store_canonical({reinterpret_cast<const BabyBear*>(o.siblings.data()), sib.size()}, sib.data());
        return nb::make_tuple(to_numpy(std::move(row), {o.row.size()}),
                              to_numpy(std::move(sib), {o.siblings.size(), size_t(Digest::ELEMS)}));
      });
  m.def("merkle_build", &build, nb::arg("matrix").noconvert(), nb::arg("rows"), nb::arg("cols"), nb::arg("constants"),
        nb::arg("backend"));
  m.def("merkle_verify", &verify, nb::arg("root").noconvert(), nb::arg("rows"), nb::arg("cols"), nb::arg("index"),
        nb::arg("row").noconvert(), nb::arg("siblings").noconvert(), nb::arg("constants"));
}

}  // namespace zkgpu::python
