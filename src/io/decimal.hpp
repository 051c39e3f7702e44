// The strict rule for counts given as text (the CLI's flags, e.g. `ed25519 verify --gpu-crossover`).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace zkgpu::cli {

// `text` as a decimal integer in [min, max] (digits only: no sign, no blanks, no hex; leading
// zeros allowed), or nullopt.
std::optional<uint64_t> parse_decimal(std::string_view text, uint64_t min, uint64_t max);

}  // namespace zkgpu::cli
