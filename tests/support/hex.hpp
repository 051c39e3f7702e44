// Hex <-> bytes for the known-answer tests.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/hex_digit.hpp"

namespace zkgpu::test {

inline std::vector<uint8_t> from_hex(const std::string& s) {
  if (s.size() % 2) throw std::runtime_error("odd-length hex string");
  auto nib = [](char c) -> int {
    const int v = hex_digit(c);
    if (v < 0) throw std::runtime_error("bad hex digit");
    return v;
  };
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(nib(s[2 * i]) << 4 | nib(s[2 * i + 1]));
  return out;
}

inline std::string to_hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = d[p[i] >> 4];
    s[2 * i + 1] = d[p[i] & 15];
  }
  return s;
}
inline std::string to_hex(const std::vector<uint8_t>& v) { return to_hex(v.data(), v.size()); }

}  // namespace zkgpu::test
