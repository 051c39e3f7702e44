// One fuzz input for the `pk:sig:msg` line parser of `zkgpu ed25519 verify` and the Ed25519
// decoders/verifier behind it. The input is split into lines; every parsed signature is verified
// in every mode, singly and as a batch, and the verdicts must agree. Shared by the libFuzzer
// target (ed25519_line_fuzz.cc) and the corpus gtest. Returns the number of lines parsed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "io/ed25519_line.hpp"
#include "fuzz/fuzz_support.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu::fuzz {

inline size_t ed25519_line_one(std::span<const uint8_t> data) {
  const std::string_view text = as_text(data);
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
      check(verdicts[i] ==
                (zkgpu::ed25519_verify(items[i].public_key, items[i].signature, items[i].message, mode) ? 1 : 0),
            "ed25519: a batch verdict differs from the single verification");
  }
  return items.size();
}

}  // namespace zkgpu::fuzz
