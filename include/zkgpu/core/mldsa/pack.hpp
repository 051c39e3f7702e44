// ML-DSA bit packing (FIPS 204 section 7.1): SimpleBitPack / BitPack and their inverses, as
// "offset - coefficient" in `bits` bits, little-endian bit order. Loops have fixed bounds only.
#pragma once
#include "zkgpu/core/mldsa/poly.hpp"

namespace zkgpu::mldsa {

// 8 values of `bits` bits each, little-endian bit order: exactly `bits` bytes. The unit of every
// packing below (8 coefficients always end on a byte boundary), and what one CUDA thread writes.
ZKGPU_HD void pack8(uint8_t* out, const uint32_t u[8], int bits) {
  uint64_t acc = 0;
  int have = 0, o = 0;
  for (int i = 0; i < 8; ++i) {
    acc |= uint64_t(u[i]) << have;
    have += bits;
    while (have >= 8) {
      out[o++] = uint8_t(acc);
      acc >>= 8;
      have -= 8;
    }
  }
}
// BitPack of 8 consecutive coefficients: offset - a[i], each in [0, 2^bits).
ZKGPU_HD void pack_bits8(uint8_t* out, const int32_t a[8], int bits, int32_t offset) {
  uint32_t u[8];
  for (int i = 0; i < 8; ++i) u[i] = uint32_t(offset - a[i]);
  pack8(out, u, bits);
}
// Writes offset - a[i] (which must lie in [0, 2^bits)) for all 256 coefficients: 32*bits bytes.
ZKGPU_HD_NOINLINE void pack_bits(uint8_t* out, const Poly& a, int bits, int32_t offset) {
  for (int g = 0; g < N / 8; ++g) pack_bits8(out + g * bits, a.c + 8 * g, bits, offset);
}
// Inverse of pack_bits: a[i] = offset - (bits-bit value).
ZKGPU_HD_NOINLINE void unpack_bits(Poly& a, const uint8_t* in, int bits, int32_t offset) {
  uint64_t acc = 0;
  int have = 0, o = 0;
  const uint32_t mask = (1u << bits) - 1;
  for (int i = 0; i < N; ++i) {
    while (have < bits) {
      acc |= uint64_t(in[o++]) << have;
      have += 8;
    }
    a.c[i] = offset - int32_t(uint32_t(acc) & mask);
    acc >>= bits;
    have -= bits;
  }
}

// Coefficient i of a pack_bits stream: offset - (the bits-bit value at bit i*bits). For the CUDA
// kernels, where each thread unpacks its own coefficients (bits <= 24).
ZKGPU_HD int32_t unpack_coeff(const uint8_t* in, int i, int bits, int32_t offset) {
  const int bit = i * bits, byte = bit >> 3;
  uint32_t v = 0;
  for (int b = 0; b < 4 && 8 * b < (bit & 7) + bits; ++b) v |= uint32_t(in[byte + b]) << (8 * b);
  return offset - int32_t((v >> (bit & 7)) & ((1u << bits) - 1));
}

// SimpleBitPack of 8 consecutive coefficients in [0, 2^bits).
ZKGPU_HD void pack_simple8(uint8_t* out, const int32_t v[8], int bits) {
  uint32_t u[8];
  for (int i = 0; i < 8; ++i) u[i] = uint32_t(v[i]);
  pack8(out, u, bits);
}
// SimpleBitPack: coefficients in [0, 2^bits) as they are (t1 with 10 bits, w1 with 6 or 4).
ZKGPU_HD void pack_simple(uint8_t* out, const Poly& w1, int bits) {
  for (int g = 0; g < N / 8; ++g) pack_simple8(out + g * bits, w1.c + 8 * g, bits);
}

// SimpleBitUnpack (t1 of a public key: every 10-bit value is valid).
ZKGPU_HD void unpack_simple(Poly& a, const uint8_t* in, int bits) {
  unpack_bits(a, in, bits, 0);
  for (int i = 0; i < N; ++i) a.c[i] = -a.c[i];
}

}  // namespace zkgpu::mldsa
