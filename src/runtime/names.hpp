// An enum's names in one table that serves both its parser and its printer, so that the two can
// never disagree (the CLI, the C ABI and the bindings parse what to_string prints).
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

namespace zkgpu {

template <class E>
struct EnumName {
  E value;
  const char* name;             // what the printer gives
  const char* alias = nullptr;  // a second spelling the parser takes (e.g. "44" for "ML-DSA-44")
};

template <class E, size_t N>
constexpr std::optional<E> parse_name(const EnumName<E> (&table)[N], std::string_view s) {
  for (const EnumName<E>& e : table)
    if (s == e.name || (e.alias && s == e.alias)) return e.value;
  return std::nullopt;
}

// The name of v, or "?" for a value outside the table (a cast from a bad integer).
template <class E, size_t N>
constexpr const char* name_of(const EnumName<E> (&table)[N], E v) {
  for (const EnumName<E>& e : table)
    if (e.value == v) return e.name;
  return "?";
}

// The alias of v ("?" when it has none).
template <class E, size_t N>
constexpr const char* alias_of(const EnumName<E> (&table)[N], E v) {
  for (const EnumName<E>& e : table)
    if (e.value == v && e.alias) return e.alias;
  return "?";
}

}  // namespace zkgpu
