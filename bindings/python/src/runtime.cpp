// The library's version, the machine it runs on and the GPU caches (zkgpu/backend.hpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "common.hpp"
#include "zkgpu/version.hpp"

namespace zkgpu::python {

void bind_runtime(nb::module_& m) {
  m.def("version", [] { return std::string(version()); });
  m.def("cuda_built", &cuda_built);
  m.def("cuda_usable", &cuda_usable);
  m.def("cuda_unavailable_reason", &cuda_unavailable_reason);
  m.def("gpu_info", []() -> nb::object {
    const auto g = gpu_info();
    if (!g) return nb::none();
    nb::dict d;
    d["device"] = g->device;
    d["name"] = g->name;
    d["compute_capability"] = nb::make_tuple(g->cc_major, g->cc_minor);
    d["sm_count"] = g->sm_count;
    d["total_memory"] = g->total_memory;
    d["free_memory"] = g->free_memory;
    d["driver_version"] = g->driver_version;
    d["runtime_version"] = g->runtime_version;
    return d;
  });
  m.def("cpu_features", [] {
    const CpuFeatures f = cpu_features();
    nb::dict d;
    d["model"] = f.model;
    d["threads"] = f.threads;
    d["avx2"] = f.avx2;
    d["avx512"] = f.avx512;
    d["simd_level"] = std::string(to_string(simd_level()));
    return d;
  });
  m.def("release_gpu_caches", [] {
    nb::gil_scoped_release unlocked;
    release_gpu_caches();
  });
  m.attr("P") = BabyBear::P;
}

}  // namespace zkgpu::python
