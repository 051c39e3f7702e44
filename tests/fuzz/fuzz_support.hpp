// Helpers shared by the fuzz harnesses (tests/fuzz/*_fuzz.hpp): invariant checks, line splitting
// as the CLI reads stdin, and "this call must throw InvalidArgument".
// A broken invariant throws std::logic_error: libFuzzer reports it as a crash (uncaught
// exception), the corpus gtest (tests/fuzz/fuzz_corpus_test.cpp) as a failure.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu/status.hpp"

namespace zkgpu::fuzz {

inline void check(bool ok, const char* what) {
  if (!ok) throw std::logic_error(what);
}

inline std::string_view as_text(std::span<const uint8_t> data) {
  return {reinterpret_cast<const char*>(data.data()), data.size()};
}

// The lines std::getline gives for `text` (no empty last line after a final '\n').
inline std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// True when f() throws zkgpu::Error(InvalidArgument), false when it returns; any other exception
// propagates (and is a finding).
template <class F>
bool throws_invalid(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    check(e.code() == ErrorCode::InvalidArgument, "a size check threw an Error other than InvalidArgument");
    return true;
  }
  return false;
}

inline bool all_zero(std::span<const uint8_t> b) {
  for (uint8_t v : b)
    if (v) return false;
  return true;
}

}  // namespace zkgpu::fuzz
