// Batched Poseidon2 over BabyBear (zkgpu/poseidon2.hpp): widths 16 and 24, constant sets
// "plonky3" and "whir", canonical values in a new array the Python layer allocated.
#include <string>

#include "common.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

void bind_poseidon2(nb::module_& m) {
  m.def(
      "poseidon2_permute_into",
      [](U32In states, U32Out out, int width, std::string_view constants, std::string_view backend) {
        const Backend b = backend_arg(backend);
        const Poseidon2Constants c = constants_arg(constants);
        if (width != 16 && width != 24) throw_invalid("width " + std::to_string(width) + " is not 16 or 24");
        if (out.size() != states.size() || states.size() % size_t(width) != 0)
          throw_invalid("states and out must both hold n * width words");
        nb::gil_scoped_release unlocked;
        auto* s = reinterpret_cast<BabyBear*>(out.data());
        load_canonical(span_of(states), s, "states");
        const std::span<BabyBear> all(s, out.size());
        poseidon2_permute_batch(all, width, c, b);
        store_canonical(all, out.data());
      },
      nb::arg("states").noconvert(), nb::arg("out").noconvert(), nb::arg("width"), nb::arg("constants"),
      nb::arg("backend"));
}

}  // namespace zkgpu::python
