// One hex digit's value (either case), or -1: shared by every parser of hex text (the CLI's line
// formats, the Ed25519 line parser, the tests' vector loaders).
#pragma once

namespace zkgpu {

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace zkgpu
