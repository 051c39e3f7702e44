// Argument parsing and BabyBear conversions at the Python edge (common.hpp).
#include "common.hpp"

#include <cstring>
#include <utility>

#include "zkgpu.h"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

Backend backend_arg(std::string_view name) {
  if (const auto b = parse_backend(name)) return *b;
  throw_invalid("backend \"" + std::string(name) + "\" is not one of \"auto\", \"cpu\", \"cuda\"");
}

Poseidon2Constants constants_arg(std::string_view name) {
  Poseidon2Constants c{};
  if (!parse_poseidon2_constants(name, c))
    throw_invalid("constants \"" + std::string(name) + "\" is not one of \"plonky3\", \"whir\"");
  return c;
}

Poseidon2Params<16> merkle_params(std::string_view constants) { return poseidon2_params<16>(constants_arg(constants)); }

namespace {
[[noreturn]] void not_canonical(const char* what, size_t i, uint32_t v) {
  throw_invalid(std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(v) +
                " is not a canonical BabyBear value (must be < p = 2013265921)");
}
}  // namespace

// Whole arrays are converted on every call, so from this many words on the passes use the
// library's OpenMP threads (a serial pass would cost more than a multi-threaded transform).
constexpr size_t PARALLEL_WORDS = size_t(1) << 16;

void load_canonical(std::span<const uint32_t> in, BabyBear* out, const char* what) {
  // Checked in full before the first write: `out` may be the caller's own memory.
  const size_t n = in.size();
  size_t first_bad = n;
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (n >= PARALLEL_WORDS)
  for (size_t i = 0; i < n; ++i)
    if (in[i] >= BabyBear::P && i < first_bad) first_bad = i;
  if (first_bad < n) not_canonical(what, first_bad, in[first_bad]);
#pragma omp parallel for schedule(static) if (n >= PARALLEL_WORDS)
  for (size_t i = 0; i < n; ++i) out[i] = BabyBear::from_canonical(in[i]);
}

std::vector<BabyBear> load_canonical(std::span<const uint32_t> in, const char* what) {
  std::vector<BabyBear> out(in.size());
  load_canonical(in, out.data(), what);
  return out;
}

std::vector<BabyBear4> load_canonical_ext(std::span<const uint32_t> in, const char* what) {
  if (in.size() % 4 != 0) throw_invalid(std::string(what) + ": extension elements are 4 words each");
  std::vector<BabyBear4> out(in.size() / 4);
  load_canonical(in, reinterpret_cast<BabyBear*>(out.data()), what);
  return out;
}

BabyBear field_arg(uint64_t value, const char* what) {
  if (value >= BabyBear::P)
    throw_invalid(std::string(what) + " = " + std::to_string(value) +
                  " is not a canonical BabyBear value (must be < p = 2013265921)");
  return BabyBear::from_canonical(static_cast<uint32_t>(value));
}

void store_canonical(std::span<const BabyBear> in, uint32_t* out) {
  const size_t n = in.size();
#pragma omp parallel for schedule(static) if (n >= PARALLEL_WORDS)
  for (size_t i = 0; i < n; ++i) out[i] = in[i].canonical();
}

namespace {
template <class T>
nb::ndarray<nb::numpy, T> owned_numpy(std::vector<T>&& v, std::initializer_list<size_t> shape) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(heap->data(), shape, owner);
}
}  // namespace

nb::ndarray<nb::numpy, uint32_t> to_numpy(std::vector<uint32_t>&& words, std::initializer_list<size_t> shape) {
  return owned_numpy(std::move(words), shape);
}

nb::ndarray<nb::numpy, uint32_t> digest_to_numpy(const Digest& d) {
  std::vector<uint32_t> w(Digest::ELEMS);
  store_canonical(d.e, w.data());
  return to_numpy(std::move(w), {size_t(Digest::ELEMS)});
}

nb::ndarray<nb::numpy, uint8_t> bytes_to_numpy(std::vector<uint8_t>&& bytes, std::initializer_list<size_t> shape) {
  return owned_numpy(std::move(bytes), shape);
}

ByteItems::ByteItems(nb::handle items, const char* what) {
  if (nb::ndarray_check(items)) {
    const auto a = nb::cast<U8In>(items, /*convert=*/false);
    if (a.ndim() != 2) throw_invalid(std::string(what) + ": an array of items must be 2-D (n, item bytes)");
    keep_ = nb::borrow(items);
    n_ = a.shape(0);
    width_ = a.shape(1);
    static const uint8_t empty = 0;  // rows of width 0 still need a base to be told from a sequence
    base_ = a.size() ? a.data() : &empty;
    return;
  }
  if (!PySequence_Check(items.ptr()) || PyBytes_Check(items.ptr()) || PyUnicode_Check(items.ptr()))
    throw_invalid(std::string(what) + ": expected a sequence of bytes-like objects or a 2-D uint8 array");
  const Py_ssize_t n = PySequence_Size(items.ptr());
  if (n < 0) throw nb::python_error();
  n_ = size_t(n);
  refs_.reserve(size_t(n));
  const bool is_list = PyList_Check(items.ptr());
  try {
    for (Py_ssize_t i = 0; i < n; ++i) {
      // A list's item without the generic call; a buffer request can run Python code that
      // shortens the list, hence the size check each time.
      if (is_list && i >= PyList_GET_SIZE(items.ptr()))
        throw_invalid(std::string(what) + ": the list changed size while its items were read");
      PyObject* item = is_list ? PyList_GET_ITEM(items.ptr(), i) : PySequence_GetItem(items.ptr(), i);
      if (item == nullptr) throw nb::python_error();
      if (is_list) Py_INCREF(item);
      refs_.push_back(item);
      if (PyBytes_Check(item)) {  // the common case, without a buffer request
        if (!views_.empty()) views_.push_back(bytes_view(item));
        continue;
      }
      if (views_.empty()) {  // the first item that is not bytes: the views of those before it
        views_.reserve(size_t(n));
        for (Py_ssize_t j = 0; j < i; ++j) views_.push_back(bytes_view(refs_[size_t(j)]));
      }
      Py_buffer view{};
      if (PyUnicode_Check(item) || PyObject_GetBuffer(item, &view, PyBUF_C_CONTIGUOUS) != 0) {
        PyErr_Clear();
        throw_invalid(std::string(what) + "[" + std::to_string(i) + "] is a " +
                      nb::type_name(nb::handle(item).type()).c_str() + ", not a bytes-like object");
      }
      buffers_.push_back(view);
      views_.push_back({static_cast<const uint8_t*>(view.buf), size_t(view.len)});
    }
  } catch (...) {
    release();  // a constructor that throws runs no destructor
    throw;
  }
}

ByteItems::~ByteItems() { release(); }

void ByteItems::release() {
  for (Py_buffer& b : buffers_) PyBuffer_Release(&b);
  for (PyObject* r : refs_) Py_DECREF(r);
  buffers_.clear();
  refs_.clear();
}

void check_capi(int status) {
  switch (status) {
    case ZKGPU_OK: return;
    case ZKGPU_INVALID_ARGUMENT: throw Error(ErrorCode::InvalidArgument, zkgpu_last_error());
    case ZKGPU_OUT_OF_MEMORY: throw Error(ErrorCode::OutOfMemory, zkgpu_last_error());
    case ZKGPU_UNAVAILABLE: throw Error(ErrorCode::Unavailable, zkgpu_last_error());
    case ZKGPU_CUDA_ERROR: throw Error(ErrorCode::CudaError, zkgpu_last_error());
    default: throw std::runtime_error(zkgpu_last_error());  // ZKGPU_INTERNAL: zkgpu.Internal
  }
}

zkgpu_backend capi_backend(std::string_view name) {
  switch (backend_arg(name)) {
    case Backend::Cpu: return ZKGPU_BACKEND_CPU;
    case Backend::Cuda: return ZKGPU_BACKEND_CUDA;
    case Backend::Auto: return ZKGPU_BACKEND_AUTO;
  }
  return ZKGPU_BACKEND_AUTO;
}

}  // namespace zkgpu::python
