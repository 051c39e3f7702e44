// ML-KEM (FIPS 203) batches (zkgpu/mlkem.hpp) over (n, size) uint8 arrays: items packed back to
// back, outputs allocated by the Python layer, a per-item status where an input can be rejected.
#include <nanobind/stl/optional.h>

#include <string>

#include "common.hpp"
#include "pq.hpp"
#include "zkgpu/mlkem.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {

MlKemSet set_arg(std::string_view s) {
  if (const auto k = parse_mlkem_set(s)) return *k;
  throw_invalid("ML-KEM parameter set \"" + std::string(s) + "\" is not one of 512, 768, 1024");
}

std::span<PqStatus> status_span(const U8Out& a) { return {reinterpret_cast<PqStatus*>(a.data()), a.size()}; }
static_assert(sizeof(PqStatus) == 1);

}  // namespace

void bind_mlkem(nb::module_& m) {
  m.def("mlkem_sizes", [](std::string_view set) {
    const MlKemSizes s = mlkem_sizes(set_arg(set));
    nb::dict d;
    d["encapsulation_key"] = s.ek;
    d["decapsulation_key"] = s.dk;
    d["ciphertext"] = s.ct;
    d["seed"] = MlKemSizes::seed;
    d["message"] = MlKemSizes::msg;
    d["shared_key"] = MlKemSizes::key;
    return d;
  });
  def_keygen<MlKemSet>(
      m, "mlkem_keygen_into", &set_arg,
      static_cast<void (*)(MlKemSet, std::span<const uint8_t>, std::span<uint8_t>, std::span<uint8_t>, Backend)>(
          &mlkem_keygen_batch));
  m.def(
      "mlkem_encaps_into",
      [](std::string_view set, U8In ek, std::optional<U8In> msg, U8Out ct, U8Out key, U8Out status,
         std::string_view backend) {
        const MlKemSet k = set_arg(set);
        const Backend b = backend_arg(backend);
        nb::gil_scoped_release unlocked;
        if (msg)
          mlkem_encaps_batch(k, span_of(ek), span_of(*msg), span_of(ct), span_of(key), status_span(status), b);
        else
          mlkem_encaps_random_batch(k, span_of(ek), span_of(ct), span_of(key), status_span(status), b);
      },
      nb::arg("set"), nb::arg("ek").noconvert(), nb::arg("m").noconvert().none(), nb::arg("ct").noconvert(),
      nb::arg("key").noconvert(), nb::arg("status").noconvert(), nb::arg("backend"));
  m.def(
      "mlkem_decaps_into",
      [](std::string_view set, U8In dk, U8In ct, U8Out key, U8Out status, std::string_view backend) {
        const MlKemSet k = set_arg(set);
        const Backend b = backend_arg(backend);
        nb::gil_scoped_release unlocked;
        mlkem_decaps_batch(k, span_of(dk), span_of(ct), span_of(key), status_span(status), b);
      },
      nb::arg("set"), nb::arg("dk").noconvert(), nb::arg("ct").noconvert(), nb::arg("key").noconvert(),
      nb::arg("status").noconvert(), nb::arg("backend"));
}

}  // namespace zkgpu::python
