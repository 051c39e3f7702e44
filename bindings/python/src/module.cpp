// zkgpu._core: the nanobind module under the Python package zkgpu (bindings/python/zkgpu), over
// the public C++ API. One file per capability; the Python layer checks dtypes and shapes, this
// module checks values and runs the library with the GIL released.
#include "common.hpp"

NB_MODULE(_core, m) {
  using namespace zkgpu::python;
  m.doc() = "zkgpu's C++ API for the Python package zkgpu (use the package, not this module)";
  bind_errors(m);
  bind_runtime(m);
  bind_ntt(m);
  bind_poseidon2(m);
  bind_merkle(m);
  bind_whir(m);
  bind_ed25519(m);
  bind_msm(m);
  bind_mlkem(m);
  bind_mldsa(m);
  bind_device(m);
  bind_timing(m);
}
