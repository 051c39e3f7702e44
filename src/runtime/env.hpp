// Validated readers of the environment variables the library reads (docs/environment.md lists
// them). env.cpp is the only file in src/ that calls getenv: every variable goes through one of
// these, so a value outside the accepted ones is an error, never silently ignored. Tuning values
// and diagnostics are per-call options, never environment variables.
//
// Each reader treats an unset or empty variable as unset and throws Error(InvalidArgument) naming
// the variable, its value and the accepted values for anything else it does not accept. Call them
// lazily, inside the function that needs the value (a function-local static may cache it), never
// from a namespace-scope initializer: an exception there would end the process before main.
#pragma once
#include <initializer_list>
#include <optional>
#include <string>

namespace zkgpu {

// A switch: unset, empty or "0" is false, "1" is true.
bool env_flag(const char* name);

// One of `allowed` (exact, case-sensitive), or nullopt when unset.
std::optional<std::string> env_choice(const char* name, std::initializer_list<const char*> allowed);

}  // namespace zkgpu
