// The four-way Keccak-f[1600] round function over a vector type V (one 64-bit lane per instance),
// included by the per-ISA files. V supplies load/store, xor, xor5, andnot_xor (a ^ (~b & c)) and
// rotl<n>; AVX-512VL has native rotates and three-input logic, AVX2 builds them from shifts.
// Included only by files compiled for AVX2 or more.
#pragma once
#include <immintrin.h>

#include <utility>

#include "zkgpu/core/keccak/keccak.hpp"
#include "pq/cpu/keccak_x4.hpp"

namespace zkgpu::pq::cpu::detail {

// rho offsets of lane x + 5y (FIPS 202 table 2).
inline constexpr int KECCAK_RHO[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                       25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

// What both versions share: one 256-bit register per state word.
struct Ymm {
  using T = __m256i;
  static T load(const uint64_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(uint64_t* p, T v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
  static T broadcast(uint64_t x) { return _mm256_set1_epi64x(int64_t(x)); }
  static T bxor(T a, T b) { return _mm256_xor_si256(a, b); }
};

template <class V, size_t... I>
inline void rho_pi(const typename V::T* a, typename V::T* b, std::index_sequence<I...>) {
  // pi moves lane (x, y) to (y, 2x + 3y).
  ((b[(I / 5) + 5 * ((2 * (I % 5) + 3 * (I / 5)) % 5)] = V::template rotl<KECCAK_RHO[I]>(a[I])), ...);
}

template <class V>
inline void keccak_x4(KeccakX4& st) {
  using T = typename V::T;
  // Every index below must be a constant after unrolling, so the state lives in registers
  // (AVX-512VL has 32 of them; AVX2 spills some either way).
  T a[25], b[25], c[5], d[5];
  ZKGPU_UNROLL
  for (int i = 0; i < 25; ++i) a[i] = V::load(st.s[i]);
  ZKGPU_NO_UNROLL
  for (int round = 0; round < 24; ++round) {
    ZKGPU_UNROLL
    for (int x = 0; x < 5; ++x) c[x] = V::xor5(a[x], a[x + 5], a[x + 10], a[x + 15], a[x + 20]);
    ZKGPU_UNROLL
    for (int x = 0; x < 5; ++x) d[x] = V::bxor(c[(x + 4) % 5], V::template rotl<1>(c[(x + 1) % 5]));
    ZKGPU_UNROLL
    for (int i = 0; i < 25; ++i) a[i] = V::bxor(a[i], d[i % 5]);
    rho_pi<V>(a, b, std::make_index_sequence<25>{});
    ZKGPU_UNROLL
    for (int y = 0; y < 25; y += 5) {
      ZKGPU_UNROLL
      for (int x = 0; x < 5; ++x) a[y + x] = V::andnot_xor(b[y + x], b[y + (x + 1) % 5], b[y + (x + 2) % 5]);
    }
    a[0] = V::bxor(a[0], V::broadcast(keccak::KECCAK_RC[round]));
  }
  ZKGPU_UNROLL
  for (int i = 0; i < 25; ++i) V::store(st.s[i], a[i]);
}

}  // namespace zkgpu::pq::cpu::detail
