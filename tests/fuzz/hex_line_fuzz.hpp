// The ML-KEM / ML-DSA harnesses' reading of one line: the CLI's parser (src/io/hex_lines.cpp) with
// its contract checked.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "io/hex_lines.hpp"
#include "fuzz/fuzz_support.hpp"

namespace zkgpu::fuzz {

// cli::parse_hex_fields with its contract checked: an accepted line has exactly `count` fields
// that print back to the line (lowercased, without its trailing '\r'); a rejected line has a
// reason and leaves `out` as it was.
inline bool parse_hex_line(std::string_view line, size_t count, std::vector<cli::Bytes>& out) {
  const std::vector<cli::Bytes> before{{0xa5}};
  out = before;
  std::string err;
  if (!cli::parse_hex_fields(line, count, out, err)) {
    check(!err.empty(), "parse_hex_fields rejected a line without a reason");
    check(out == before, "parse_hex_fields changed its output on a rejected line");
    return false;
  }
  check(out.size() == count, "parse_hex_fields accepted a line with another field count");
  std::string again;
  for (size_t i = 0; i < out.size(); ++i) again += (i ? ":" : "") + cli::to_hex(out[i]);
  std::string expect(line.substr(0, !line.empty() && line.back() == '\r' ? line.size() - 1 : line.size()));
  for (char& c : expect)
    if (c >= 'A' && c <= 'F') c = char(c - 'A' + 'a');
  check(again == expect, "an accepted hex line does not print back to itself");
  return true;
}

}  // namespace zkgpu::fuzz
