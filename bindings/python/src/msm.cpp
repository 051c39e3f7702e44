// BLS12-377 G1 multi-scalar multiplication through the C ABI's MSM calls (include/zkgpu.h),
// which hold the arkworks point decoding, the scalar checks and the bases handle whose GPU copy
// is made once, under a lock, and kept for later MSMs. Points arrive as a (n, 48) or (n, 96)
// uint8 array (compressed or uncompressed), scalars as (n, 32) little-endian bytes.
#include <memory>
#include <string>

#include "common.hpp"
#include "zkgpu.h"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {

zkgpu_g1_encoding encoding_of(size_t bytes, const char* what) {
  if (bytes == ZKGPU_G1_COMPRESSED_BYTES) return ZKGPU_G1_COMPRESSED;
  if (bytes == ZKGPU_G1_UNCOMPRESSED_BYTES) return ZKGPU_G1_UNCOMPRESSED;
  throw_invalid(std::string(what) + ": a point is 48 bytes (compressed) or 96 (uncompressed), not " +
                std::to_string(bytes));
}

zkgpu_g1_encoding out_encoding(bool compressed) { return compressed ? ZKGPU_G1_COMPRESSED : ZKGPU_G1_UNCOMPRESSED; }

nb::bytes point_bytes(const uint8_t* p, bool compressed) {
  return nb::bytes(reinterpret_cast<const char*>(p),
                   compressed ? ZKGPU_G1_COMPRESSED_BYTES : ZKGPU_G1_UNCOMPRESSED_BYTES);
}

void require_rows(const U8In& a, size_t width, const char* what) {
  if (a.ndim() != 2 || a.shape(1) != width)
    throw_invalid(std::string(what) + " must be an (n, " + std::to_string(width) + ") uint8 array");
}

struct BasesFree {
  void operator()(zkgpu_msm_bases* b) const { zkgpu_msm_bases_free(b); }
};

struct PyMsmBases {
  std::unique_ptr<zkgpu_msm_bases, BasesFree> handle;
  size_t n = 0;
};

PyMsmBases make_bases(U8In points) {
  if (points.ndim() != 2) throw_invalid("points must be an (n, 48) or (n, 96) uint8 array");
  const zkgpu_g1_encoding e = encoding_of(points.shape(1), "points");
  PyMsmBases b;
  b.n = points.shape(0);
  nb::gil_scoped_release unlocked;
  zkgpu_msm_bases* raw = nullptr;
  check_capi(zkgpu_msm_bases_create(points.data(), b.n, e, &raw));
  b.handle.reset(raw);
  return b;
}

nb::bytes msm(U8In points, U8In scalars, bool compressed, std::string_view backend) {
  if (points.ndim() != 2) throw_invalid("points must be an (n, 48) or (n, 96) uint8 array");
  const zkgpu_g1_encoding e = encoding_of(points.shape(1), "points");
  require_rows(scalars, ZKGPU_SCALAR_BYTES, "scalars");
  if (scalars.shape(0) != points.shape(0))
    throw_invalid(std::to_string(points.shape(0)) + " points and " + std::to_string(scalars.shape(0)) + " scalars");
  const zkgpu_backend b = capi_backend(backend);
  uint8_t out[ZKGPU_G1_UNCOMPRESSED_BYTES];
  {
    nb::gil_scoped_release unlocked;
    // The sum is computed once; the encoding asked for is written from the decoded points'.
    if (e == out_encoding(compressed)) {
      check_capi(zkgpu_msm(points.data(), scalars.data(), points.shape(0), e, b, out));
    } else {
      PyMsmBases tmp;
      zkgpu_msm_bases* raw = nullptr;
      check_capi(zkgpu_msm_bases_create(points.data(), points.shape(0), e, &raw));
      tmp.handle.reset(raw);
      check_capi(zkgpu_msm_with_bases(raw, scalars.data(), points.shape(0), out_encoding(compressed), b, out));
    }
  }
  return point_bytes(out, compressed);
}

}  // namespace

void bind_msm(nb::module_& m) {
  nb::class_<PyMsmBases>(m, "MsmBases")
      .def_prop_ro("size", [](const PyMsmBases& b) { return b.n; })
      .def(
          "msm",
          [](const PyMsmBases& b, U8In scalars, bool compressed, std::string_view backend) {
            require_rows(scalars, ZKGPU_SCALAR_BYTES, "scalars");
            const zkgpu_backend be = capi_backend(backend);
            uint8_t out[ZKGPU_G1_UNCOMPRESSED_BYTES];
            {
              nb::gil_scoped_release unlocked;
              check_capi(zkgpu_msm_with_bases(b.handle.get(), scalars.data(), scalars.shape(0),
                                              out_encoding(compressed), be, out));
            }
            return point_bytes(out, compressed);
          },
          nb::arg("scalars").noconvert(), nb::arg("compressed"), nb::arg("backend"))
      .def("export", [](const PyMsmBases& b) {
        std::vector<uint8_t> te(b.n * ZKGPU_MSM_PRECOMPUTED_BYTES);
        check_capi(zkgpu_msm_bases_export(b.handle.get(), te.data(), te.size()));
        return bytes_to_numpy(std::move(te), {b.n, size_t(ZKGPU_MSM_PRECOMPUTED_BYTES)});
      });
  m.def("msm_bases", &make_bases, nb::arg("points").noconvert());
  m.def("msm", &msm, nb::arg("points").noconvert(), nb::arg("scalars").noconvert(), nb::arg("compressed"),
        nb::arg("backend"));
}

}  // namespace zkgpu::python
