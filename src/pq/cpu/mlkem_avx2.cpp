// ML-KEM with AVX2: the rejection step of SampleNTT, and the NTT, inverse NTT and base products
// with 16 int16 coefficients per register. Every
// lane runs exactly the int16 operation sequence of core/mlkem/poly.hpp (Montgomery product as
// mullo/mulhi, the same Barrett constant and rounding), so results equal the portable functions
// bit for bit, not only modulo q. Coefficients stay in the standard (bit-reversed NTT) order that
// the encodings use; the layers with butterflies inside one register (len 8, 4, 2) first regroup
// two registers so the partners sit in different registers, as in the Kyber AVX2 code.
// Compiled with -mavx2; called only after the runtime check (mlkem_cpu.cpp).
#include <immintrin.h>

#include "pq/cpu/mlkem_simd.hpp"
#include "pq/cpu/regroup_avx2.hpp"

namespace zkgpu::pq::cpu {

using mlkem::N;
using mlkem::Poly;
using V = __m256i;

namespace {

inline V load(const int16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const V*>(p)); }
inline void store(int16_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<V*>(p), v); }
inline V set1(int16_t x) { return _mm256_set1_epi16(x); }

// fqmul(a, b) given b and b * q^-1 mod 2^16: t = lo(a * b) * q^-1, result hi(a * b) - hi(t * q).
inline V fqmul(V a, V b, V b_qinv) {
  const V t = _mm256_mullo_epi16(a, b_qinv);
  return _mm256_sub_epi16(_mm256_mulhi_epi16(a, b), _mm256_mulhi_epi16(t, set1(mlkem::Q)));
}
inline V fqmul(V a, V b) {
  const V t = _mm256_mullo_epi16(_mm256_mullo_epi16(a, b), set1(mlkem::QINV));
  return _mm256_sub_epi16(_mm256_mulhi_epi16(a, b), _mm256_mulhi_epi16(t, set1(mlkem::Q)));
}
// barrett_reduce: t = (V * a + 2^25) >> 26 = ((V * a) >> 16 + 2^9) >> 10.
inline V barrett(V a) {
  constexpr int16_t BV = int16_t(((1 << 26) + mlkem::Q / 2) / mlkem::Q);
  V t = _mm256_mulhi_epi16(a, set1(BV));
  t = _mm256_srai_epi16(_mm256_add_epi16(t, set1(512)), 10);
  return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, set1(mlkem::Q)));
}

// Per-lane twiddles of the in-register layers: for layer len (8, 4, 2; index 0, 1, 2) and register
// pair m, the zeta of each lane of `a` after regroup(), for the forward (zeta index 128/len + block)
// and inverse (2 * 128/len - 1 - block) transforms, with their products by q^-1. Built by running
// regroup() on coefficient indices, so the table follows the regrouping by construction.
struct LaneZetas {
  alignas(32) int16_t fwd[3][8][16], fwd_qinv[3][8][16], inv[3][8][16], inv_qinv[3][8][16];
  alignas(32) int16_t base[N], base_qinv[N];  // base products: lane 4i+1 zeta(64+i), 4i+3 -zeta(64+i)
  LaneZetas() {
    const int lens[3] = {8, 4, 2};
    for (int l = 0; l < 3; ++l)
      for (int m = 0; m < 8; ++m) {
        alignas(32) int16_t i0[16], i1[16], ia[16];
        for (int t = 0; t < 16; ++t) {
          i0[t] = int16_t(32 * m + t);
          i1[t] = int16_t(32 * m + 16 + t);
        }
        V a, b;
        regroup(load(i0), load(i1), 2 * lens[l], a, b);
        store(ia, a);
        const int blocks = 128 / lens[l];
        for (int t = 0; t < 16; ++t) {
          const int block = ia[t] / (2 * lens[l]);
          fwd[l][m][t] = mlkem::zeta(blocks + block);
          inv[l][m][t] = mlkem::zeta(2 * blocks - 1 - block);
          fwd_qinv[l][m][t] = int16_t(fwd[l][m][t] * mlkem::QINV);
          inv_qinv[l][m][t] = int16_t(inv[l][m][t] * mlkem::QINV);
        }
      }
    for (int i = 0; i < N / 4; ++i) {
      const int16_t z = mlkem::zeta(64 + i);
      const int16_t v[4] = {0, z, 0, int16_t(-z)};
      for (int s = 0; s < 4; ++s) {
        base[4 * i + s] = v[s];
        base_qinv[4 * i + s] = int16_t(v[s] * mlkem::QINV);
      }
    }
  }
};
const LaneZetas& lane_zetas() {
  static const LaneZetas z;
  return z;
}

// Swaps the two int16 of every 32-bit pair.
inline V swap_pairs(V v) { return _mm256_or_si256(_mm256_slli_epi32(v, 16), _mm256_srli_epi32(v, 16)); }

}  // namespace

void mlkem_ntt_avx2(Poly& p) {
  const LaneZetas& lz = lane_zetas();
  V r[16];
  for (int i = 0; i < 16; ++i) r[i] = load(p.c + 16 * i);
  int k = 1;
  for (int len = 128; len >= 16; len >>= 1) {
    const int step = len / 16;  // registers between partners
    for (int start = 0; start < 16; start += 2 * step) {
      const int16_t z = mlkem::zeta(k++);
      const V zv = set1(z), zq = set1(int16_t(z * mlkem::QINV));
      for (int j = start; j < start + step; ++j) {
        const V t = fqmul(r[j + step], zv, zq);
        r[j + step] = _mm256_sub_epi16(r[j], t);
        r[j] = _mm256_add_epi16(r[j], t);
      }
    }
  }
  const int lens[3] = {8, 4, 2};
  for (int l = 0; l < 3; ++l)
    for (int m = 0; m < 8; ++m) {
      V a, b;
      regroup(r[2 * m], r[2 * m + 1], 2 * lens[l], a, b);
      const V t = fqmul(b, load(lz.fwd[l][m]), load(lz.fwd_qinv[l][m]));
      b = _mm256_sub_epi16(a, t);
      a = _mm256_add_epi16(a, t);
      regroup(a, b, 2 * lens[l], r[2 * m], r[2 * m + 1]);
    }
  for (int i = 0; i < 16; ++i) store(p.c + 16 * i, barrett(r[i]));
}

void mlkem_invntt_tomont_avx2(Poly& p) {
  const LaneZetas& lz = lane_zetas();
  V r[16];
  for (int i = 0; i < 16; ++i) r[i] = load(p.c + 16 * i);
  const int lens[3] = {2, 4, 8};
  const int idx[3] = {2, 1, 0};  // LaneZetas index of each len
  for (int l = 0; l < 3; ++l)
    for (int m = 0; m < 8; ++m) {
      V a, b;
      regroup(r[2 * m], r[2 * m + 1], 2 * lens[l], a, b);
      const V t = a;
      a = barrett(_mm256_add_epi16(t, b));
      b = fqmul(_mm256_sub_epi16(b, t), load(lz.inv[idx[l]][m]), load(lz.inv_qinv[idx[l]][m]));
      regroup(a, b, 2 * lens[l], r[2 * m], r[2 * m + 1]);
    }
  for (int len = 16; len <= 128; len <<= 1) {
    const int step = len / 16, blocks = 128 / len;
    for (int start = 0, block = 0; start < 16; start += 2 * step, ++block) {
      const int16_t z = mlkem::zeta(2 * blocks - 1 - block);
      const V zv = set1(z), zq = set1(int16_t(z * mlkem::QINV));
      for (int j = start; j < start + step; ++j) {
        const V t = r[j];
        r[j] = barrett(_mm256_add_epi16(t, r[j + step]));
        r[j + step] = fqmul(_mm256_sub_epi16(r[j + step], t), zv, zq);
      }
    }
  }
  constexpr int16_t F = 1441;
  const V fv = set1(F), fq = set1(int16_t(F * mlkem::QINV));
  for (int i = 0; i < 16; ++i) store(p.c + 16 * i, fqmul(r[i], fv, fq));
}

// r += a * b: per pair (a0, a1), (b0, b1) with twiddle z, r0 += fqmul(fqmul(a1, b1), z) +
// fqmul(a0, b0) and r1 += fqmul(a0, b1) + fqmul(a1, b0), each followed by barrett_reduce.
void mlkem_basemul_acc_avx2(Poly& r, const Poly& a, const Poly& b) {
  const LaneZetas& lz = lane_zetas();
  for (int i = 0; i < N; i += 16) {
    const V av = load(a.c + i), bv = load(b.c + i);
    const V prod = fqmul(av, bv);                                         // a0 b0 | a1 b1
    const V cross = fqmul(av, swap_pairs(bv));                            // a0 b1 | a1 b0
    const V pz = fqmul(prod, load(lz.base + i), load(lz.base_qinv + i));  //   .   | a1 b1 z
    const V r0 = _mm256_add_epi16(prod, swap_pairs(pz));                  // r0 in even lanes
    const V r1 = _mm256_add_epi16(cross, swap_pairs(cross));              // r1 in odd lanes
    const V sum = _mm256_blend_epi16(r0, r1, 0xAA);
    store(r.c + i, barrett(_mm256_add_epi16(load(r.c + i), sum)));
  }
}

namespace {
// For each 8-bit accept mask, the pshufb pattern that packs the accepted int16 lanes to the front.
struct CompressTable {
  alignas(16) uint8_t idx[256][16];
  CompressTable() {
    for (int m = 0; m < 256; ++m) {
      int o = 0;
      for (int i = 0; i < 8; ++i)
        if (m >> i & 1) {
          idx[m][o++] = uint8_t(2 * i);
          idx[m][o++] = uint8_t(2 * i + 1);
        }
      while (o < 16) idx[m][o++] = 0x80;
    }
  }
};
const CompressTable& compress_table() {
  static const CompressTable t;
  return t;
}
inline __m128i load128(const uint8_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }
}  // namespace

// 24 bytes (eight triples) give 16 candidates: each 128-bit half expands six bytes per four
// words with one pshufb, odd words shift right by 4, all are masked to 12 bits; the lanes below q
// are packed to the front, in order, eight at a time through the table.
int mlkem_rej_uniform_avx2(int16_t* out, int n, const uint8_t* buf, unsigned len) {
  const CompressTable& ct = compress_table();
  const V expand = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,  //
                                    0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11);
  const V mask12 = set1(0x0FFF), q = set1(mlkem::Q);
  for (unsigned pos = 0; pos + 24 <= len && n < N; pos += 24) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(buf + pos));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(buf + pos + 12));
    V v = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), expand);
    v = _mm256_blend_epi16(v, _mm256_srli_epi16(v, 4), 0xAA);
    v = _mm256_and_si256(v, mask12);
    const V ok = _mm256_cmpgt_epi16(q, v);
    const uint32_t m = uint32_t(_mm256_movemask_epi8(_mm256_packs_epi16(ok, _mm256_setzero_si256())));
    const uint32_t m0 = m & 0xFF, m1 = (m >> 16) & 0xFF;
    const __m128i w0 = _mm_shuffle_epi8(_mm256_castsi256_si128(v), load128(ct.idx[m0]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n), w0);
    n += __builtin_popcount(m0);
    const __m128i w1 = _mm_shuffle_epi8(_mm256_extracti128_si256(v, 1), load128(ct.idx[m1]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n), w1);
    n += __builtin_popcount(m1);
  }
  return n < N ? n : N;  // values past 256 are spare writes, as documented
}

}  // namespace zkgpu::pq::cpu
