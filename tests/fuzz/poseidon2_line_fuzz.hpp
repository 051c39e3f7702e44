// One fuzz input for the state lines of `zkgpu poseidon2 permute` (src/io/line_parse.cpp
// parse_field_line) and the batch permutation behind it. Byte 0 picks the width (bit 0: 16 or
// 24) and the constants (bit 1: plonky3 or whir); the rest is the text the CLI reads on stdin, one
// state per line as whitespace-separated canonical decimals.
//
// Invariants: parse_field_line accepts exactly the lines of `width` tokens that are decimal
// numbers below p (checked against a reference tokenizer written here) and appends their values;
// a rejected line has a reason and leaves the states as they were; the permutation of all parsed
// states in one batch equals one call per state, and a batch whose length is not a multiple of
// the width is refused with InvalidArgument. Returns the number of states parsed.
#pragma once
#include <optional>

#include "io/line_parse.hpp"
#include "fuzz/fuzz_support.hpp"
#include "zkgpu/poseidon2.hpp"

namespace zkgpu::fuzz {

namespace poseidon2_detail {

// The reference reading of a state line: the values, or nullopt when it is not `width` canonical
// decimals separated by spaces, tabs or CRs.
inline std::optional<std::vector<uint32_t>> reference_state(std::string_view line, size_t width) {
  std::vector<uint32_t> v;
  size_t i = 0;
  auto sep = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (i < line.size()) {
    if (sep(line[i])) {
      ++i;
      continue;
    }
    uint64_t x = 0;
    for (; i < line.size() && !sep(line[i]); ++i) {
      if (line[i] < '0' || line[i] > '9') return std::nullopt;
      x = std::min<uint64_t>(x * 10 + uint64_t(line[i] - '0'), BabyBear::P);  // saturates at p
    }
    if (x >= BabyBear::P) return std::nullopt;
    v.push_back(uint32_t(x));
  }
  if (v.size() != width) return std::nullopt;
  return v;
}

}  // namespace poseidon2_detail

inline size_t poseidon2_line_one(std::span<const uint8_t> data) {
  using namespace poseidon2_detail;
  if (data.empty()) return 0;
  const int width = data[0] & 1 ? 24 : 16;
  const Poseidon2Constants constants = data[0] & 2 ? Poseidon2Constants::Whir : Poseidon2Constants::Plonky3;
  std::vector<BabyBear> states;
  for (std::string_view line : split_lines(as_text(data.subspan(1)))) {
    const std::vector<BabyBear> before = states;
    std::string err;
    const bool ok = cli::parse_field_line(line, size_t(width), states, err);
    const auto ref = reference_state(line, size_t(width));
    check(ok == ref.has_value(), "parse_field_line accepts other lines than `width` canonical decimals");
    if (!ok) {
      check(!err.empty(), "parse_field_line rejected a line without a reason");
      check(states.size() == before.size() && std::equal(before.begin(), before.end(), states.begin()),
            "parse_field_line changed the states on a rejected line");
      continue;
    }
    check(states.size() == before.size() + size_t(width), "parse_field_line appended another number of values");
    for (int i = 0; i < width; ++i)
      check(states[before.size() + size_t(i)].canonical() == (*ref)[size_t(i)], "parse_field_line gives another value");
  }
  const size_t n = states.size() / size_t(width);
  std::vector<BabyBear> one = states;
  for (size_t s = 0; s < n; ++s)
    poseidon2_permute_batch(std::span(one).subspan(s * size_t(width), size_t(width)), width, constants, Backend::Cpu);
  poseidon2_permute_batch(states, width, constants, Backend::Cpu);
  for (size_t i = 0; i < states.size(); ++i)
    check(states[i].canonical() == one[i].canonical(), "a batch permutation differs from one call per state");
  if (n > 0) {
    states.push_back(BabyBear::from_canonical(1));
    check(throws_invalid([&] { poseidon2_permute_batch(states, width, constants, Backend::Cpu); }),
          "a batch that is not a multiple of the width was not refused");
  }
  return n;
}

}  // namespace zkgpu::fuzz
