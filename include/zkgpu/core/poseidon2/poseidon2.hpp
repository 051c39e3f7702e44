// Poseidon2 over a 31-bit Montgomery field (BabyBear, KoalaBear), widths 16 and 24, as Plonky3
// computes it (docs/specs/babybear.md §4.1; fields-curves.md §1.4: the same structure with the
// field's S-box and round numbers). Host and device share this code; the constants travel as a
// Poseidon2Params value (a kernel takes it by value, so it lives in the constant bank).
#pragma once
#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu {

// R_P of poseidon2_round_numbers_128 for a 31-bit p (Plonky3 poseidon2/src/round_numbers.rs):
// S-box x^7 (BabyBear) 13 / 21, x^3 (KoalaBear) 20 / 23, for widths 16 / 24.
template <class F, int W>
inline constexpr int POSEIDON2_PARTIAL_ROUNDS = F::SBOX_DEGREE == 7 ? (W == 16 ? 13 : 21) : (W == 16 ? 20 : 23);

template <int W, class F = BabyBear>
struct Poseidon2Params {
  static_assert(W == 16 || W == 24, "Poseidon2 is defined here for widths 16 and 24");
  using Field = F;
  static constexpr int WIDTH = W;
  static constexpr int ROUNDS_F_HALF = 4;
  static constexpr int ROUNDS_P = POSEIDON2_PARTIAL_ROUNDS<F, W>;
  F ext_init[ROUNDS_F_HALF][W];
  F internal[ROUNDS_P];
  F ext_term[ROUNDS_F_HALF][W];
  F diag[W];  // V: internal matrix = all-ones + diag(V)
};

// M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] with Plonky3's addition chain. T is a field or
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

// s_i = S + V_i s_i with S the sum of the lanes (for V_0 = -2 this is Plonky3's (S - s0) - s0).
template <class F, int W>
ZKGPU_HD void poseidon2_internal_linear(F (&s)[W], const F (&diag)[W]) {
  F sum = s[0];
  ZKGPU_UNROLL
  for (int i = 1; i < W; ++i) sum += s[i];
  ZKGPU_UNROLL
  for (int i = 0; i < W; ++i) s[i] = sum + diag[i] * s[i];
}

template <int W, class F>
ZKGPU_HD void poseidon2_permute(F (&s)[W], const Poseidon2Params<W, F>& p) {
  poseidon2_external_linear(s);
  ZKGPU_UNROLL
  for (int r = 0; r < 4; ++r) {
    ZKGPU_UNROLL
    for (int i = 0; i < W; ++i) s[i] = (s[i] + p.ext_init[r][i]).sbox();
    poseidon2_external_linear(s);
  }
  ZKGPU_UNROLL
  for (int j = 0; j < Poseidon2Params<W, F>::ROUNDS_P; ++j) {
    s[0] = (s[0] + p.internal[j]).sbox();
    poseidon2_internal_linear(s, p.diag);
  }
  ZKGPU_UNROLL
  for (int r = 0; r < 4; ++r) {
    ZKGPU_UNROLL
    for (int i = 0; i < W; ++i) s[i] = (s[i] + p.ext_term[r][i]).sbox();
    poseidon2_external_linear(s);
  }
}

}  // namespace zkgpu
