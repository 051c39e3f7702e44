// The C ABI's Poseidon2 permutations (include/zkgpu.h), over include/zkgpu/poseidon2.hpp.
#include <cstring>
#include <string>

#include "capi/babybear.hpp"
#include "capi/capi.hpp"
#include "zkgpu/poseidon2.hpp"

using namespace zkgpu;
using namespace zkgpu::capi;

namespace {

void check_width(size_t width) {
  if (width != 16 && width != 24) throw_invalid("width " + std::to_string(width) + " is not 16 or 24");
}

// The names and the width, which the host and device calls check alike.
Poseidon2Constants checked_set(const char* field, const char* constants, size_t width) {
  require_babybear(field);
  const Poseidon2Constants set = constants_of(constants);
  check_width(width);
  return set;
}

bool is_koalabear(const char* field) { return field != nullptr && std::strcmp(field, "koalabear") == 0; }

KoalaBearPoseidon2Constants koalabear_set(const char* constants) {
  require(constants, "constants");
  if (std::strcmp(constants, "plonky3") == 0) return KoalaBearPoseidon2Constants::Plonky3;
  if (std::strcmp(constants, "xoroshiro1") == 0) return KoalaBearPoseidon2Constants::Xoroshiro1;
  throw_invalid("unknown KoalaBear Poseidon2 constant set " + quoted(constants) + " (\"plonky3\" or \"xoroshiro1\")");
}

// Both host calls; the enums by reference, so that an out-of-range value a C caller passes is
// rejected by backend_of / repr_of without being loaded.
zkgpu_status permute(uint32_t* states, size_t n, size_t width, const char* field, const char* constants,
                     const zkgpu_babybear_repr& repr, const zkgpu_backend& backend) {
  return guarded([&] {
    const Backend b = backend_of(backend);
    const Repr r = repr_of(repr);
    auto run = [&](auto set, auto field_tag) {
      using F = decltype(field_tag);
      check_width(width);
      const size_t words = checked_mul(n, width, "n * width");
      require(states, words, "states");
      FieldInPlace<F> s(states, words, r, "states");
      poseidon2_permute_batch(s.span(), static_cast<int>(width), set, Poseidon2BatchOptions{.backend = b});
      s.close();
    };
    if (is_koalabear(field))
      run(koalabear_set(constants), KoalaBear{});
    else
      run(checked_set(field, constants, width), BabyBear{});
  });
}

}  // namespace

extern "C" {

zkgpu_status zkgpu_poseidon2_permute_repr(uint32_t* states, size_t n, size_t width, const char* field,
                                          const char* constants, zkgpu_babybear_repr repr, zkgpu_backend backend) {
  return permute(states, n, width, field, constants, repr, backend);
}

zkgpu_status zkgpu_poseidon2_permute(uint32_t* states, size_t n, size_t width, const char* field, const char* constants,
                                     zkgpu_backend backend) {
  return permute(states, n, width, field, constants, ZKGPU_BABYBEAR_CANONICAL, backend);
}

zkgpu_status zkgpu_poseidon2_permute_device(uint32_t* d_states, size_t n, size_t width, const char* field,
                                            const char* constants, void* stream) {
  return guarded([&] {
    if (is_koalabear(field))
      throw_invalid(
          "field \"koalabear\" has host calls only so far (zkgpu_poseidon2_permute); the device-pointer "
          "call is \"babybear\"");
    const Poseidon2Constants set = checked_set(field, constants, width);
    poseidon2_permute_batch_device(reinterpret_cast<BabyBear*>(d_states), n, static_cast<int>(width), set,
                                   GpuStream{stream});
  });
}

}  // extern "C"
