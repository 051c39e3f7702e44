// ML-DSA samplers (FIPS 204 section 7.3): RejNTTPoly (ExpandA), RejBoundedPoly (ExpandS),
// ExpandMask and SampleInBall. Each reads its XOF block by block for as long as it needs.
#pragma once
#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/core/mldsa/pack.hpp"
#include "zkgpu/core/pq/ct.hpp"

namespace zkgpu::mldsa {

// The rejection step of RejNTTPoly: parses buf (len a multiple of 3) into a.c[n..256) and
// returns the new count. Public data.
ZKGPU_HD int rej_uniform(Poly& a, int n, const uint8_t* buf, unsigned len) {
  for (unsigned b = 0; b + 3 <= len && n < N; b += 3) {
    const uint32_t t = (uint32_t(buf[b]) | uint32_t(buf[b + 1]) << 8 | uint32_t(buf[b + 2]) << 16) & 0x7fffff;
    if (t < uint32_t(Q)) a.c[n++] = int32_t(t);
  }
  return n;
}

// A[r][s] = RejNTTPoly(rho || s || r) (Algorithms 30, 32); public data.
ZKGPU_HD_NOINLINE void sample_ntt(Poly& a, const uint8_t rho[32], uint8_t s, uint8_t r) {
  keccak::Sponge xof = keccak::shake128();
  xof.absorb(rho, 32);
  xof.absorb_byte(s);
  xof.absorb_byte(r);
  uint8_t buf[keccak::SHAKE128_RATE];  // 168 = 56 triples
  int n = 0;
  while (n < N) {
    xof.squeeze(buf, sizeof buf);
    n = rej_uniform(a, n, buf, sizeof buf);
  }
}

// The rejection step of RejBoundedPoly (Algorithm 31) for eta = 2 or 4: parses the nibbles of
// buf into a.c[n..256) and returns the new count. The accept/reject decision per nibble is
// declassified: it depends only on whether a nibble is >= 15 (or 9), which is independent of the
// accepted coefficients; the coefficient values stay secret (n mod 5 by multiply-shift, no
// division).
ZKGPU_HD int rej_eta(Poly& a, int n, const uint8_t* buf, unsigned len, int eta) {
  for (unsigned b = 0; b < len && n < N; ++b) {
    for (int half = 0; half < 2 && n < N; ++half) {
      const uint32_t z = half ? uint32_t(buf[b] >> 4) : uint32_t(buf[b] & 15);
      if (eta == 2) {
        if (pq::ct_declassify_value(uint32_t(z < 15))) a.c[n++] = 2 - int32_t(z - ((205 * z) >> 10) * 5);
      } else {
        if (pq::ct_declassify_value(uint32_t(z < 9))) a.c[n++] = 4 - int32_t(z);
      }
    }
  }
  return n;
}

// RejBoundedPoly(rho' || nonce) (Algorithm 31).
ZKGPU_HD_NOINLINE void sample_eta(Poly& a, const uint8_t rhop[64], uint16_t nonce, int eta) {
  keccak::Sponge h = keccak::shake256();
  h.absorb(rhop, 64);
  h.absorb_byte(uint8_t(nonce));
  h.absorb_byte(uint8_t(nonce >> 8));
  uint8_t buf[keccak::SHAKE256_RATE];
  int n = 0;
  while (n < N) {
    h.squeeze(buf, sizeof buf);
    n = rej_eta(a, n, buf, sizeof buf, eta);
  }
}

// ExpandMask entry (Algorithm 34): y = BitUnpack(H(rho'' || IntegerToBytes(kappa, 2)), gamma1-1, gamma1).
ZKGPU_HD_NOINLINE void sample_mask(Poly& y, const uint8_t rhopp[64], uint16_t kappa, int gamma1_bits) {
  uint8_t buf[32 * 20];
  keccak::Sponge h = keccak::shake256();
  h.absorb(rhopp, 64);
  h.absorb_byte(uint8_t(kappa));
  h.absorb_byte(uint8_t(kappa >> 8));
  const int bits = gamma1_bits + 1;
  h.squeeze(buf, size_t(32 * bits));
  unpack_bits(y, buf, bits, int32_t(1) << gamma1_bits);
}

// SampleInBall (Algorithm 29): tau coefficients +-1 placed by a Fisher-Yates walk driven by
// H(c~). Its running time depends on c~, which signing declassifies first (see dsa.hpp).
ZKGPU_HD_NOINLINE void sample_in_ball(Poly& c, const uint8_t* ctilde, int ctilde_bytes, int tau) {
  keccak::Sponge h = keccak::shake256();
  h.absorb(ctilde, size_t(ctilde_bytes));
  uint8_t buf[keccak::SHAKE256_RATE];
  h.squeeze(buf, sizeof buf);
  uint64_t signs = 0;
  for (int i = 0; i < 8; ++i) signs |= uint64_t(buf[i]) << (8 * i);
  unsigned pos = 8;
  poly_zero(c);
  for (int i = N - tau; i < N; ++i) {
    unsigned b;
    do {
      if (pos >= sizeof buf) {
        h.squeeze(buf, sizeof buf);
        pos = 0;
      }
      b = buf[pos++];
    } while (b > unsigned(i));
    c.c[i] = c.c[b];
    c.c[b] = 1 - 2 * int32_t(signs & 1);
    signs >>= 1;
  }
}

}  // namespace zkgpu::mldsa
