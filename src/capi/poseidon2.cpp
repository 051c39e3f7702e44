// The C ABI's Poseidon2 permutations (include/zkgpu.h), over include/zkgpu/poseidon2.hpp.
#include <string>

#include "capi/babybear.hpp"
#include "capi/capi.hpp"
#include "zkgpu/poseidon2.hpp"

using namespace zkgpu;
using namespace zkgpu::capi;

extern "C" {

zkgpu_status zkgpu_poseidon2_permute_repr(uint32_t* states, size_t n, size_t width, const char* field,
                                          const char* constants, zkgpu_babybear_repr repr, zkgpu_backend backend) {
  return guarded([&] {
    const Backend b = backend_of(backend);
    const Repr r = repr_of(repr);
    require_babybear(field);
    const Poseidon2Constants set = constants_of(constants);
    if (width != 16 && width != 24) throw_invalid("width " + std::to_string(width) + " is not 16 or 24");
    const size_t words = checked_mul(n, width, "n * width");
    require(states, words, "states");
    FieldInPlace s(states, words, r, "states");
    poseidon2_permute_batch(s.span(), static_cast<int>(width), set, b);
    s.close();
  });
}

zkgpu_status zkgpu_poseidon2_permute(uint32_t* states, size_t n, size_t width, const char* field, const char* constants,
                                     zkgpu_backend backend) {
  return zkgpu_poseidon2_permute_repr(states, n, width, field, constants, ZKGPU_BABYBEAR_CANONICAL, backend);
}

}  // extern "C"
