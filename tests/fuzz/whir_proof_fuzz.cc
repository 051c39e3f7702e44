// libFuzzer target for the WHIR proof parser and verifier (built with -DZKGPU_BUILD_FUZZ=ON under
// clang; see tests/fuzz/CMakeLists.txt). Named .cc, not .cpp, so the tests glob of the top-level
// CMakeLists.txt (tests/*.cpp) leaves it out of zkgpu_tests.
//
//   ./build-asan/tests/fuzz/whir_proof_fuzz -max_len=65536 corpus/
//
// A seed corpus of valid proofs: ZKGPU_FUZZ_CORPUS_DIR=corpus zkgpu_tests --gtest_filter='WhirProofFuzz.*'
#include <cstddef>
#include <cstdint>

#include "fuzz/whir_proof_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)zkgpu::fuzz::whir_proof_one_input(std::span<const uint8_t>(data, size));
  return 0;
}
