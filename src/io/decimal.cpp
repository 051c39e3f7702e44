#include "io/decimal.hpp"

namespace zkgpu::cli {

std::optional<uint64_t> parse_decimal(std::string_view text, uint64_t min, uint64_t max) {
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;  // overflow
    v = v * 10 + d;
  }
  if (v < min || v > max) return std::nullopt;
  return v;
}

}  // namespace zkgpu::cli
