// ML-DSA NTT, inverse NTT and pointwise products with AVX2, 8 int32 coefficients per register.
// Every lane runs exactly the int32/int64 operation sequence of core/mldsa/poly.hpp (the
// Montgomery reduction as two 32x32->64 products on the even and the odd lanes), so results equal
// the portable functions bit for bit. Coefficients stay in the standard order; the layers with
// partners inside one register (distance 4, 2, 1) regroup two registers first (regroup_avx2.hpp).
// Compiled with -mavx2; called only after the runtime check (mldsa_cpu.cpp).
#include <immintrin.h>

#include "pq/cpu/mldsa_simd.hpp"
#include "pq/cpu/regroup_avx2.hpp"

namespace zkgpu::pq::cpu {

using mldsa::N;
using mldsa::Poly;
using V = __m256i;

namespace {

inline V load(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const V*>(p)); }
inline void store(int32_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<V*>(p), v); }
inline V set1(int32_t x) { return _mm256_set1_epi32(x); }

// montgomery_reduce(int64(a) * b) per lane: t = lo32(a * b) * q^-1 mod 2^32, then the high half
// of a * b - t * q (its low half is zero), for the even and the odd lanes separately.
inline V mont_mul(V a, V b) {
  const V qinv = set1(mldsa::QINV), q = set1(mldsa::Q);
  const V pe = _mm256_mul_epi32(a, b);
  const V po = _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
  const V te = _mm256_mul_epi32(_mm256_mul_epi32(pe, qinv), q);
  const V to = _mm256_mul_epi32(_mm256_mul_epi32(po, qinv), q);
  return _mm256_blend_epi32(_mm256_srli_epi64(_mm256_sub_epi64(pe, te), 32), _mm256_sub_epi64(po, to), 0xAA);
}

// Per-lane twiddles of the in-register layers (len 4, 2, 1; index 0, 1, 2) for register pair m:
// forward zeta(128/len + block), inverse -zeta(2 * 128/len - 1 - block), found by regrouping
// coefficient indices exactly as the data are regrouped.
struct LaneZetas {
  alignas(32) int32_t fwd[3][16][8], inv[3][16][8];
  LaneZetas() {
    const int lens[3] = {4, 2, 1};
    for (int l = 0; l < 3; ++l)
      for (int m = 0; m < 16; ++m) {
        alignas(32) int32_t i0[8], i1[8], ia[8];
        for (int t = 0; t < 8; ++t) {
          i0[t] = 16 * m + t;
          i1[t] = 16 * m + 8 + t;
        }
        V a, b;
        regroup(load(i0), load(i1), 4 * lens[l], a, b);
        store(ia, a);
        const int blocks = 128 / lens[l];
        for (int t = 0; t < 8; ++t) {
          const int block = ia[t] / (2 * lens[l]);
          fwd[l][m][t] = mldsa::zeta(blocks + block);
          inv[l][m][t] = -mldsa::zeta(2 * blocks - 1 - block);
        }
      }
  }
};
const LaneZetas& lane_zetas() {
  static const LaneZetas z;
  return z;
}

}  // namespace

void mldsa_ntt_avx2(Poly& p) {
  const LaneZetas& lz = lane_zetas();
  V r[32];
  for (int i = 0; i < 32; ++i) r[i] = load(p.c + 8 * i);
  int k = 1;
  for (int len = 128; len >= 8; len >>= 1) {
    const int step = len / 8;  // registers between partners
    for (int start = 0; start < 32; start += 2 * step) {
      const V z = set1(mldsa::zeta(k++));
      for (int j = start; j < start + step; ++j) {
        const V t = mont_mul(z, r[j + step]);
        r[j + step] = _mm256_sub_epi32(r[j], t);
        r[j] = _mm256_add_epi32(r[j], t);
      }
    }
  }
  const int lens[3] = {4, 2, 1};
  for (int l = 0; l < 3; ++l)
    for (int m = 0; m < 16; ++m) {
      V a, b;
      regroup(r[2 * m], r[2 * m + 1], 4 * lens[l], a, b);
      const V t = mont_mul(load(lz.fwd[l][m]), b);
      b = _mm256_sub_epi32(a, t);
      a = _mm256_add_epi32(a, t);
      regroup(a, b, 4 * lens[l], r[2 * m], r[2 * m + 1]);
    }
  for (int i = 0; i < 32; ++i) store(p.c + 8 * i, r[i]);
}

void mldsa_invntt_tomont_avx2(Poly& p) {
  const LaneZetas& lz = lane_zetas();
  V r[32];
  for (int i = 0; i < 32; ++i) r[i] = load(p.c + 8 * i);
  const int lens[3] = {1, 2, 4};
  const int idx[3] = {2, 1, 0};
  for (int l = 0; l < 3; ++l)
    for (int m = 0; m < 16; ++m) {
      V a, b;
      regroup(r[2 * m], r[2 * m + 1], 4 * lens[l], a, b);
      const V t = a;
      a = _mm256_add_epi32(t, b);
      b = mont_mul(load(lz.inv[idx[l]][m]), _mm256_sub_epi32(t, b));
      regroup(a, b, 4 * lens[l], r[2 * m], r[2 * m + 1]);
    }
  for (int len = 8; len <= 128; len <<= 1) {
    const int step = len / 8, blocks = 128 / len;
    for (int start = 0, block = 0; start < 32; start += 2 * step, ++block) {
      const V z = set1(-mldsa::zeta(2 * blocks - 1 - block));
      for (int j = start; j < start + step; ++j) {
        const V t = r[j];
        r[j] = _mm256_add_epi32(t, r[j + step]);
        r[j + step] = mont_mul(z, _mm256_sub_epi32(t, r[j + step]));
      }
    }
  }
  constexpr int32_t F = 41978;
  const V f = set1(F);
  for (int i = 0; i < 32; ++i) store(p.c + 8 * i, mont_mul(f, r[i]));
}

void mldsa_pointwise_avx2(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < N; i += 8) store(r.c + i, mont_mul(load(a.c + i), load(b.c + i)));
}
void mldsa_pointwise_acc_avx2(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < N; i += 8)
    store(r.c + i, _mm256_add_epi32(load(r.c + i), mont_mul(load(a.c + i), load(b.c + i))));
}

}  // namespace zkgpu::pq::cpu
