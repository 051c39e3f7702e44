// Device-only drivers that let one warp work on one ML-KEM item: the NTT and its inverse over a
// polynomial in shared memory (4 butterflies per lane per layer), K-PKE.KeyGen, K-PKE.Encrypt and
// K-PKE.Decrypt with each lane owning 8 consecutive coefficients (4 base-product pairs, one encoded
// group of d bytes). KeyGen and Encrypt take their SHAKE streams (the entries of A-hat, the PRF
// outputs for the CBD samples) already sampled, one per thread, by xof_kernel (mlkem_kernels.cu);
// sample_ntt_lane is that kernel's SampleNTT. All arithmetic is the core's; sums over j are
// reduced once, which equals the CPU's running reduction because barrett_reduce is the exact
// centred representative (see mlkem::basemul_pair).
#pragma once
#include "pq/cuda/pq_warp.cuh"
#include "zkgpu/core/mlkem/kem.hpp"

namespace zkgpu::cuda::mlkem_warp {

using mlkem::N;
using mlkem::Poly;
constexpr unsigned FULL_MASK = 0xffffffffu;

__device__ __forceinline__ void ntt(int16_t* a, int lane) {
#pragma unroll
  for (int len = 128; len >= 2; len >>= 1) {
    warp_ntt_layer(a, len, lane,
                   [&](int16_t& x, int16_t& y, int g) { mlkem::ntt_butterfly(x, y, mlkem::ntt_zeta(len, g)); });
  }
#pragma unroll
  for (int t = 0; t < 8; ++t) a[lane + 32 * t] = mlkem::barrett_reduce(a[lane + 32 * t]);
  __syncwarp();
}

__device__ __forceinline__ void invntt_tomont(int16_t* a, int lane) {
#pragma unroll
  for (int len = 2; len <= 128; len <<= 1) {
    warp_ntt_layer(a, len, lane,
                   [&](int16_t& x, int16_t& y, int g) { mlkem::invntt_butterfly(x, y, mlkem::invntt_zeta(len, g)); });
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

// SampleNTT(rho || b0 || b1) (Algorithm 7) for one thread into the 256 coefficients at a, as
// mlkem::sample_ntt (the XOF in registers, shake128_triples): each 3-byte value holds two 12-bit
// candidates.
__device__ __forceinline__ void sample_ntt_lane(int16_t* a, const uint8_t* rho, uint8_t b0, uint8_t b1) {
  int n = 0;
  shake128_triples(
      rho, b0, b1,
      [&](uint32_t v) {
        const int16_t d1 = int16_t(v & 0xfff), d2 = int16_t(v >> 12);
        if (n < N && d1 < mlkem::Q) a[n++] = d1;
        if (n < N && d2 < mlkem::Q) a[n++] = d2;
      },
      [&] { return n >= N; });
}

// This lane's 8 coefficients (8*lane .. 8*lane+7) of SamplePolyCBD_eta(B) for a PRF output B of
// 64*eta bytes: eta = 2 reads bytes 4*lane .. +3, eta = 3 bytes 6*lane .. +5 (two groups of 4).
__device__ __forceinline__ void cbd_lane(int16_t v[8], const uint8_t* prf, int eta, int lane) {
  if (eta == 2) {
    const uint8_t* p = prf + 4 * lane;
    mlkem::cbd2_group(v, uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24);
  } else {
    const uint8_t* p = prf + 6 * lane;
    mlkem::cbd3_group(v, uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16);
    mlkem::cbd3_group(v + 4, uint32_t(p[3]) | uint32_t(p[4]) << 8 | uint32_t(p[5]) << 16);
  }
}

// The second half of K-PKE.Encrypt (Algorithm 14) by one warp, once y-hat = NTT(y) is in shared
// memory: u_i = NTT^-1(sum_j A-hat[i][j] y-hat_j) + e1_i and v = NTT^-1(t-hat^T y-hat) + e2 +
// Decompress_1(m), compressed. a_lane(i, j, v) gives this lane's 8 coefficients of A-hat[i][j] =
// SampleNTT(rho || i || j), noise_lane(q, v) those of CBD(PRF(r, q)) for q = K .. 2K. With c_ref
// null it writes c; otherwise it writes nothing and returns 1 if the encryption differs from c_ref
// in any byte (the decapsulation's re-encryption check; every byte is compared). w is scratch.
template <int K, class ALane, class NoiseLane>
__device__ uint32_t encrypt_uv(const Poly* y, Poly& w, ALane&& a_lane, NoiseLane&& noise_lane, const uint8_t* ek,
                               const uint8_t* m, uint8_t* c, const uint8_t* c_ref, int lane) {
  using P = mlkem::Params<K>;
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
  // This lane's 8 coefficients of NTT^-1(sum_j operand_j o y-hat_j) + CBD(PRF(r, noise)), before
  // reduction: operand(j, v) gives those of operand_j. w holds the inverse NTT's input and output.
  auto row = [&](auto&& operand, int noise, int32_t out[8]) {
    int16_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < K; ++j) {
      int16_t a[8];
      operand(j, a);
      basemul_lane(acc, a, y[j].c + o, lane);
    }
#pragma unroll
    for (int e = 0; e < 8; ++e) w.c[o + e] = mlkem::barrett_reduce(acc[e]);
    __syncwarp();
    invntt_tomont(w.c, lane);
    int16_t err[8];
    noise_lane(noise, err);
#pragma unroll
    for (int e = 0; e < 8; ++e) out[e] = int32_t(w.c[o + e]) + err[e];
  };
  for (int i = 0; i < K; ++i) {  // u_i
    int32_t sum[8];
    row([&](int j, int16_t a[8]) { a_lane(i, j, a); }, K + i, sum);
    uint32_t v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      const int16_t u = mlkem::barrett_reduce(int16_t(sum[e]));
      v[e] = mlkem::compress(uint32_t(mlkem::to_canonical(u)), P::du);
    }
    const size_t at = size_t(32 * P::du * i + P::du * lane);
    emit(c ? c + at : nullptr, c_ref ? c_ref + at : nullptr, v, P::du);
    __syncwarp();  // w is rewritten next
  }
  {  // v
    int32_t sum[8];
    row([&](int j, int16_t t[8]) { decode12_lane(t, ek + 384 * j, lane); }, 2 * K, sum);
    const uint8_t mbyte = m[lane];
    uint32_t v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      const int16_t x = int16_t(sum[e] + mlkem::msg_coeff(mbyte, e));
      v[e] = mlkem::compress(uint32_t(mlkem::to_canonical(mlkem::barrett_reduce(x))), P::dv);
    }
    const size_t at = size_t(32 * P::du * K + P::dv * lane);
    emit(c ? c + at : nullptr, c_ref ? c_ref + at : nullptr, v, P::dv);
  }
  return __any_sync(FULL_MASK, differ) ? 1u : 0u;
}

// Where the SHAKE streams of a chunk lie once sampled (xof_kernel in mlkem_kernels.cu): A-hat of
// item t as K*K polynomials of 256 int16 (entry i*K + j at entry(t, i*K + j)), and its PRF
// outputs, `streams` per item, PRF_STRIDE bytes apart (noise(t, q)).
template <int K>
struct Sampled {
  static constexpr size_t PRF_STRIDE = 64 * mlkem::Params<K>::eta1;  // eta1 >= eta2
  int16_t* a;                                                        // written by xof_kernel, read by the warp kernels
  uint8_t* prf;
  int streams;
  __device__ const int16_t* entry(size_t t, int e) const { return a + size_t(mlkem::N) * (size_t(K * K) * t + e); }
  __device__ const uint8_t* noise(size_t t, int q) const { return prf + PRF_STRIDE * (size_t(streams) * t + q); }
};

// This lane's 8 coefficients of a sampled polynomial: 16 bytes per lane, 512 per warp, one
// coalesced load.
__device__ __forceinline__ void load_lane(int16_t v[8], const int16_t* poly, int lane) {
  const uint4 q = *reinterpret_cast<const uint4*>(poly + 8 * lane);
  const uint32_t w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
  for (int e = 0; e < 4; ++e) v[2 * e] = int16_t(w[e] & 0xffff), v[2 * e + 1] = int16_t(w[e] >> 16);
}

// ByteEncode_12 of this lane's 8 coefficients (in (-q, q)) to the 12 bytes at 12*lane of out.
__device__ __forceinline__ void encode12_lane(uint8_t* out, const int16_t v[8], int lane) {
  uint32_t u[8];
#pragma unroll
  for (int e = 0; e < 8; ++e) u[e] = uint32_t(mlkem::to_canonical(v[e]));
  uint8_t bytes[12];
  mlkem::byte_encode8(bytes, u, 12);
#pragma unroll
  for (int b = 0; b < 12; ++b) out[12 * lane + b] = bytes[b];
}

// p[j] = NTT(CBD_eta1(PRF(seed, q0 + j))) for j < COUNT: this lane's coefficients from the
// sampled PRF bytes, then the warp's transforms (the y of Encrypt, the s and e of KeyGen).
template <int COUNT, int K>
__device__ void noise_ntt(Poly* p, const Sampled<K>& in, size_t t, int q0, int lane) {
  for (int j = 0; j < COUNT; ++j) {
    int16_t v[8];
    cbd_lane(v, in.noise(t, q0 + j), mlkem::Params<K>::eta1, lane);
#pragma unroll
    for (int e = 0; e < 8; ++e) p[j].c[8 * lane + e] = v[e];
  }
  __syncwarp();
  for (int j = 0; j < COUNT; ++j) ntt(p[j].c, lane);
}

template <int K>
struct EncryptPolys {
  Poly y[K];  // CBD(PRF(r, j)), then NTT
  Poly w;     // u_i, then v, before the inverse NTT
};

// K-PKE.Encrypt(ek, m, r) of item t by one warp from its sampled streams (PRF(r, q) for q <= 2K);
// c / c_ref as in encrypt_uv.
template <int K>
__device__ uint32_t pke_encrypt_sampled(EncryptPolys<K>& S, Sampled<K> in, size_t t, const uint8_t* ek,
                                        const uint8_t* m, uint8_t* c, const uint8_t* c_ref, int lane) {
  using P = mlkem::Params<K>;
  noise_ntt<K>(S.y, in, t, 0, lane);
  return encrypt_uv<K>(
      S.y, S.w, [&](int i, int j, int16_t v[8]) { load_lane(v, in.entry(t, i * K + j), lane); },
      [&](int q, int16_t v[8]) { cbd_lane(v, in.noise(t, q), P::eta2, lane); }, ek, m, c, c_ref, lane);
}

template <int K>
struct KeygenPolys {
  Poly s[K];  // s-hat = NTT(CBD(PRF(sigma, j)))
  Poly e;     // e-hat_i = NTT(CBD(PRF(sigma, K + i)))
};

// K-PKE.KeyGen (Algorithm 13) of item t by one warp from its sampled streams (entry i*K + j =
// SampleNTT(rho || j || i), PRF(sigma, q) for q < 2K), as mlkem::pke_keygen: writes ek =
// ByteEncode_12(t-hat) || rho to ek and to ek2 (its copy inside dk) and ByteEncode_12(s-hat) to
// pke_sk. t-hat_i = (sum_j A-hat[i][j] s-hat_j reduced once, then to Montgomery form) + e-hat_i:
// the CPU reduces the sum as it goes, and barrett_reduce's exact centred representative makes the
// two equal (see mlkem::basemul_pair).
template <int K>
__device__ void pke_keygen_sampled(KeygenPolys<K>& S, Sampled<K> in, size_t t, const uint8_t* rho, uint8_t* ek,
                                   uint8_t* ek2, uint8_t* pke_sk, int lane) {
  const int o = 8 * lane;
  noise_ntt<K>(S.s, in, t, 0, lane);
  for (int j = 0; j < K; ++j) encode12_lane(pke_sk + 384 * j, S.s[j].c + o, lane);
  for (int i = 0; i < K; ++i) {
    noise_ntt<1>(&S.e, in, t, K + i, lane);
    int16_t v[8], acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < K; ++j) {
      int16_t a[8];
      load_lane(a, in.entry(t, i * K + j), lane);
      basemul_lane(acc, a, S.s[j].c + o, lane);
    }
#pragma unroll
    for (int e = 0; e < 8; ++e)
      v[e] = mlkem::barrett_reduce(int16_t(mlkem::tomont(mlkem::barrett_reduce(acc[e])) + S.e.c[o + e]));
    encode12_lane(ek + 384 * i, v, lane);
    encode12_lane(ek2 + 384 * i, v, lane);
    __syncwarp();  // S.e is rewritten next
  }
  ek[384 * K + lane] = rho[lane];
  ek2[384 * K + lane] = rho[lane];
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
