// The two BabyBear Poseidon2 constant sets (spec §4.2): Plonky3's hard-coded default (set A) and
// SmallRng(seed 1), the set every WHIR BabyBear configuration uses (set B).
#pragma once
#include <string_view>

#include "zkgpu/core/poseidon2/babybear_constants.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu {

enum class Poseidon2Constants { Plonky3, Whir };

namespace detail {
// A set from Montgomery-word tables (the generated *_constants.hpp), for any 31-bit field F.
template <int W, class F = BabyBear>
constexpr Poseidon2Params<W, F> make_poseidon2_params(const uint32_t (&init)[4][W],
                                                      const uint32_t (&internal)[Poseidon2Params<W, F>::ROUNDS_P],
                                                      const uint32_t (&term)[4][W], const uint32_t (&diag)[W]) {
  Poseidon2Params<W, F> p{};
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < W; ++i) {
      p.ext_init[r][i] = F::from_monty(init[r][i]);
      p.ext_term[r][i] = F::from_monty(term[r][i]);
    }
  for (int j = 0; j < Poseidon2Params<W, F>::ROUNDS_P; ++j) p.internal[j] = F::from_monty(internal[j]);
  for (int i = 0; i < W; ++i) p.diag[i] = F::from_monty(diag[i]);
  return p;
}
}  // namespace detail

template <int W>
constexpr Poseidon2Params<W> poseidon2_params(Poseidon2Constants set) {
  namespace t = poseidon2_tables;
  if constexpr (W == 16) {
    return set == Poseidon2Constants::Plonky3
               ? detail::make_poseidon2_params<16>(t::plonky3_16_external_initial, t::plonky3_16_internal,
                                                   t::plonky3_16_external_final, t::internal_diag_16)
               : detail::make_poseidon2_params<16>(t::whir_16_external_initial, t::whir_16_internal,
                                                   t::whir_16_external_final, t::internal_diag_16);
  } else {
    return set == Poseidon2Constants::Plonky3
               ? detail::make_poseidon2_params<24>(t::plonky3_24_external_initial, t::plonky3_24_internal,
                                                   t::plonky3_24_external_final, t::internal_diag_24)
               : detail::make_poseidon2_params<24>(t::whir_24_external_initial, t::whir_24_internal,
                                                   t::whir_24_external_final, t::internal_diag_24);
  }
}

// "plonky3" | "whir"; false on anything else.
inline bool parse_poseidon2_constants(std::string_view s, Poseidon2Constants& out) {
  if (s == "plonky3") return out = Poseidon2Constants::Plonky3, true;
  if (s == "whir") return out = Poseidon2Constants::Whir, true;
  return false;
}

}  // namespace zkgpu
