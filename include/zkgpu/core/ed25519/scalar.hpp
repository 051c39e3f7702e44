// Scalars modulo the group order L = 2^252 + 27742317777372353535851937790883648493, as four
// little-endian 64-bit words, the same code on host and device.
#pragma once
#include <cstdint>

#include "zkgpu/core/common.hpp"

namespace zkgpu::ed25519 {

struct Scalar {
  uint64_t w[4];
};

ZKGPU_HD Scalar scalar_l() { return Scalar{{0x5812631a5cf5d3edull, 0x14def9dea2f79cd6ull, 0, 0x1000000000000000ull}}; }

ZKGPU_HD Scalar scalar_from_bytes(const uint8_t s[32]) {
  Scalar r;
  for (int i = 0; i < 4; ++i) {
    uint64_t x = 0;
    for (int j = 7; j >= 0; --j) x = (x << 8) | s[8 * i + j];
    r.w[i] = x;
  }
  return r;
}

ZKGPU_HD void scalar_to_bytes(uint8_t out[32], const Scalar& a) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(a.w[i] >> (8 * j));
}

// a >= b as 256-bit integers.
ZKGPU_HD bool scalar_geq(const Scalar& a, const Scalar& b) {
  for (int i = 3; i >= 0; --i)
    if (a.w[i] != b.w[i]) return a.w[i] > b.w[i];
  return true;
}

// a - b, assuming a >= b.
ZKGPU_HD Scalar scalar_sub_raw(const Scalar& a, const Scalar& b) {
  Scalar r;
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t t = a.w[i] - b.w[i];
    const uint64_t b1 = a.w[i] < b.w[i];
    r.w[i] = t - borrow;
    borrow = b1 | (t < borrow);
  }
  return r;
}

// S < L over all 256 bits (RFC 8032 section 5.1.7; ref10's check of the top bits is not enough).
ZKGPU_HD bool scalar_is_canonical(const uint8_t s[32]) { return !scalar_geq(scalar_from_bytes(s), scalar_l()); }

// (little-endian bytes, any length) mod L, 32 bits at a time from the top: t = r 2^32 + w
// (< 2^285), q = floor(t / 2^252) (< 2^33), and t - q L = (t mod 2^252) - q c with
// c = L - 2^252 < 2^125, which lies in (-L, L): one conditional addition of L.
ZKGPU_HD Scalar scalar_reduce_bytes(const uint8_t* s, int len) {
  constexpr uint64_t C0 = 0x5812631a5cf5d3edull, C1 = 0x14def9dea2f79cd6ull;
  Scalar r{{0, 0, 0, 0}};
  for (int pos = (len + 3) / 4 * 4 - 4; pos >= 0; pos -= 4) {
    uint64_t w = 0;
    for (int j = 3; j >= 0; --j) w = (w << 8) | (pos + j < len ? s[pos + j] : 0);
    const uint64_t t4 = r.w[3] >> 32;
    const uint64_t t3 = (r.w[3] << 32) | (r.w[2] >> 32);
    const uint64_t t2 = (r.w[2] << 32) | (r.w[1] >> 32);
    const uint64_t t1 = (r.w[1] << 32) | (r.w[0] >> 32);
    const uint64_t t0 = (r.w[0] << 32) | w;
    const uint64_t q = (t4 << 4) | (t3 >> 60);
    const unsigned __int128 p0 = (unsigned __int128)q * C0, p1 = (unsigned __int128)q * C1;
    const uint64_t qc0 = static_cast<uint64_t>(p0);
    const unsigned __int128 mid = (p0 >> 64) + static_cast<uint64_t>(p1);
    const uint64_t qc1 = static_cast<uint64_t>(mid);
    const uint64_t qc2 = static_cast<uint64_t>(p1 >> 64) + static_cast<uint64_t>(mid >> 64);
    const Scalar low{{t0, t1, t2, t3 & ((uint64_t{1} << 60) - 1)}};
    const Scalar qc{{qc0, qc1, qc2, 0}};
    if (scalar_geq(low, qc)) {
      r = scalar_sub_raw(low, qc);
    } else {  // low - qc + L, computed as L - (qc - low)
      r = scalar_sub_raw(scalar_l(), scalar_sub_raw(qc, low));
    }
  }
  return r;
}

ZKGPU_HD Scalar scalar_add(const Scalar& a, const Scalar& b) {  // inputs < L
  Scalar r;
  uint64_t carry = 0;
  for (int i = 0; i < 4; ++i) {
    const uint64_t t = a.w[i] + carry;
    const uint64_t c1 = t < carry;
    r.w[i] = t + b.w[i];
    carry = c1 | (r.w[i] < t);
  }
  return scalar_geq(r, scalar_l()) ? scalar_sub_raw(r, scalar_l()) : r;
}

// a * b mod L for a, b < 2^256 (schoolbook into 512 bits, then the bitwise reduction).
ZKGPU_HD Scalar scalar_mul(const Scalar& a, const Scalar& b) {
  uint64_t p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 4; ++i) {
    uint64_t carry = 0;
    for (int j = 0; j < 4; ++j) {
      const unsigned __int128 t = (unsigned __int128)a.w[i] * b.w[j] + p[i + j] + carry;
      p[i + j] = static_cast<uint64_t>(t);
      carry = static_cast<uint64_t>(t >> 64);
    }
    p[i + 4] = carry;
  }
  uint8_t bytes[64];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) bytes[8 * i + j] = static_cast<uint8_t>(p[i] >> (8 * j));
  return scalar_reduce_bytes(bytes, 64);
}

// Signed sliding-window digits (width w: odd digits in [-(2^(w-1) - 1), 2^(w-1) - 1]) of a
// scalar < 2^255, least significant first (ref10 `slide`, generalised in w).
ZKGPU_HD void scalar_slide(int8_t r[256], const uint8_t a[32], int w) {
  const int bound = (1 << (w - 1)) - 1;
  for (int i = 0; i < 256; ++i) r[i] = static_cast<int8_t>(1 & (a[i >> 3] >> (i & 7)));
  for (int i = 0; i < 256; ++i) {
    if (!r[i]) continue;
    for (int b = 1; b <= w + 1 && i + b < 256; ++b) {
      if (!r[i + b]) continue;
      if (r[i] + (r[i + b] << b) <= bound) {
        r[i] = static_cast<int8_t>(r[i] + (r[i + b] << b));
        r[i + b] = 0;
      } else if (r[i] - (r[i + b] << b) >= -bound) {
        r[i] = static_cast<int8_t>(r[i] - (r[i + b] << b));
        for (int k = i + b; k < 256; ++k) {
          if (!r[k]) {
            r[k] = 1;
            break;
          }
          r[k] = 0;
        }
      } else {
        break;
      }
    }
  }
}

}  // namespace zkgpu::ed25519
