// Four independent Keccak-f[1600] states permuted together (host only), for the SHAKE streams of
// ML-KEM and ML-DSA that do not depend on each other: the matrix entries of SampleNTT / ExpandA,
// the CBD and ExpandS noise, ExpandMask. The permutation has an AVX2 and an AVX-512VL version
// (keccak_x4_avx2.cpp, keccak_x4_avx512.cpp, picked at run time by simd_level()) and a portable
// one that runs the scalar core/keccak permutation four times. Sponge bookkeeping is portable.
#pragma once
#include <cstddef>
#include <cstdint>

namespace zkgpu::pq::cpu {

// Word w of instance j is s[w][j], so one 256-bit register holds the same word of all four.
struct alignas(32) KeccakX4 {
  uint64_t s[25][4];
};

void keccak_x4_permute(KeccakX4& st);           // the best version this CPU allows
void keccak_x4_permute_portable(KeccakX4& st);  // four scalar permutations (the reference)
void keccak_x4_permute_avx2(KeccakX4& st);      // call only when simd_level() >= Avx2
void keccak_x4_permute_avx512(KeccakX4& st);    // call only when simd_level() == Avx512

// A sponge of four instances with the same rate and input length (SHAKE128/256 with 0x1F padding,
// the only functions the samplers need): absorb the four inputs in one go, then squeeze whole
// blocks, each exactly the bytes the scalar keccak::Sponge would give.
struct ShakeX4 {
  KeccakX4 st;
  unsigned rate;

  // Absorbs in[j][0..len) into instance j and pads; the first squeeze_blocks permutes.
  ShakeX4(unsigned rate_bytes, const uint8_t* const in[4], size_t len);
  // Writes the next `blocks` output blocks (rate bytes each) of instance j to out[j].
  void squeeze_blocks(uint8_t* const out[4], size_t blocks);
};

}  // namespace zkgpu::pq::cpu
