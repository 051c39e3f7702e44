// libFuzzer target for the ML-DSA hex lines (src/io/hex_lines.cpp) and the ML-DSA batch API
// (built with -DZKGPU_BUILD_FUZZ=ON under clang; the harness and its invariants are in fuzz/mldsa_line_fuzz.hpp).
//
//   ./build-asan/tests/fuzz/mldsa_line_fuzz tests/fuzz/corpus/mldsa_line_fuzz
#include "fuzz/mldsa_line_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)zkgpu::fuzz::mldsa_line_one(std::span<const uint8_t>(data, size));
  return 0;
}
