// BLS12-377 G1: parsing, validation, arkworks-compatible encodings and the twisted-Edwards
// conversion of bases. The arithmetic itself is header-only in include/zkgpu/core/bls12_377 (host and device).
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu/core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377 {

// Big-endian hex of any width, with or without 0x. A field element must be < p; a scalar may have
// up to 256 bits and is reduced mod r. On failure they return false and say why in err.
bool parse_fp_hex(std::string_view hex, Fp& out, std::string& err);
bool parse_scalar_hex(std::string_view hex, Scalar& out, std::string& err);
// Lowercase hex without leading zeros ("0" for zero), no 0x prefix.
std::string to_hex(const FpRepr& v);
std::string to_hex(const Fp& v);
std::string to_hex(const Scalar& v);

Scalar reduce_scalar(const BigInt<4>& v);  // any 256-bit value mod r
Scalar scalar_from_fr(const Fr& v);

bool in_subgroup(const G1Affine& p);  // r * P = O
// On the curve and in G1; err names the failed check.
bool validate_g1(const G1Affine& p, std::string& err);

// Square root in Fp (Tonelli-Shanks, two-adicity 46); false when v is not a square.
bool fp_sqrt(const Fp& v, Fp& root);

// arkworks CanonicalSerialize for short-Weierstrass affine points (ark-ec
// models/short_weierstrass, SWFlags): x (and y) as 48 little-endian bytes of the canonical value;
// the last byte of the final coordinate carries bit 7 = YIsNegative (y > -y as integers) and
// bit 6 = PointAtInfinity (coordinates zero). Compressed = x with flags (48 bytes); uncompressed
// = x, then y with flags (96 bytes).
inline constexpr size_t G1_COMPRESSED_BYTES = 48, G1_UNCOMPRESSED_BYTES = 96;
std::array<uint8_t, G1_COMPRESSED_BYTES> serialize_compressed(const G1Affine& p);
std::array<uint8_t, G1_UNCOMPRESSED_BYTES> serialize_uncompressed(const G1Affine& p);
// Reject non-canonical coordinates, undefined flag combinations, points off the curve or outside
// G1 (arkworks' Validate::Yes).
bool deserialize_compressed(std::span<const uint8_t, G1_COMPRESSED_BYTES> in, G1Affine& out, std::string& err);
bool deserialize_uncompressed(std::span<const uint8_t, G1_UNCOMPRESSED_BYTES> in, G1Affine& out, std::string& err);

G1Affine to_affine(const G1Jacobian& p);
G1Affine to_affine(const TeExtended& p);
// The twisted-Edwards form of an affine TE point, from a G1 point (spec §2).
TeExtended sw_to_te(const G1Affine& p);

// Bases in the mixed-adder form, multi-threaded with one batched inversion per thread. Throws
// Error(InvalidArgument) naming the index of a point where the map is undefined (y = 0 or
// x = -1 - 1/s: never in G1).
std::vector<TePrecomputed> precompute_te(std::span<const G1Affine> points);

}  // namespace zkgpu::bls12_377
