#include "io/line_parse.hpp"

namespace zkgpu::cli {

template <class F>
bool parse_field_line(std::string_view line, size_t expect, std::vector<F>& out, std::string& err) {
  const size_t start = out.size();
  size_t count = 0, i = 0;
  auto fail = [&](std::string why) {
    out.resize(start);
    err = std::move(why);
    return false;
  };
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i == line.size()) break;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    std::string_view tok = line.substr(i, j - i);
    ++count;
    uint64_t v = 0;
    for (char c : tok) {
      if (c < '0' || c > '9')
        return fail("value " + std::to_string(count) + " '" + std::string(tok) + "' is not a decimal number");
      v = v * 10 + static_cast<uint64_t>(c - '0');
      if (v >= F::P)
        return fail("value " + std::to_string(count) + " '" + std::string(tok) +
                    "' is not below p = " + std::to_string(F::P));
    }
    if (count <= expect) out.push_back(F::from_canonical(static_cast<uint32_t>(v)));
    i = j;
  }
  if (count != expect) return fail("expected " + std::to_string(expect) + " values, got " + std::to_string(count));
  return true;
}

template bool parse_field_line(std::string_view, size_t, std::vector<BabyBear>&, std::string&);
template bool parse_field_line(std::string_view, size_t, std::vector<KoalaBear>&, std::string&);

}  // namespace zkgpu::cli
