// Shared by the files of the nanobind module zkgpu._core: argument parsing (backends, names),
// the array types the module takes and the BabyBear conversions at the Python edge. The Python
// layer (bindings/python/zkgpu) checks dtypes and shapes first and hands over C-contiguous arrays,
// so these functions take exactly the layout they read; anything else is a bug of that layer.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu.h"
#include "zkgpu/backend.hpp"
#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/params.hpp"

namespace zkgpu::python {

namespace nb = nanobind;

// Host arrays, C-contiguous, of any shape: the Python layer has fixed the shape already.
using U32In = nb::ndarray<const uint32_t, nb::c_contig, nb::device::cpu>;
using U32Out = nb::ndarray<uint32_t, nb::c_contig, nb::device::cpu>;
using U8In = nb::ndarray<const uint8_t, nb::c_contig, nb::device::cpu>;
using U8Out = nb::ndarray<uint8_t, nb::c_contig, nb::device::cpu>;

// BabyBear is one uint32_t holding the Montgomery word, so a buffer of words is a buffer of
// BabyBear once converted (the library's own layout).
static_assert(sizeof(BabyBear) == sizeof(uint32_t) && alignof(BabyBear) == alignof(uint32_t));
static_assert(sizeof(BabyBear4) == 4 * sizeof(uint32_t) && sizeof(Digest) == 8 * sizeof(uint32_t));

Backend backend_arg(std::string_view name);  // "auto" | "cpu" | "cuda"
Poseidon2Constants constants_arg(std::string_view name);
Poseidon2Params<16> merkle_params(std::string_view constants);

template <class T>
std::span<const T> span_of(const nb::ndarray<const T, nb::c_contig, nb::device::cpu>& a) {
  return {a.data(), a.size()};
}
template <class T>
std::span<T> span_of(const nb::ndarray<T, nb::c_contig, nb::device::cpu>& a) {
  return {a.data(), a.size()};
}

// Canonical values in -> BabyBear out (out may be the same memory as in). Error(InvalidArgument)
// naming what[i] for the first value >= p, before anything is written.
void load_canonical(std::span<const uint32_t> in, BabyBear* out, const char* what);
std::vector<BabyBear> load_canonical(std::span<const uint32_t> in, const char* what);
std::vector<BabyBear4> load_canonical_ext(std::span<const uint32_t> in, const char* what);
// One scalar argument (a shift, say), checked < p.
BabyBear field_arg(uint64_t value, const char* what);
// BabyBear in -> canonical values out (in place when the memory is the same).
void store_canonical(std::span<const BabyBear> in, uint32_t* out);
nb::ndarray<nb::numpy, uint32_t> to_numpy(std::vector<uint32_t>&& words, std::initializer_list<size_t> shape);
nb::ndarray<nb::numpy, uint32_t> digest_to_numpy(const Digest& d);
nb::ndarray<nb::numpy, uint8_t> bytes_to_numpy(std::vector<uint8_t>&& bytes, std::initializer_list<size_t> shape);

// A batch of byte strings from Python, for the calls whose items have their own lengths: a 2-D
// C-contiguous uint8 array (item i is row i) or a sequence of bytes-like objects (each held, by a
// reference and for a non-bytes item a buffer view, until this object dies). Built with the GIL held; the views stay
// valid without it.
class ByteItems {
 public:
  ByteItems(nb::handle items, const char* what);
  ~ByteItems();
  ByteItems(const ByteItems&) = delete;
  ByteItems& operator=(const ByteItems&) = delete;

  size_t size() const { return n_; }
  // An array's items are its rows: width() bytes each, back to back from data().
  bool is_array() const { return base_ != nullptr; }
  const uint8_t* data() const { return base_; }
  size_t width() const { return width_; }
  std::span<const uint8_t> operator[](size_t i) const {
    if (base_) return {base_ + i * width_, width_};
    if (!views_.empty()) return views_[i];
    return bytes_view(refs_[i]);  // all items are bytes: immutable, and held, so no GIL is needed
  }

 private:
  void release();  // drops what is held (with the GIL)
  static std::span<const uint8_t> bytes_view(PyObject* b) {
    return {reinterpret_cast<const uint8_t*>(PyBytes_AS_STRING(b)), size_t(PyBytes_GET_SIZE(b))};
  }
  // An array's rows are computed (no per-item vector at 2^20 items); a sequence's are held.
  const uint8_t* base_ = nullptr;
  size_t width_ = 0, n_ = 0;
  // Per-item views, built only once an item is not bytes (a list of bytes is read through refs_).
  std::vector<std::span<const uint8_t>> views_;
  // What the views need alive: one reference per item, and the buffer views of the items that are
  // not bytes. Why so lean: every per-item vector is fresh pages at each call (a Py_buffer per item
  // of a 2^20 list faulted in 84 MB, about half of that batch's time on the H200's GPU path).
  std::vector<PyObject*> refs_;
  std::vector<Py_buffer> buffers_;
  nb::object keep_;  // the array, when the batch is one
};

// A failed call of the C ABI (include/zkgpu.h; WHIR and MSM go through it) as the zkgpu::Error
// the C++ API would have thrown, with zkgpu_last_error()'s message.
void check_capi(int status);
// backend_arg's answer as the C ABI's enum.
zkgpu_backend capi_backend(std::string_view name);

// Registers every binding of one capability (one file each).
void bind_errors(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_ntt(nb::module_& m);
void bind_poseidon2(nb::module_& m);
void bind_merkle(nb::module_& m);
void bind_whir(nb::module_& m);
void bind_ed25519(nb::module_& m);
void bind_msm(nb::module_& m);
void bind_mlkem(nb::module_& m);
void bind_mldsa(nb::module_& m);
void bind_device(nb::module_& m);
void bind_timing(nb::module_& m);

}  // namespace zkgpu::python
