// Strict parsing of untrusted text lines of canonical field elements.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/koalabear.hpp"

namespace zkgpu::cli {

// Appends exactly `expect` canonical decimal values from `line` to `out`, or returns false with a
// reason (wrong count, a token that is not a decimal number, a value >= p) and leaves `out` as it was.
// F: BabyBear or KoalaBear (instantiated in line_parse.cpp).
template <class F>
bool parse_field_line(std::string_view line, size_t expect, std::vector<F>& out, std::string& err);

}  // namespace zkgpu::cli
