// FIPS 202 sponges for one CUDA thread with the 25-lane state in registers (the core's
// keccak_permute inlined; every state index a compile-time constant after unrolling), for inputs
// made of whole 64-bit lanes at 8-byte aligned addresses: ek and m in the pipeline's buffers,
// (K, r) in its scratch. The core Sponge (keccak.hpp) keeps its state in local memory and absorbs
// byte by byte; for the hashes of a batch item (H(ek): 9 permutations) that costs more than the
// permutations themselves. Host-callable too, so a CPU test compares it with the core Sponge.
#pragma once
#include <cstring>

#include "zkgpu/core/keccak/keccak.hpp"

namespace zkgpu::cuda::keccak_regs {

// The little-endian lane at an 8-byte aligned address (one load on the device).
ZKGPU_HD uint64_t load64(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const uint64_t*>(p);
#else
  uint64_t w = 0;
  for (int b = 0; b < 8; ++b) w |= uint64_t(p[b]) << (8 * b);
  return w;
#endif
}

ZKGPU_HD void clear(uint64_t (&s)[25]) {
  ZKGPU_UNROLL
  for (int i = 0; i < 25; ++i) s[i] = 0;
}

// Padding (the domain bits `suffix`, then pad10*1) for a message whose last block holds BYTES
// bytes, already XORed into s.
template <unsigned RATE, unsigned BYTES>
ZKGPU_HD void pad(uint64_t (&s)[25], uint8_t suffix) {
  static_assert(RATE % 8 == 0 && BYTES < RATE, "the padding starts inside the last block");
  s[BYTES / 8] ^= uint64_t(suffix) << (8 * (BYTES % 8));
  s[RATE / 8 - 1] ^= uint64_t(0x80) << 56;
}

// pad, then the permutation: s[0 .. RATE/8) is the first output block.
template <unsigned RATE, unsigned BYTES>
ZKGPU_HD void pad_permute(uint64_t (&s)[25], uint8_t suffix) {
  pad<RATE, BYTES>(s, suffix);
  keccak::keccak_permute(s);
}

// Absorbs a message of LEN bytes (whole lanes) into a cleared state, pads and permutes; lane(i)
// gives message lane i (so a message may be pieced together from several buffers).
template <unsigned RATE, size_t LEN, class Lane>
ZKGPU_HD void absorb_lanes(uint64_t (&s)[25], Lane&& lane, uint8_t suffix) {
  static_assert(LEN % 8 == 0, "whole lanes only");
  constexpr unsigned W = RATE / 8;
  constexpr size_t TAIL = LEN / RATE * RATE;
  clear(s);
  ZKGPU_NO_UNROLL  // one inlined permutation for all full blocks
      for (size_t b = 0; b < LEN / RATE; ++b) {
    ZKGPU_UNROLL
    for (unsigned i = 0; i < W; ++i) s[i] ^= lane(W * b + i);
    keccak::keccak_permute(s);
  }
  ZKGPU_UNROLL
  for (unsigned i = 0; i < (LEN - TAIL) / 8; ++i) s[i] ^= lane(TAIL / 8 + i);
  pad_permute<RATE, unsigned(LEN - TAIL)>(s, suffix);
}

// absorb_lanes over one 8-byte aligned buffer.
template <unsigned RATE, size_t LEN>
ZKGPU_HD void absorb(uint64_t (&s)[25], const uint8_t* in, uint8_t suffix) {
  absorb_lanes<RATE, LEN>(
      s, [&](size_t i) { return load64(in + 8 * i); }, suffix);
}

}  // namespace zkgpu::cuda::keccak_regs
