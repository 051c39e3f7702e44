// ML-KEM samplers (FIPS 203 section 4.2.2): SampleNTT (rejection sampling from SHAKE128, reading
// the XOF block by block for as long as it takes) and SamplePolyCBD_eta fed by PRF = SHAKE256.
#pragma once
#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/core/mlkem/poly.hpp"

namespace zkgpu::mlkem {

// The rejection step of Algorithm 7: parses buf (len a multiple of 3) into a.c[n..256) and returns
// the new count. Public data (rho), so its branches are fine.
ZKGPU_HD int rej_uniform(Poly& a, int n, const uint8_t* buf, unsigned len) {
  for (unsigned b = 0; b + 3 <= len && n < N; b += 3) {
    const uint16_t d1 = uint16_t(buf[b] | ((buf[b + 1] & 0x0f) << 8));
    const uint16_t d2 = uint16_t((buf[b + 1] >> 4) | (buf[b + 2] << 4));
    if (d1 < Q) a.c[n++] = int16_t(d1);
    if (d2 < Q && n < N) a.c[n++] = int16_t(d2);
  }
  return n;
}

// Algorithm 7 on rho || j || i. Works on public data (rho), so its variable running time is fine.
ZKGPU_HD_NOINLINE void sample_ntt(Poly& a, const uint8_t rho[32], uint8_t j, uint8_t i) {
  keccak::Sponge xof = keccak::shake128();
  xof.absorb(rho, 32);
  xof.absorb_byte(j);
  xof.absorb_byte(i);
  uint8_t buf[keccak::SHAKE128_RATE];  // 168 = 56 triples: a block never splits a triple
  int n = 0;
  while (n < N) {
    xof.squeeze(buf, sizeof buf);
    n = rej_uniform(a, n, buf, sizeof buf);
  }
}

// Algorithm 8, one group of coefficients at a time (the CUDA warp kernels give each lane its own
// groups): eta = 2 turns 4 PRF bytes t (little-endian) into 8 coefficients, eta = 3 turns 3 bytes
// into 4; each is sum(bits of x) - sum(bits of y), branch-free.
ZKGPU_HD void cbd2_group(int16_t r[8], uint32_t t) {
  const uint32_t d = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
  for (int j = 0; j < 8; ++j) r[j] = int16_t(int((d >> (4 * j)) & 3) - int((d >> (4 * j + 2)) & 3));
}
ZKGPU_HD void cbd3_group(int16_t r[4], uint32_t t) {
  const uint32_t d = (t & 0x00249249u) + ((t >> 1) & 0x00249249u) + ((t >> 2) & 0x00249249u);
  for (int j = 0; j < 4; ++j) r[j] = int16_t(int((d >> (6 * j)) & 7) - int((d >> (6 * j + 3)) & 7));
}

// Algorithm 8 on 64*eta PRF bytes.
ZKGPU_HD void cbd_from_bytes(Poly& r, const uint8_t* buf, int eta) {
  if (eta == 2) {
    for (int i = 0; i < N / 8; ++i)
      cbd2_group(r.c + 8 * i, uint32_t(buf[4 * i]) | uint32_t(buf[4 * i + 1]) << 8 | uint32_t(buf[4 * i + 2]) << 16 |
                                  uint32_t(buf[4 * i + 3]) << 24);
  } else {  // eta == 3
    for (int i = 0; i < N / 4; ++i)
      cbd3_group(r.c + 4 * i, uint32_t(buf[3 * i]) | uint32_t(buf[3 * i + 1]) << 8 | uint32_t(buf[3 * i + 2]) << 16);
  }
}

// SamplePolyCBD_eta(PRF_eta(seed, nonce)).
ZKGPU_HD_NOINLINE void sample_cbd(Poly& r, const uint8_t seed[32], uint8_t nonce, int eta) {
  uint8_t buf[64 * 3];
  keccak::Sponge prf = keccak::shake256();
  prf.absorb(seed, 32);
  prf.absorb_byte(nonce);
  prf.squeeze(buf, size_t(64 * eta));
  cbd_from_bytes(r, buf, eta);
}

}  // namespace zkgpu::mlkem
