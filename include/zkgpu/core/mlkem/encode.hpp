// ML-KEM encodings (FIPS 203 section 4.2.1): ByteEncode_d / ByteDecode_d, Compress_d /
// Decompress_d. Compress divides by q with an exact multiply-shift, never a division instruction
// (KyberSlash: x86 division time depends on the operand).
#pragma once
#include "zkgpu/core/mlkem/poly.hpp"

namespace zkgpu::mlkem {

// round(2^d * x / q) mod 2^d for x in [0, q). floor(n / q) = (n * 10321340) >> 35 exactly for
// n < 2^24 (10321340 = ceil(2^35 / q)); adding 1664 (not 1665) rounds halves up, as FIPS 203 does.
ZKGPU_HD uint32_t compress(uint32_t x, int d) {
  const uint64_t n = (uint64_t(x) << d) + 1664;
  return uint32_t((n * 10321340ull) >> 35) & ((1u << d) - 1);
}
// round(q * y / 2^d).
ZKGPU_HD int16_t decompress(uint32_t y, int d) { return int16_t((uint32_t(Q) * y + (1u << (d - 1))) >> d); }

// ByteEncode_d / ByteDecode_d of 8 consecutive values: exactly d bytes (the unit the CUDA kernels
// give one thread; 8 values always end on a byte boundary).
ZKGPU_HD void byte_encode8(uint8_t* out, const uint32_t v[8], int d) {
  uint64_t acc = 0;
  int bits = 0, o = 0;
  for (int i = 0; i < 8; ++i) {
    acc |= uint64_t(v[i]) << bits;
    bits += d;
    while (bits >= 8) {
      out[o++] = uint8_t(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
}
ZKGPU_HD void byte_decode8(uint32_t v[8], const uint8_t* in, int d) {
  uint64_t acc = 0;
  int bits = 0, o = 0;
  const uint32_t mask = (1u << d) - 1;
  for (int i = 0; i < 8; ++i) {
    while (bits < d) {
      acc |= uint64_t(in[o++]) << bits;
      bits += 8;
    }
    v[i] = uint32_t(acc) & mask;
    acc >>= d;
    bits -= d;
  }
}
// ByteEncode_d: 256 d-bit values, little-endian bit order, 32*d bytes.
ZKGPU_HD_NOINLINE void byte_encode(uint8_t* out, const uint32_t v[N], int d) {
  for (int g = 0; g < N / 8; ++g) byte_encode8(out + g * d, v + 8 * g, d);
}
// ByteDecode_d without the reduction mod q (callers check or reduce as the standard says).
ZKGPU_HD_NOINLINE void byte_decode(uint32_t v[N], const uint8_t* in, int d) {
  for (int g = 0; g < N / 8; ++g) byte_decode8(v + 8 * g, in + g * d, d);
}

// ByteEncode_12 of a polynomial with coefficients in (-q, q): canonical form first.
ZKGPU_HD void poly_tobytes(uint8_t out[384], const Poly& a) {
  uint32_t v[N];
  for (int i = 0; i < N; ++i) v[i] = uint32_t(to_canonical(a.c[i]));
  byte_encode(out, v, 12);
}
ZKGPU_HD void poly_frombytes(Poly& r, const uint8_t in[384]) {
  uint32_t v[N];
  byte_decode(v, in, 12);
  for (int i = 0; i < N; ++i) r.c[i] = int16_t(v[i]);
}
// The encapsulation-key modulus check (FIPS 203 section 7.2): every 12-bit value below q. ek is
// public, so an early answer is fine, but the loop is branch-free anyway.
ZKGPU_HD bool bytes12_reduced(const uint8_t in[384]) {
  uint32_t v[N];
  byte_decode(v, in, 12);
  uint32_t bad = 0;
  for (int i = 0; i < N; ++i) bad |= (uint32_t(Q - 1) - v[i]) >> 31;
  return bad == 0;
}

// Compress_d then ByteEncode_d of a polynomial with coefficients in (-q, q).
ZKGPU_HD void poly_compress(uint8_t* out, const Poly& a, int d) {
  uint32_t v[N];
  for (int i = 0; i < N; ++i) v[i] = compress(uint32_t(to_canonical(a.c[i])), d);
  byte_encode(out, v, d);
}
ZKGPU_HD void poly_decompress(Poly& r, const uint8_t* in, int d) {
  uint32_t v[N];
  byte_decode(v, in, d);
  for (int i = 0; i < N; ++i) r.c[i] = decompress(v[i], d);
}

// Decompress_1(ByteDecode_1(m)): bit b -> b * 1665, with a mask instead of a branch on m.
ZKGPU_HD int16_t msg_coeff(uint8_t byte, int j) {
  const int16_t mask = int16_t(-int16_t((byte >> j) & 1));
  return int16_t(mask & ((Q + 1) / 2));
}
ZKGPU_HD void poly_frommsg(Poly& r, const uint8_t m[32]) {
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 8; ++j) r.c[8 * i + j] = msg_coeff(m[i], j);
}
// Compress_1 of 8 consecutive coefficients in (-q, q): one message byte.
ZKGPU_HD uint8_t msg_byte(const int16_t a[8]) {
  uint8_t byte = 0;
  for (int j = 0; j < 8; ++j) byte |= uint8_t(compress(uint32_t(to_canonical(a[j])), 1) << j);
  return byte;
}
ZKGPU_HD void poly_tomsg(uint8_t m[32], const Poly& a) {
  for (int i = 0; i < 32; ++i) m[i] = msg_byte(a.c + 8 * i);
}

}  // namespace zkgpu::mlkem
