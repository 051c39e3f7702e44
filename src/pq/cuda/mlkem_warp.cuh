// Device-only drivers that let one warp work on one ML-KEM item: the NTT and its inverse over a
// polynomial in shared memory (4 butterflies per lane per layer), K-PKE.Encrypt and K-PKE.Decrypt
// with the SHAKE streams of an item one per lane (SampleNTT with its state in registers, core
// sample_cbd) and each lane owning 8 consecutive coefficients (4 base-product pairs, one encoded
// group of d bytes). All
// arithmetic is the core's; sums over j are reduced once, which equals the CPU's running reduction
// because barrett_reduce is the exact centred representative (see mlkem::basemul_pair).
#pragma once
#include "pq/cuda/pq_warp.cuh"
#include "core/mlkem/kem.hpp"

namespace zkgpu::cuda::mlkem_warp {

using mlkem::N;
using mlkem::Poly;
constexpr unsigned FULL_MASK = 0xffffffffu;

__device__ __forceinline__ void ntt(int16_t* a, int lane) {
#pragma unroll
  for (int len = 128; len >= 2; len >>= 1) {
    warp_ntt_layer(a, len, lane, [&](int16_t& x, int16_t& y, int g) {
      mlkem::ntt_butterfly(x, y, mlkem::ntt_zeta(len, g));
    });
  }
#pragma unroll
  for (int t = 0; t < 8; ++t) a[lane + 32 * t] = mlkem::barrett_reduce(a[lane + 32 * t]);
  __syncwarp();
}

__device__ __forceinline__ void invntt_tomont(int16_t* a, int lane) {
#pragma unroll
  for (int len = 2; len <= 128; len <<= 1) {
    warp_ntt_layer(a, len, lane, [&](int16_t& x, int16_t& y, int g) {
      mlkem::invntt_butterfly(x, y, mlkem::invntt_zeta(len, g));
    });
  }
#pragma unroll
  for (int t = 0; t < 8; ++t) a[lane + 32 * t] = mlkem::invntt_scale(a[lane + 32 * t]);
  __syncwarp();
}

// acc[0..7] += the base products of this lane's 4 pairs (coefficients 8*lane .. 8*lane+7) of a, b.
__device__ __forceinline__ void basemul_lane(int16_t acc[8], const int16_t a[8], const int16_t b[8], int lane) {
#pragma unroll
  for (int t = 0; t < 4; ++t) {
    int16_t r0, r1;
    mlkem::basemul_pair(r0, r1, a[2 * t], a[2 * t + 1], b[2 * t], b[2 * t + 1], mlkem::basemul_zeta(4 * lane + t));
    acc[2 * t] = int16_t(acc[2 * t] + r0);
    acc[2 * t + 1] = int16_t(acc[2 * t + 1] + r1);
  }
}

// ByteDecode_12 of this lane's 8 coefficients of an encoded polynomial (12 bytes at 12*lane).
__device__ __forceinline__ void decode12_lane(int16_t v[8], const uint8_t* poly, int lane) {
  uint32_t u[8];
  mlkem::byte_decode8(u, poly + 12 * lane, 12);
#pragma unroll
  for (int e = 0; e < 8; ++e) v[e] = int16_t(u[e]);
}

// The modulus check of ek (FIPS 203 section 7.2) by one warp: true if every coefficient < q.
template <int K>
__device__ __forceinline__ bool ek_valid(const uint8_t* ek, int lane) {
  uint32_t bad = 0;
  for (int j = 0; j < K; ++j) {
    uint32_t u[8];
    mlkem::byte_decode8(u, ek + 384 * j + 12 * lane, 12);
#pragma unroll
    for (int e = 0; e < 8; ++e) bad |= (uint32_t(mlkem::Q - 1) - u[e]) >> 31;
  }
  return !__any_sync(FULL_MASK, bad);
}

// SampleNTT(rho || b0 || b1) (Algorithm 7) for one lane into a, as mlkem::sample_ntt (the XOF in
// registers, shake128_triples): each 3-byte value holds two 12-bit candidates.
__device__ __forceinline__ void sample_ntt_lane(Poly& a, const uint8_t* rho, uint8_t b0, uint8_t b1) {
  int n = 0;
  shake128_triples(
      rho, b0, b1,
      [&](uint32_t v) {
        const int16_t d1 = int16_t(v & 0xfff), d2 = int16_t(v >> 12);
        if (n < N && d1 < mlkem::Q) a.c[n++] = d1;
        if (n < N && d2 < mlkem::Q) a.c[n++] = d2;
      },
      [&] { return n >= N; });
}

template <int K>
struct EncryptShared {
  Poly a[K][K];  // a[i][j] = SampleNTT(rho || i || j): the entries of A^T that u_i uses
  Poly y[K];     // CBD(r, j), then NTT
  Poly e1[K];    // CBD(r, K + i)
  Poly e2;       // CBD(r, 2K)
  Poly w;        // u_i, then v, before the inverse NTT
};

// K-PKE.Encrypt(ek, m, r) (Algorithm 14) by one warp, as mlkem::pke_encrypt. With c_ref null it
// writes c; otherwise it writes nothing and returns 1 if the encryption differs from c_ref in any
// byte (the decapsulation's re-encryption check; every byte is compared). m and r may be shared.
template <int K>
__device__ uint32_t pke_encrypt(EncryptShared<K>& S, const uint8_t* ek, const uint8_t* m, const uint8_t* r, uint8_t* c,
                                const uint8_t* c_ref, int lane) {
  using P = mlkem::Params<K>;
  const uint8_t* rho = ek + 384 * K;
  for (int s = lane; s < K * K + 2 * K + 1; s += 32) {  // one SHAKE stream per lane
    if (s < K * K) {
      sample_ntt_lane(S.a[s / K][s % K], rho, uint8_t(s / K), uint8_t(s % K));
    } else {
      const int q = s - K * K;  // the PRF nonce
      Poly& dst = q < K ? S.y[q] : q < 2 * K ? S.e1[q - K] : S.e2;
      mlkem::sample_cbd(dst, r, uint8_t(q), q < K ? P::eta1 : P::eta2);
    }
  }
  __syncwarp();
  for (int j = 0; j < K; ++j) ntt(S.y[j].c, lane);
  const int o = 8 * lane;  // this lane's coefficients o .. o+7
  uint32_t differ = 0;
  auto emit = [&](uint8_t* dst, const uint8_t* ref, const uint32_t v[8], int d) {
    uint8_t bytes[11];
    mlkem::byte_encode8(bytes, v, d);
    for (int b = 0; b < d; ++b) {
      if (ref)
        differ |= uint32_t(bytes[b] ^ ref[b]);
      else
        dst[b] = bytes[b];
    }
  };
  for (int i = 0; i < K; ++i) {  // u_i = NTT^-1(sum_j A[j][i] y_j) + e1_i
    int16_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < K; ++j) basemul_lane(acc, S.a[i][j].c + o, S.y[j].c + o, lane);
#pragma unroll
    for (int e = 0; e < 8; ++e) S.w.c[o + e] = mlkem::barrett_reduce(acc[e]);
    __syncwarp();
    invntt_tomont(S.w.c, lane);
    uint32_t v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      const int16_t u = mlkem::barrett_reduce(int16_t(S.w.c[o + e] + S.e1[i].c[o + e]));
      v[e] = mlkem::compress(uint32_t(mlkem::to_canonical(u)), P::du);
    }
    const size_t at = size_t(32 * P::du * i + P::du * lane);
    emit(c ? c + at : nullptr, c_ref ? c_ref + at : nullptr, v, P::du);
    __syncwarp();  // S.w is rewritten next
  }
  {  // v = NTT^-1(t^T y) + e2 + Decompress_1(m)
    int16_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < K; ++j) {
      int16_t t[8];
      decode12_lane(t, ek + 384 * j, lane);
      basemul_lane(acc, t, S.y[j].c + o, lane);
    }
#pragma unroll
    for (int e = 0; e < 8; ++e) S.w.c[o + e] = mlkem::barrett_reduce(acc[e]);
    __syncwarp();
    invntt_tomont(S.w.c, lane);
    const uint8_t mbyte = m[lane];
    uint32_t v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      const int16_t x = int16_t(S.w.c[o + e] + S.e2.c[o + e] + mlkem::msg_coeff(mbyte, e));
      v[e] = mlkem::compress(uint32_t(mlkem::to_canonical(mlkem::barrett_reduce(x))), P::dv);
    }
    const size_t at = size_t(32 * P::du * K + P::dv * lane);
    emit(c ? c + at : nullptr, c_ref ? c_ref + at : nullptr, v, P::dv);
  }
  return __any_sync(FULL_MASK, differ) ? 1u : 0u;
}

// K-PKE.Decrypt(dk_pke, c) (Algorithm 15) by one warp, as mlkem::pke_decrypt: lane l writes m[l].
template <int K>
__device__ void pke_decrypt(Poly& scratch, const uint8_t* pke_sk, const uint8_t* c, uint8_t* m, int lane) {
  using P = mlkem::Params<K>;
  const int o = 8 * lane;
  int16_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < K; ++i) {  // w = s^T NTT(u)
    uint32_t u[8];
    mlkem::byte_decode8(u, c + 32 * P::du * i + P::du * lane, P::du);
#pragma unroll
    for (int e = 0; e < 8; ++e) scratch.c[o + e] = mlkem::decompress(u[e], P::du);
    __syncwarp();
    ntt(scratch.c, lane);
    int16_t s[8];
    decode12_lane(s, pke_sk + 384 * i, lane);
    basemul_lane(acc, s, scratch.c + o, lane);
    __syncwarp();  // scratch is rewritten next
  }
#pragma unroll
  for (int e = 0; e < 8; ++e) scratch.c[o + e] = mlkem::barrett_reduce(acc[e]);
  __syncwarp();
  invntt_tomont(scratch.c, lane);
  uint32_t v[8];
  mlkem::byte_decode8(v, c + 32 * P::du * K + P::dv * lane, P::dv);
  int16_t w[8];
#pragma unroll
  for (int e = 0; e < 8; ++e)  // v - w, reduced (poly_sub_from, poly_reduce)
    w[e] = mlkem::barrett_reduce(int16_t(mlkem::decompress(v[e], P::dv) - scratch.c[o + e]));
  m[lane] = mlkem::msg_byte(w);
  __syncwarp();
}

}  // namespace zkgpu::cuda::mlkem_warp
