// libFuzzer target for the arkworks point decoders and hex field/scalar parsers of BLS12-377
// (built with -DZKGPU_BUILD_FUZZ=ON under clang; the harness and its invariants are in
// fuzz/bls12_377_encoding_fuzz.hpp).
//
//   ./build-asan/tests/fuzz/bls12_377_encoding_fuzz tests/fuzz/corpus/bls12_377_encoding_fuzz
#include "fuzz/bls12_377_encoding_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)zkgpu::fuzz::bls12_377_encoding_one(std::span<const uint8_t>(data, size));
  return 0;
}
