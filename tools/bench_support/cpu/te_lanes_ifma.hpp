// Host-only: ONE twisted-Edwards mixed addition (curve.hpp's te_add_precomputed) with its
// independent products spread over the lanes of the AVX-512 IFMA field (src/msm/cpu/field_ifma.hpp),
// for latency rather than throughput: the `padd bench` latency row (padd_cpu_latency_ifma_us), which
// the MSM itself never runs, so it lives with the probes. The MSM runs eight independent additions on eight lanes
// (throughput); a dependent chain of additions (the PADD latency of the AI-Engine/FPGA papers)
// cannot, and the scalar MULX/ADX chain runs its 7 products one after another (~0.35-0.55 us per
// addition on the H200 host). Here the point (X, Y, Z, T) sits in lanes 0..3 of one Fp8, and an
// addition is two 8-lane products deep:
//   u = (Y - X, Y + X, T, Z) * w = (ymx, ypx, kt, 2)   -> (A, B, C, D)
//   E = B - A, H = B + A, F = D - C, G = D + C          (one lane swap, one add, one sub)
//   (E, G, F, E) * (F, H, G, H)                          -> (X3, Y3, Z3, T3)
// the same formulas and values as te_add_precomputed, so the coordinates come out byte-identical.
// Lanes 4..7 carry no data. (Permutes through their zero-masked forms, as in field_ifma.hpp.) Bounds as in
// field_ifma.hpp: every product operand is normalised and < 4p, the stored base is in the shifted input form (< 2^409),
// products are < 2p.
#pragma once
#include "msm/cpu/field_ifma.hpp"

namespace zkgpu::bls12_377::ifma {

// 2 in the multiplier's shifted input form: 2 * 2^416 mod p, below 2p and normalised.
ZKGPU_IFMA_INLINE Fp8 lanes_two() {
  Fp8 k;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) k.l[i] = bc(Consts::K_R416[i]);
  return add(k, k);
}

// The point in lanes 0..3 (X, Y, Z, T), reduced below 2p as the step expects.
ZKGPU_IFMA_INLINE Fp8 lanes_from_point(const TeExtended& p) {
  const Fp in[8] = {p.x, p.y, p.z, p.t};
  return reduce(load_fp8(in));
}

ZKGPU_IFMA_INLINE TeExtended lanes_to_point(const Fp8& a) {
  Fp out[8];
  store_fp8(a, out);
  return {out[0], out[1], out[2], out[3]};
}

// The stored base as the step's multiplier (ymx, ypx, kt, 2): three gathers per word from the
// 144-byte TePrecomputed (not on the chain's dependency path).
ZKGPU_IFMA_INLINE Fp8 lanes_operand(const TePrecomputed& q, const Fp8& two) {
  const __m512i idx = _mm512_set_epi64(0, 0, 0, 0, 0, 96, 48, 0);
  __m512i w[6];
#pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) w[j] = gather(idx, reinterpret_cast<const char*>(&q) + 8 * j);
  Fp8 r = from_words(w);
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) r.l[i] = _mm512_mask_blend_epi64(0x08, r.l[i], two.l[i]);
  return r;
}

// p = p + q for p in lanes 0..3 and q = lanes_operand(q).
ZKGPU_IFMA_INLINE void lanes_add_precomputed(Fp8& p, const Fp8& q) {
  const __m512i take_y = _mm512_set_epi64(0, 0, 0, 0, 2, 3, 1, 1);  // (Y, Y, T, Z)
  const __m512i take_x = _mm512_setzero_si512();                    // (X, X, -, -), lanes 2.. zeroed
  const __m512i swap = _mm512_set_epi64(7, 6, 5, 4, 2, 3, 0, 1);    // (B, A, D, C)
  const __m512i pick1 = _mm512_set_epi64(0, 0, 0, 0, 0, 2, 10, 0);  // (E, G, F, E) from s1 | s2
  const __m512i pick2 = _mm512_set_epi64(0, 0, 0, 0, 8, 10, 8, 2);  // (F, H, G, H)
  Fp8 yb, xb;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    yb.l[i] = _mm512_maskz_permutexvar_epi64(0xff, take_y, p.l[i]);
    xb.l[i] = _mm512_maskz_permutexvar_epi64(0x03, take_x, p.l[i]);
  }
  const Fp8 d = sub(yb, xb), s = add(yb, xb);  // lane 0: Y - X; lanes 1..3: Y + X, T, Z
  Fp8 u;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) u.l[i] = _mm512_mask_blend_epi64(0x01, s.l[i], d.l[i]);
  const Fp8 r = mul_lazy(u, q);  // (A, B, C, D)
  Fp8 rs;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) rs.l[i] = _mm512_maskz_permutexvar_epi64(0xff, swap, r.l[i]);
  const Fp8 s1 = sub(rs, r), s2 = add(rs, r);  // (E, -, F, -) and (H, -, G, -)
  Fp8 v1, v2;
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    v1.l[i] = _mm512_permutex2var_epi64(s1.l[i], pick1, s2.l[i]);
    v2.l[i] = _mm512_permutex2var_epi64(s1.l[i], pick2, s2.l[i]);
  }
  p = mul_lazy(v1, v2);  // (X3, Y3, Z3, T3)
}

// acc + bases[0] + bases[1 % nb] + ... (chain additions, base k % nb at step k), on the lanes.
ZKGPU_IFMA_TARGET inline TeExtended lanes_chain(const TeExtended& acc, const TePrecomputed* bases, size_t nb,
                                                size_t chain) {
  const Fp8 two = lanes_two();
  Fp8 p = lanes_from_point(acc);
  for (size_t k = 0, i = 0; k < chain; ++k) {
    lanes_add_precomputed(p, lanes_operand(bases[i], two));
    if (++i == nb) i = 0;
  }
  return lanes_to_point(p);
}

}  // namespace zkgpu::bls12_377::ifma
