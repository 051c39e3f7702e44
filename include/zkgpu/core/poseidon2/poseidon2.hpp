// Poseidon2 over BabyBear, widths 16 and 24, as Plonky3 090b computes it (spec §4.1).
// Host and device share this code; the constants travel as a Poseidon2Params value (a kernel takes
// it by value, so it lives in the constant bank).
#pragma once
#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu {

template <int W>
struct Poseidon2Params {
  static_assert(W == 16 || W == 24, "BabyBear Poseidon2 is defined for widths 16 and 24");
  static constexpr int WIDTH = W;
  static constexpr int ROUNDS_F_HALF = 4;
  static constexpr int ROUNDS_P = W == 16 ? 13 : 21;  // poseidon2_round_numbers_128, alpha = 7
  BabyBear ext_init[ROUNDS_F_HALF][W];
  BabyBear internal[ROUNDS_P];
  BabyBear ext_term[ROUNDS_F_HALF][W];
  BabyBear diag[W];  // V: internal matrix = all-ones + diag(V)
};

// M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] with Plonky3's addition chain. T is BabyBear or
// a CPU packed type (src/field/cpu): the SIMD permutation uses these same linear layers.
template <class T>
ZKGPU_HD void poseidon2_m4(T* x) {
  T t01 = x[0] + x[1], t23 = x[2] + x[3];
  T t0123 = t01 + t23;
  T t01123 = t0123 + x[1], t01233 = t0123 + x[3];
  x[3] = t01233 + x[0].dbl();
  x[1] = t01123 + x[2].dbl();
  x[0] = t01123 + t01;
  x[2] = t01233 + t23;
}

// "mds_light": circ(2*M4, M4, ..., M4) as block matrix.
template <class T, int W>
ZKGPU_HD void poseidon2_external_linear(T (&s)[W]) {
  ZKGPU_UNROLL
  for (int b = 0; b < W; b += 4) poseidon2_m4(&s[b]);
  T t[4] = {s[0], s[1], s[2], s[3]};
  ZKGPU_UNROLL
  for (int b = 4; b < W; b += 4) {
    ZKGPU_UNROLL
    for (int k = 0; k < 4; ++k) t[k] += s[b + k];
  }
  ZKGPU_UNROLL
  for (int i = 0; i < W; ++i) s[i] += t[i & 3];
}

template <int W>
ZKGPU_HD void poseidon2_internal_linear(BabyBear (&s)[W], const BabyBear (&diag)[W]) {
  BabyBear sum = s[0];
  ZKGPU_UNROLL
  for (int i = 1; i < W; ++i) sum += s[i];
  ZKGPU_UNROLL
  for (int i = 0; i < W; ++i) s[i] = sum + diag[i] * s[i];
}

template <int W>
ZKGPU_HD void poseidon2_permute(BabyBear (&s)[W], const Poseidon2Params<W>& p) {
  poseidon2_external_linear(s);
  ZKGPU_UNROLL
  for (int r = 0; r < 4; ++r) {
    ZKGPU_UNROLL
    for (int i = 0; i < W; ++i) s[i] = (s[i] + p.ext_init[r][i]).pow7();
    poseidon2_external_linear(s);
  }
  ZKGPU_UNROLL
  for (int j = 0; j < Poseidon2Params<W>::ROUNDS_P; ++j) {
    s[0] = (s[0] + p.internal[j]).pow7();
    poseidon2_internal_linear(s, p.diag);
  }
  ZKGPU_UNROLL
  for (int r = 0; r < 4; ++r) {
    ZKGPU_UNROLL
    for (int i = 0; i < W; ++i) s[i] = (s[i] + p.ext_term[r][i]).pow7();
    poseidon2_external_linear(s);
  }
}

}  // namespace zkgpu
