// KoalaBear's Poseidon2 constant sets (docs/specs/fields-curves.md §1.6): Plonky3's hard-coded
// default (set A, default_koalabear_poseidon2_{16,24}) here, and Xoroshiro128Plus(seed 1), the
// set of Plonky3's test_poseidon2_width_*_random, drawn at run time by
// zkgpu::koalabear_poseidon2_params (zkgpu/poseidon2.hpp).
#pragma once
#include "zkgpu/core/field/koalabear.hpp"
#include "zkgpu/core/poseidon2/koalabear_constants.hpp"
#include "zkgpu/core/poseidon2/params.hpp"

namespace zkgpu {

enum class KoalaBearPoseidon2Constants { Plonky3, Xoroshiro1 };

template <int W>
constexpr Poseidon2Params<W, KoalaBear> koalabear_poseidon2_plonky3_params() {
  namespace t = poseidon2_tables::koalabear;
  if constexpr (W == 16)
    return detail::make_poseidon2_params<16, KoalaBear>(t::plonky3_16_external_initial, t::plonky3_16_internal,
                                                        t::plonky3_16_external_final, t::internal_diag_16);
  else
    return detail::make_poseidon2_params<24, KoalaBear>(t::plonky3_24_external_initial, t::plonky3_24_internal,
                                                        t::plonky3_24_external_final, t::internal_diag_24);
}

}  // namespace zkgpu
