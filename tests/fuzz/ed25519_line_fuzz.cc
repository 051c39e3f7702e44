// libFuzzer target for the `pk:sig:msg` line parser and the Ed25519 decoders/verifier behind it
// (built with -DZKGPU_BUILD_FUZZ=ON under clang; the harness is fuzz/ed25519_line_fuzz.hpp).
//
//   ./build-asan/tests/fuzz/ed25519_line_fuzz -max_len=4096 tests/fuzz/corpus/ed25519_line_fuzz
#include "fuzz/ed25519_line_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)zkgpu::fuzz::ed25519_line_one(std::span<const uint8_t>(data, size));
  return 0;
}
