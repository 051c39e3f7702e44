// Validated readers of the environment variables the library reads (docs/environment.md lists
// them). env.cpp is the only file in src/ that calls getenv: every variable goes through one of
// these, so a value outside the accepted ones is an error, never silently ignored.
//
// Each reader treats an unset or empty variable as unset and throws Error(InvalidArgument) naming
// the variable, its value and the accepted values for anything else it does not accept. Call them
// lazily, inside the function that needs the value (a function-local static may cache it), never
// from a namespace-scope initializer: an exception there would end the process before main.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace zkgpu {

// A decimal integer in [min, max] (digits only: no sign, no blanks, no hex), or nullopt when unset.
std::optional<uint64_t> env_uint(const char* name, uint64_t min, uint64_t max);

// A switch: unset, empty or "0" is false, "1" is true.
bool env_flag(const char* name);

// One of `allowed` (exact, case-sensitive), or nullopt when unset.
std::optional<std::string> env_choice(const char* name, std::initializer_list<const char*> allowed);

// The raw value, or nullopt when unset: for a path, which its user checks when it opens it.
std::optional<std::string> env_string(const char* name);

// `text` as a decimal integer in [min, max] (the rule of env_uint), or nullopt: for values that
// come from a file an environment variable names.
std::optional<uint64_t> parse_decimal(std::string_view text, uint64_t min, uint64_t max);

}  // namespace zkgpu
