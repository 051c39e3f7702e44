#include "runtime/env.hpp"

#include <cstdlib>

#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

[[noreturn]] void bad_value(const char* name, const std::string& value, const std::string& accepted) {
  throw_invalid(std::string("environment variable ") + name + "='" + value + "': expected " + accepted +
                " (or leave it unset)");
}

// The raw value, or nullopt when unset or empty.
std::optional<std::string> env_string(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

}  // namespace

bool env_flag(const char* name) {
  const auto v = env_string(name);
  if (!v || *v == "0") return false;
  if (*v == "1") return true;
  bad_value(name, *v, "0 or 1");
}

std::optional<std::string> env_choice(const char* name, std::initializer_list<const char*> allowed) {
  const auto v = env_string(name);
  if (!v) return std::nullopt;
  std::string list;
  for (const char* a : allowed) {
    if (*v == a) return v;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  bad_value(name, *v, "one of " + list);
}

}  // namespace zkgpu
