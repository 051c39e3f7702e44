#include "io/hex_lines.hpp"

#include <istream>
#include <string>

#include "runtime/hex_digit.hpp"

namespace zkgpu::cli {

bool parse_hex_fields(std::string_view line, size_t count, std::vector<Bytes>& out, std::string& err) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<Bytes> fields;
  size_t start = 0;
  while (true) {
    const size_t end = line.find(':', start);
    const std::string_view f = line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (f.size() % 2) {
      err = "field " + std::to_string(fields.size() + 1) + " has an odd number of hex digits";
      return false;
    }
    Bytes b(f.size() / 2);
    for (size_t i = 0; i < b.size(); ++i) {
      const int hi = hex_digit(f[2 * i]), lo = hex_digit(f[2 * i + 1]);
      if (hi < 0 || lo < 0) {
        err = "field " + std::to_string(fields.size() + 1) + " is not hex";
        return false;
      }
      b[i] = uint8_t(hi << 4 | lo);
    }
    fields.push_back(std::move(b));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (fields.size() != count) {
    err = "expected " + std::to_string(count) + " ':'-separated hex fields, got " + std::to_string(fields.size());
    return false;
  }
  out = std::move(fields);
  return true;
}

bool read_hex_lines(std::istream& in, size_t count, std::vector<std::vector<Bytes>>& lines, std::string& err) {
  std::string line;
  for (size_t lineno = 1; std::getline(in, line); ++lineno) {
    std::vector<Bytes> fields;
    if (!parse_hex_fields(line, count, fields, err)) {
      err = "line " + std::to_string(lineno) + ": " + err;
      return false;
    }
    lines.push_back(std::move(fields));
  }
  return true;
}

std::string to_hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = d[p[i] >> 4];
    s[2 * i + 1] = d[p[i] & 15];
  }
  return s;
}

}  // namespace zkgpu::cli
