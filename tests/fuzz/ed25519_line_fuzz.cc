// libFuzzer target for the `pk:sig:msg` line parser and the Ed25519 decoders/verifier behind it
// (built with -DZKGPU_FUZZ=ON under clang). Each input is split into lines; every parsed
// signature is verified in every mode, singly and as a batch, and the verdicts must agree.
//
//   ./build-fuzz/tests/fuzz/ed25519_line_fuzz -max_len=4096 corpus/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ed25519/line_format.hpp"
#include "zkgpu/ed25519.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  zkgpu::ed25519::ParsedBatch batch;
  std::string err;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    (void)batch.append_line(text.substr(start, end - start), err);
    start = end + 1;
  }
  const auto items = batch.items();
  for (auto mode : {zkgpu::Ed25519Mode::Openssl, zkgpu::Ed25519Mode::Strict, zkgpu::Ed25519Mode::Zip215}) {
    const auto verdicts = zkgpu::ed25519_verify_batch(items, mode, zkgpu::Backend::Cpu);
    for (size_t i = 0; i < items.size(); ++i)
      if (verdicts[i] != (zkgpu::ed25519_verify(items[i].public_key, items[i].signature, items[i].message, mode) ? 1 : 0))
        std::abort();
  }
  return 0;
}
