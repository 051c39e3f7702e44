// libFuzzer target for the Poseidon2 state lines (src/io/line_parse.cpp) and the batch permutation
// (built with -DZKGPU_BUILD_FUZZ=ON under clang; the harness and its invariants are in fuzz/poseidon2_line_fuzz.hpp).
//
//   ./build-asan/tests/fuzz/poseidon2_line_fuzz tests/fuzz/corpus/poseidon2_line_fuzz
#include "fuzz/poseidon2_line_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)zkgpu::fuzz::poseidon2_line_one(std::span<const uint8_t>(data, size));
  return 0;
}
