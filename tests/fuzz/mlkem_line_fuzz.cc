// libFuzzer target for the ML-KEM hex lines (src/io/hex_lines.cpp) and the ML-KEM batch API
// (built with -DZKGPU_BUILD_FUZZ=ON under clang; the harness and its invariants are in fuzz/mlkem_line_fuzz.hpp).
//
//   ./build-asan/tests/fuzz/mlkem_line_fuzz tests/fuzz/corpus/mlkem_line_fuzz
#include "fuzz/mlkem_line_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)zkgpu::fuzz::mlkem_line_one(std::span<const uint8_t>(data, size));
  return 0;
}
