// Device-only drivers that let one warp work on one ML-DSA item: the NTT and its inverse over a
// polynomial in shared memory (one butterfly per lane per step, 4 per lane per layer), and
// RejNTTPoly (ExpandA) with the SHAKE128 state in registers, one stream per lane. The arithmetic
// is the core's (ntt_butterfly, invntt_butterfly, montgomery_reduce, keccak_permute), so results
// are the CPU's bit for bit; only the order of the independent steps differs.
#pragma once
#include "pq/cuda/pq_warp.cuh"
#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/core/mldsa/params.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cuda::mldsa_warp {

using mldsa::N;
constexpr unsigned FULL_MASK = 0xffffffffu;

// NTT (Algorithm 41) of a[0..255] in shared memory by the 32 lanes of a warp. The caller has
// synchronised the warp after writing a; on return every lane sees the result.
__device__ __forceinline__ void ntt(int32_t* a, int lane) {
#pragma unroll
  for (int len = 128; len > 0; len >>= 1) {
    warp_ntt_layer(a, len, lane,
                   [&](int32_t& x, int32_t& y, int g) { mldsa::ntt_butterfly(x, y, mldsa::ntt_zeta(len, g)); });
  }
}

// Inverse NTT times 2^32 (Algorithm 42 as mldsa::invntt_tomont), same conventions as ntt.
__device__ __forceinline__ void invntt_tomont(int32_t* a, int lane) {
#pragma unroll
  for (int len = 1; len < N; len <<= 1) {
    warp_ntt_layer(a, len, lane,
                   [&](int32_t& x, int32_t& y, int g) { mldsa::invntt_butterfly(x, y, mldsa::invntt_zeta(len, g)); });
  }
#pragma unroll
  for (int t = 0; t < 8; ++t) a[lane + 32 * t] = mldsa::invntt_scale(a[lane + 32 * t]);
  __syncwarp();
}

// RejNTTPoly(rho || s || r) (Algorithms 30, 32) for one lane, as mldsa::sample_ntt (the XOF in
// registers, shake128_triples). emit(n, a) receives the accepted coefficients in order, n = 0..255.
template <class Emit>
__device__ __forceinline__ void rej_ntt_poly(const uint8_t* rho, uint8_t s, uint8_t r, Emit&& emit) {
  int n = 0;
  shake128_triples(
      rho, s, r,
      [&](uint32_t v) {
        const uint32_t a = v & 0x7fffff;
        if (a < uint32_t(mldsa::Q) && n < N) emit(n++, int32_t(a));
      },
      [&] { return n >= N; });
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
