// Keccak-f[1600] and the FIPS 202 functions ML-KEM and ML-DSA use: SHA3-256, SHA3-512, SHAKE128,
// SHAKE256. One host/device source; the sponge absorbs and squeezes incrementally so samplers read
// exactly as many XOF bytes as they need (never a fixed, possibly too short, buffer).
#pragma once
#include "zkgpu/core/common.hpp"

namespace zkgpu::keccak {

ZKGPU_HD uint64_t rotl64(uint64_t x, unsigned n) { return (x << n) | (x >> ((64 - n) & 63)); }

// Round constants of iota (FIPS 202 section 3.2.5). A __device__ copy serves CUDA kernels: the
// round loop indexes it at run time, and host constexpr data is not visible in device code.
#define ZKGPU_KECCAK_RC                                                                                                \
  {                                                                                                                    \
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull, 0x000000000000808bull, \
        0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull, 0x000000000000008aull,                    \
        0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull, 0x000000008000808bull,                    \
        0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull, 0x8000000000008002ull,                    \
        0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull, 0x8000000080008081ull,                    \
        0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull                                            \
  }
inline constexpr uint64_t KECCAK_RC[24] = ZKGPU_KECCAK_RC;
#if defined(__CUDACC__)
__device__ constexpr uint64_t KECCAK_RC_DEVICE[24] = ZKGPU_KECCAK_RC;
#endif
ZKGPU_HD uint64_t keccak_rc(int round) {
#if defined(__CUDA_ARCH__)
  return KECCAK_RC_DEVICE[round];
#else
  return KECCAK_RC[round];
#endif
}

// FIPS 202 section 3.3: 24 rounds of theta, rho, pi, chi, iota. Inlined where it is called, so a
// caller that holds the state in a local array indexed only by constants (the CUDA kernels that
// run one XOF per thread) keeps all 25 lanes in registers; keccak_f1600 below is the shared copy.
ZKGPU_HD void keccak_permute(uint64_t s[25]) {
  // rho offsets and pi destinations along the pi cycle starting at lane 1.
  constexpr unsigned ROT[24] = {1,  3,  6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
                                27, 41, 56, 8,  25, 43, 62, 18, 39, 61, 20, 44};
  constexpr unsigned PI[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5];
    ZKGPU_UNROLL
    for (int x = 0; x < 5; ++x) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    ZKGPU_UNROLL
    for (int x = 0; x < 5; ++x) {
      const uint64_t d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
      ZKGPU_UNROLL
      for (int y = 0; y < 25; y += 5) s[y + x] ^= d;
    }
    uint64_t t = s[1];
    ZKGPU_UNROLL
    for (int i = 0; i < 24; ++i) {
      const uint64_t next = s[PI[i]];
      s[PI[i]] = rotl64(t, ROT[i]);
      t = next;
    }
    ZKGPU_UNROLL
    for (int y = 0; y < 25; y += 5) {
      uint64_t row[5];
      ZKGPU_UNROLL
      for (int x = 0; x < 5; ++x) row[x] = s[y + x];
      ZKGPU_UNROLL
      for (int x = 0; x < 5; ++x) s[y + x] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
    }
    s[0] ^= keccak_rc(round);
  }
}
ZKGPU_HD_NOINLINE void keccak_f1600(uint64_t s[25]) { keccak_permute(s); }

// A sponge with rate `rate` bytes and domain suffix `suffix` (0x06 SHA3, 0x1F SHAKE). Absorb any
// number of times, then squeeze any number of times; squeezing before absorbing is finished is a
// caller bug, so squeeze() finalizes on first use.
struct Sponge {
  uint64_t s[25];
  unsigned rate;
  unsigned pos;  // byte position in the current block (absorbing or squeezing)
  uint8_t suffix;
  bool squeezing;

  ZKGPU_HD Sponge(unsigned rate_bytes, uint8_t domain)
      : s{}, rate(rate_bytes), pos(0), suffix(domain), squeezing(false) {}

  ZKGPU_HD void xor_byte(unsigned i, uint8_t b) { s[i >> 3] ^= uint64_t(b) << (8 * (i & 7)); }
  ZKGPU_HD uint8_t get_byte(unsigned i) const { return uint8_t(s[i >> 3] >> (8 * (i & 7))); }

  ZKGPU_HD_NOINLINE void absorb(const uint8_t* in, size_t len) {
    size_t i = 0;
    while (i < len) {
      if ((pos & 7) == 0 && len - i >= 8) {  // whole lanes: the common case, 8x fewer steps
        uint64_t w = 0;
        for (int b = 0; b < 8; ++b) w |= uint64_t(in[i + b]) << (8 * b);
        s[pos >> 3] ^= w;
        pos += 8;
        i += 8;
      } else {
        xor_byte(pos++, in[i++]);
      }
      if (pos == rate) {
        keccak_f1600(s);
        pos = 0;
      }
    }
  }
  ZKGPU_HD void absorb_byte(uint8_t b) { absorb(&b, 1); }

  ZKGPU_HD void finalize() {
    xor_byte(pos, suffix);
    xor_byte(rate - 1, 0x80);
    keccak_f1600(s);
    pos = 0;
    squeezing = true;
  }

  ZKGPU_HD_NOINLINE void squeeze(uint8_t* out, size_t len) {
    if (!squeezing) finalize();
    size_t i = 0;
    while (i < len) {
      if (pos == rate) {
        keccak_f1600(s);
        pos = 0;
      }
      if ((pos & 7) == 0 && len - i >= 8) {
        const uint64_t w = s[pos >> 3];
        for (int b = 0; b < 8; ++b) out[i + b] = uint8_t(w >> (8 * b));
        pos += 8;
        i += 8;
      } else {
        out[i++] = get_byte(pos++);
      }
    }
  }
};

inline constexpr unsigned SHAKE128_RATE = 168, SHAKE256_RATE = 136, SHA3_256_RATE = 136, SHA3_512_RATE = 72;

ZKGPU_HD Sponge shake128() { return Sponge(SHAKE128_RATE, 0x1F); }
ZKGPU_HD Sponge shake256() { return Sponge(SHAKE256_RATE, 0x1F); }
ZKGPU_HD Sponge sha3_256_sponge() { return Sponge(SHA3_256_RATE, 0x06); }
ZKGPU_HD Sponge sha3_512_sponge() { return Sponge(SHA3_512_RATE, 0x06); }

ZKGPU_HD void sha3_256(uint8_t out[32], const uint8_t* in, size_t len) {
  Sponge h = sha3_256_sponge();
  h.absorb(in, len);
  h.squeeze(out, 32);
}
ZKGPU_HD void sha3_512(uint8_t out[64], const uint8_t* in, size_t len) {
  Sponge h = sha3_512_sponge();
  h.absorb(in, len);
  h.squeeze(out, 64);
}
ZKGPU_HD void shake256(uint8_t* out, size_t outlen, const uint8_t* in, size_t len) {
  Sponge h = shake256();
  h.absorb(in, len);
  h.squeeze(out, outlen);
}
ZKGPU_HD void shake128(uint8_t* out, size_t outlen, const uint8_t* in, size_t len) {
  Sponge h = shake128();
  h.absorb(in, len);
  h.squeeze(out, outlen);
}

}  // namespace zkgpu::keccak
