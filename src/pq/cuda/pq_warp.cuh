// Shared by the ML-KEM and ML-DSA warp drivers: one NTT layer over a 256-coefficient polynomial in
// shared memory, 128 butterflies spread over the 32 lanes of a warp (4 each).
#pragma once
#include "zkgpu/core/keccak/keccak.hpp"

namespace zkgpu::cuda {

// Butterfly b = lane + 32 t of the layer of half-length len pairs a[j] and a[j + len], with
// j = 2 len g + b mod len in group g = b / len; bf(a[j], a[j + len], g) does the arithmetic. All
// lanes see the layer's results on return.
template <class T, class Butterfly>
__device__ __forceinline__ void warp_ntt_layer(T* a, int len, int lane, Butterfly&& bf) {
#pragma unroll
  for (int t = 0; t < 4; ++t) {
    const int b = lane + 32 * t;
    const int g = b / len, j = 2 * len * g + b % len;
    bf(a[j], a[j + len], g);
  }
  __syncwarp();
}

// SHAKE128(seed || b0 || b1) for one thread, with the state in registers (keccak_permute
// inlined): the 34 input bytes fit the first block and are absorbed and padded in place, then each
// 168-byte output block is handed to take(v) as 56 little-endian 3-byte values, read straight from
// the state lanes, until done() holds. The XOF of RejNTTPoly (ML-DSA) and SampleNTT (ML-KEM).
template <class Take, class Done>
__device__ __forceinline__ void shake128_triples(const uint8_t* seed, uint8_t b0, uint8_t b1, Take&& take,
                                                 Done&& done) {
  uint64_t st[25];
#pragma unroll
  for (int i = 0; i < 25; ++i) st[i] = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    uint64_t w = 0;
#pragma unroll
    for (int b = 0; b < 8; ++b) w |= uint64_t(seed[8 * i + b]) << (8 * b);
    st[i] = w;
  }
  st[4] = uint64_t(b0) | uint64_t(b1) << 8 | uint64_t(0x1F) << 16;  // SHAKE domain bits at byte 34
  st[20] = uint64_t(0x80) << 56;                                    // final bit of the 168-byte rate
  do {
    keccak::keccak_permute(st);
#pragma unroll
    for (int g = 0; g < 7; ++g) {  // 3 lanes = 24 bytes = 8 values
#pragma unroll
      for (int t = 0; t < 8; ++t) {
        const int bit = 24 * t, lo = bit / 64, off = bit % 64;
        uint64_t v = st[3 * g + lo] >> off;
        if (off > 40) v |= st[3 * g + lo + 1] << (64 - off);
        take(uint32_t(v) & 0xffffff);
      }
    }
  } while (!done());
}

}  // namespace zkgpu::cuda
