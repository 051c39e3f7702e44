// libFuzzer target for the BLS12-377 input decoders (msm run lines, arkworks encodings); built
// with -DZKGPU_BUILD_FUZZ=ON under clang. Named .cc so zkgpu_tests' glob leaves it out.
//
//   ./build-asan/tests/fuzz/msm_input_fuzz -max_len=512 corpus/
#include <cstddef>
#include <cstdint>

#include "fuzz/msm_input_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)zkgpu::fuzz::msm_input_one(std::span<const uint8_t>(data, size));
  return 0;
}
