// The register regrouping of the AVX2 NTTs (ML-KEM's 16 x int16, ML-DSA's 8 x int32): the
// butterflies whose partners sit in the same 256-bit register, 16, 8 or 4 bytes apart, run after
// regrouping two registers so every lane of a has its partner in the same lane of b. Included
// only by files compiled with -mavx2.
#pragma once
#include <immintrin.h>

namespace zkgpu::pq::cpu {

// Partners `bytes` apart (16, 8 or 4) in v0 and v1 -> a (first partners), b (second partners).
// The regrouping is its own inverse: regroup(a, b) gives back v0 and v1.
inline void regroup(__m256i v0, __m256i v1, int bytes, __m256i& a, __m256i& b) {
  if (bytes == 16) {
    a = _mm256_permute2x128_si256(v0, v1, 0x20);
    b = _mm256_permute2x128_si256(v0, v1, 0x31);
  } else if (bytes == 8) {
    a = _mm256_unpacklo_epi64(v0, v1);
    b = _mm256_unpackhi_epi64(v0, v1);
  } else {  // 4
    a = _mm256_blend_epi32(v0, _mm256_slli_epi64(v1, 32), 0xAA);
    b = _mm256_blend_epi32(_mm256_srli_epi64(v0, 32), v1, 0xAA);
  }
}

}  // namespace zkgpu::pq::cpu
