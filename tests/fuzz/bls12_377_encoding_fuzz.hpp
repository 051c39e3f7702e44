// One fuzz input for the BLS12-377 decoders of untrusted data (include/zkgpu/bls12_377.hpp): the
// arkworks point deserializers and the hex parsers of field elements and scalars. Byte 0 picks
// the decoder (byte % 4): 0 deserialize_compressed (the next 48 bytes), 1 deserialize_uncompressed
// (the next 96), 2 parse_fp_hex, 3 parse_scalar_hex (the rest as text).
//
// Invariants: a rejection says why; an accepted point is on the curve and in G1, re-serialises to
// the bytes it came from (uncompressed: up to the sign flag, which arkworks ignores there) and
// round-trips through the other encoding; parse_fp_hex accepts exactly the hex numbers below p
// (optional 0x, any leading zeros, either case) and prints them back; parse_scalar_hex accepts
// exactly the hex numbers of at most 256 bits and gives their residue mod r (both checked against
// a reference written here). Returns 1 when the input was accepted, else 0.
#pragma once
#include <optional>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "zkgpu/bls12_377.hpp"

namespace zkgpu::fuzz {

namespace bls_detail {

using namespace zkgpu::bls12_377;

// The reference reading of a hex number: digits without 0x and leading zeros, lowercase ("0" for
// zero); nullopt when it is not one.
inline std::optional<std::string> hex_digits(std::string_view s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  std::string d;
  for (char c : s) {
    if (c >= 'A' && c <= 'F') c = char(c - 'A' + 'a');
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
    if (!(d.empty() && c == '0')) d.push_back(c);
  }
  return d.empty() ? "0" : d;
}

// a < b for normalised digit strings.
inline bool hex_less(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

inline int nibble(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

// v mod r by repeated subtraction (v < 2^256 < 16 r).
inline Scalar reference_mod_r(const std::string& digits) {
  Scalar v{};
  for (size_t i = 0; i < digits.size(); ++i) {
    const size_t nib = digits.size() - 1 - i;
    v.l[nib / 16] |= uint64_t(nibble(digits[i])) << (4 * (nib % 16));
  }
  const Scalar r = FrConfig::modulus();
  auto geq = [](const Scalar& a, const Scalar& b) {
    for (int i = 3; i >= 0; --i)
      if (a.l[i] != b.l[i]) return a.l[i] > b.l[i];
    return true;
  };
  while (geq(v, r)) {
    uint64_t borrow = 0;
    for (int i = 0; i < 4; ++i) {
      const uint64_t d = v.l[i] - r.l[i] - borrow;
      borrow = (v.l[i] < r.l[i]) || (v.l[i] - r.l[i] < borrow);
      v.l[i] = d;
    }
  }
  return v;
}

inline int compressed(std::span<const uint8_t, G1_COMPRESSED_BYTES> in) {
  G1Affine q;
  std::string err;
  if (!deserialize_compressed(in, q, err)) {
    check(!err.empty(), "deserialize_compressed rejected without a reason");
    return 0;
  }
  check(q.on_curve() && in_subgroup(q), "deserialize_compressed accepted a point outside G1");
  const auto again = serialize_compressed(q);
  check(std::equal(again.begin(), again.end(), in.begin()), "a compressed point does not re-serialise to its bytes");
  G1Affine u;
  check(deserialize_uncompressed(serialize_uncompressed(q), u, err) && u == q,
        "a compressed point does not round-trip through the uncompressed encoding");
  return 1;
}

inline int uncompressed(std::span<const uint8_t, G1_UNCOMPRESSED_BYTES> in) {
  G1Affine q;
  std::string err;
  if (!deserialize_uncompressed(in, q, err)) {
    check(!err.empty(), "deserialize_uncompressed rejected without a reason");
    return 0;
  }
  check(q.on_curve() && in_subgroup(q), "deserialize_uncompressed accepted a point outside G1");
  const auto again = serialize_uncompressed(q);
  check(std::equal(again.begin(), again.end() - 1, in.begin()) && (again[95] & 0x7f) == (in[95] & 0x7f),
        "an uncompressed point does not re-serialise to its bytes (up to the sign flag)");
  G1Affine c;
  check(deserialize_compressed(serialize_compressed(q), c, err) && c == q,
        "an uncompressed point does not round-trip through the compressed encoding");
  return 1;
}

inline int fp_hex(std::string_view text) {
  Fp x;
  std::string err;
  const bool ok = parse_fp_hex(text, x, err);
  const auto digits = hex_digits(text);
  check(ok == (digits && hex_less(*digits, to_hex(FpConfig::modulus()))),
        "parse_fp_hex accepts other numbers than those below p");
  if (!ok) {
    check(!err.empty(), "parse_fp_hex rejected without a reason");
    return 0;
  }
  check(to_hex(x) == *digits, "parse_fp_hex gives another value than the text's");
  return 1;
}

inline int scalar_hex(std::string_view text) {
  Scalar s;
  std::string err;
  const bool ok = parse_scalar_hex(text, s, err);
  const auto digits = hex_digits(text);
  check(ok == (digits && digits->size() <= 64), "parse_scalar_hex accepts other numbers than those of 256 bits");
  if (!ok) {
    check(!err.empty(), "parse_scalar_hex rejected without a reason");
    return 0;
  }
  check(s == reference_mod_r(*digits), "parse_scalar_hex gives another value than the text's mod r");
  return 1;
}

}  // namespace bls_detail

inline int bls12_377_encoding_one(std::span<const uint8_t> data) {
  using namespace bls_detail;
  if (data.empty()) return 0;
  const auto rest = data.subspan(1);
  switch (data[0] % 4) {
    case 0: return rest.size() < G1_COMPRESSED_BYTES ? 0 : compressed(rest.first<G1_COMPRESSED_BYTES>());
    case 1: return rest.size() < G1_UNCOMPRESSED_BYTES ? 0 : uncompressed(rest.first<G1_UNCOMPRESSED_BYTES>());
    case 2: return fp_hex(as_text(rest));
    default: return scalar_hex(as_text(rest));
  }
}

}  // namespace zkgpu::fuzz
