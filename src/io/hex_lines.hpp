// Line-oriented hex I/O of the ML-KEM / ML-DSA commands: one item per line, fields of lowercase
// hex separated by ':' (an empty field is the empty string).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace zkgpu::cli {

using Bytes = std::vector<uint8_t>;

// Splits `line` into exactly `count` hex fields, or returns false with a reason (wrong field
// count, odd length, a character that is not a hex digit). A trailing '\r' is ignored.
bool parse_hex_fields(std::string_view line, size_t count, std::vector<Bytes>& out, std::string& err);

// Reads every line of `in` as `count` fields. On the first unparsable line returns false with
// err = "line N: reason" (the library prints nothing: the CLI reports it and exits non-zero).
bool read_hex_lines(std::istream& in, size_t count, std::vector<std::vector<Bytes>>& lines, std::string& err);

std::string to_hex(const uint8_t* p, size_t n);
inline std::string to_hex(const Bytes& b) { return to_hex(b.data(), b.size()); }

}  // namespace zkgpu::cli
