// The CPU Pippenger (internal): bases already in the mixed-adder TE form.
#pragma once
#include <cstddef>

#include "core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377::cpu {

// c in 2..15 (digits fit int16). Returns the sum in extended TE coordinates.
TeExtended msm_te(const TePrecomputed* points, const Scalar* scalars, size_t n, unsigned c);

}  // namespace zkgpu::bls12_377::cpu
