// Device-only drivers that let one warp work on one ML-DSA item: the NTT and its inverse over a
// polynomial in shared memory (one butterfly per lane per step, 4 per lane per layer), and
// RejNTTPoly (ExpandA) with the SHAKE128 state in registers, one stream per lane. The arithmetic
// is the core's (ntt_butterfly, invntt_butterfly, montgomery_reduce, keccak_permute), so results
// are the CPU's bit for bit; only the order of the independent steps differs.
#pragma once
#include "pq/cuda/pq_warp.cuh"
#include "core/keccak/keccak.hpp"
#include "core/mldsa/params.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cuda::mldsa_warp {

using mldsa::N;
constexpr unsigned FULL_MASK = 0xffffffffu;

// NTT (Algorithm 41) of a[0..255] in shared memory by the 32 lanes of a warp. The caller has
// synchronised the warp after writing a; on return every lane sees the result.
__device__ __forceinline__ void ntt(int32_t* a, int lane) {
#pragma unroll
  for (int len = 128; len > 0; len >>= 1) {
    warp_ntt_layer(a, len, lane, [&](int32_t& x, int32_t& y, int g) {
      mldsa::ntt_butterfly(x, y, mldsa::ntt_zeta(len, g));
    });
  }
}

// Inverse NTT times 2^32 (Algorithm 42 as mldsa::invntt_tomont), same conventions as ntt.
__device__ __forceinline__ void invntt_tomont(int32_t* a, int lane) {
#pragma unroll
  for (int len = 1; len < N; len <<= 1) {
    warp_ntt_layer(a, len, lane, [&](int32_t& x, int32_t& y, int g) {
      mldsa::invntt_butterfly(x, y, mldsa::invntt_zeta(len, g));
    });
  }
#pragma unroll
  for (int t = 0; t < 8; ++t) a[lane + 32 * t] = mldsa::invntt_scale(a[lane + 32 * t]);
  __syncwarp();
}

// RejNTTPoly(rho || s || r) (Algorithms 30, 32) for one lane, as mldsa::sample_ntt: SHAKE128 is
// absorbed and padded in place (34 bytes fit in the first block), then each 168-byte block is read
// as 56 little-endian 3-byte values straight from the state lanes. emit(n, a) receives the
// accepted coefficients in order, n = 0..255. rho: 32 bytes of global memory.
template <class Emit>
__device__ __forceinline__ void rej_ntt_poly(const uint8_t* rho, uint8_t s, uint8_t r, Emit&& emit) {
  uint64_t st[25];
#pragma unroll
  for (int i = 0; i < 25; ++i) st[i] = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    uint64_t w = 0;
#pragma unroll
    for (int b = 0; b < 8; ++b) w |= uint64_t(rho[8 * i + b]) << (8 * b);
    st[i] = w;
  }
  st[4] = uint64_t(s) | uint64_t(r) << 8 | uint64_t(0x1F) << 16;  // SHAKE domain bits at byte 34
  st[20] = uint64_t(0x80) << 56;                                  // final bit of the 168-byte rate
  int n = 0;
  while (n < N) {
    keccak::keccak_permute(st);
#pragma unroll
    for (int g = 0; g < 7; ++g) {  // 3 lanes = 24 bytes = 8 values
#pragma unroll
      for (int t = 0; t < 8; ++t) {
        const int bit = 24 * t, lo = bit / 64, off = bit % 64;
        uint64_t v = st[3 * g + lo] >> off;
        if (off > 40) v |= st[3 * g + lo + 1] << (64 - off);
        const uint32_t a = uint32_t(v) & 0x7fffff;
        if (a < uint32_t(mldsa::Q) && n < N) emit(n++, int32_t(a));
      }
    }
  }
}

// Calls f.template operator()<P>() for the parameter set of an ML-DSA level (44, 65, 87).
template <class F>
void with_level(int level, F&& f) {
  if (level == 44) return f.template operator()<mldsa::P44>();
  if (level == 65) return f.template operator()<mldsa::P65>();
  if (level == 87) return f.template operator()<mldsa::P87>();
  throw_invalid("ML-DSA level must be 44, 65 or 87");
}

}  // namespace zkgpu::cuda::mldsa_warp
