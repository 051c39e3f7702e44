// Lines of hex fields as batch items, for `zkgpu mlkem` and `zkgpu mldsa`: a line whose fields have
// the lengths the batch takes becomes an item, packed back to back with the others; any other line
// is answered `error` without reaching the library, in its place among the output lines.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "io/hex_lines.hpp"
#include "zkgpu/pq.hpp"

namespace zkgpu::cli {

inline constexpr size_t NOT_AN_ITEM = SIZE_MAX;

// Per line its item's index, or NOT_AN_ITEM when a field f is not lengths[f] bytes; the fields of
// the items are appended to *packed[f] (one array per field, as the batch calls take them).
inline std::vector<size_t> pack_items(const std::vector<std::vector<Bytes>>& lines,
                                      std::initializer_list<size_t> lengths, std::initializer_list<Bytes*> packed) {
  std::vector<size_t> idx;
  size_t items = 0;
  for (const auto& f : lines) {
    bool fits = true;
    size_t k = 0;
    for (size_t len : lengths) fits = fits && f[k++].size() == len;
    if (!fits) {
      idx.push_back(NOT_AN_ITEM);
      continue;
    }
    idx.push_back(items++);
    k = 0;
    for (Bytes* out : packed) {
      out->insert(out->end(), f[k].begin(), f[k].end());
      ++k;
    }
  }
  return idx;
}

// The output, a line per input line: `error` where the line was no item or its item's status is not
// Ok (no statuses: every item is Ok), else answer(item) and a newline; `rejected` counts the errors.
template <class Answer>
std::string answer_items(const std::vector<size_t>& idx, std::span<const PqStatus> statuses, size_t& rejected,
                         Answer&& answer) {
  std::string out;
  rejected = 0;
  for (size_t i : idx) {
    const bool bad = i == NOT_AN_ITEM || (!statuses.empty() && statuses[i] != PqStatus::Ok);
    rejected += bad;
    out += bad ? "error\n" : answer(i) + "\n";
  }
  return out;
}

}  // namespace zkgpu::cli
