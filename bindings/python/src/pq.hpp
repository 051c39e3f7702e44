// Shared by mlkem.cpp and mldsa.cpp: the key-generation binding, the same for both schemes (seeds
// in, two key arrays out, all packed back to back).
#pragma once
#include <string_view>

#include "common.hpp"

namespace zkgpu::python {

template <class Set>
void def_keygen(nb::module_& m, const char* name, Set (*set_arg)(std::string_view),
                void (*keygen)(Set, std::span<const uint8_t>, std::span<uint8_t>, std::span<uint8_t>, Backend)) {
  m.def(
      name,
      [set_arg, keygen](std::string_view set, U8In seeds, U8Out first, U8Out second, std::string_view backend) {
        const Set s = set_arg(set);
        const Backend b = backend_arg(backend);
        nb::gil_scoped_release unlocked;
        keygen(s, span_of(seeds), span_of(first), span_of(second), b);
      },
      nb::arg("set"), nb::arg("seeds").noconvert(), nb::arg("first").noconvert(), nb::arg("second").noconvert(),
      nb::arg("backend"));
}

}  // namespace zkgpu::python
