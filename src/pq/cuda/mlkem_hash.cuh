// The hashes of ML-KEM key generation, encapsulation and decapsulation for one thread with the Keccak state in
// registers (keccak_regs.cuh): H(ek), G(d || k), G(m || h), PRF(r, q) and J(z || c), on whole 64-bit lanes.
// Host-callable, so the CPU test (tests/keccak/keccak_regs_test.cpp) checks them against the core Sponge functions the
// CPU backend uses.
#pragma once
#include "zkgpu/core/mlkem/kem.hpp"
#include "pq/cuda/keccak_regs.cuh"

namespace zkgpu::cuda::mlkem_hash {

// h = H(ek) = SHA3-256(ek) as 4 lanes; ek 8-byte aligned.
template <int K>
ZKGPU_HD void hash_ek(uint64_t h[4], const uint8_t* ek) {
  uint64_t s[25];
  keccak_regs::absorb<keccak::SHA3_256_RATE, mlkem::Params<K>::ek_bytes>(s, ek, 0x06);
  ZKGPU_UNROLL
  for (int w = 0; w < 4; ++w) h[w] = s[w];
}

// (K, r) = G(m || h) = SHA3-512 as 8 lanes (K: lanes 0-3, r: lanes 4-7); m 8-byte aligned.
ZKGPU_HD void g_mh(uint64_t kr[8], const uint8_t* m, const uint64_t h[4]) {
  uint64_t s[25];
  keccak_regs::clear(s);
  ZKGPU_UNROLL
  for (int w = 0; w < 4; ++w) s[w] = keccak_regs::load64(m + 8 * w), s[4 + w] = h[w];
  keccak_regs::pad_permute<keccak::SHA3_512_RATE, 64>(s, 0x06);
  ZKGPU_UNROLL
  for (int w = 0; w < 8; ++w) kr[w] = s[w];
}

// (rho, sigma) = G(d || k) = SHA3-512 of 33 bytes as 8 lanes (key generation; the final
// standard's domain separator k); d 8-byte aligned.
template <int K>
ZKGPU_HD void g_seed(uint64_t rs[8], const uint8_t* d) {
  uint64_t s[25];
  keccak_regs::clear(s);
  ZKGPU_UNROLL
  for (int w = 0; w < 4; ++w) s[w] = keccak_regs::load64(d + 8 * w);
  s[4] = uint64_t(K);
  keccak_regs::pad_permute<keccak::SHA3_512_RATE, 33>(s, 0x06);
  ZKGPU_UNROLL
  for (int w = 0; w < 8; ++w) rs[w] = s[w];
}

// PRF_eta(r, q) = SHAKE256(r || q), 64*eta bytes as 8*eta lanes into out; r 8-byte aligned.
ZKGPU_HD void prf(uint64_t* out, const uint8_t* r, uint8_t q, int eta) {
  uint64_t s[25];
  keccak_regs::clear(s);
  ZKGPU_UNROLL
  for (int w = 0; w < 4; ++w) s[w] = keccak_regs::load64(r + 8 * w);
  s[4] = q;
  keccak_regs::pad_permute<keccak::SHAKE256_RATE, 33>(s, 0x1F);
  constexpr int RATE_LANES = keccak::SHAKE256_RATE / 8;  // 17: eta = 3 (24 lanes) needs a second block
  const int lanes = 8 * eta;
  ZKGPU_UNROLL
  for (int w = 0; w < RATE_LANES; ++w)
    if (w < lanes) out[w] = s[w];
  if (lanes > RATE_LANES) {
    keccak::keccak_permute(s);
    ZKGPU_UNROLL
    for (int w = 0; w < 3 * 8 - RATE_LANES; ++w) out[RATE_LANES + w] = s[w];
  }
}

// K-bar = J(z || c) = SHAKE256(z || c), 32 bytes as 4 lanes; z and c 8-byte aligned.
template <int K>
ZKGPU_HD void j_zc(uint64_t k[4], const uint8_t* z, const uint8_t* c) {
  uint64_t s[25];
  keccak_regs::absorb_lanes<keccak::SHAKE256_RATE, 32 + mlkem::Params<K>::c_bytes>(
      s, [&](size_t i) { return i < 4 ? keccak_regs::load64(z + 8 * i) : keccak_regs::load64(c + 8 * (i - 4)); }, 0x1F);
  ZKGPU_UNROLL
  for (int w = 0; w < 4; ++w) k[w] = s[w];
}

}  // namespace zkgpu::cuda::mlkem_hash
