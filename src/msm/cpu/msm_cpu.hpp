// The CPU Pippenger (internal): bases already in the mixed-adder TE form.
#pragma once
#include <cstddef>

#include "zkgpu/core/bls12_377/curve.hpp"
#include "zkgpu/msm.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::bls12_377::cpu {

// How the bucket additions run: Auto takes the AVX-512 IFMA path (8 additions per step) when the
// CPU has it, else the scalar MULX/ADX path; Scalar and Ifma force
// one (Ifma throws Unavailable without the instructions). All give the same point.
enum class Accumulation { Auto, Scalar, Ifma };
bool ifma_available();

// c in 2..MAX_WINDOW_BITS. Digits are stored as int16: c = 16's digit +2^15 as the bit pattern of
// -2^15, which no window produces (digits lie in [-2^(c-1) + 1, 2^(c-1)]).
inline constexpr unsigned MAX_WINDOW_BITS = MSM_CPU_MAX_WINDOW_BITS;
// Returns the sum in extended TE coordinates. `phases`, when not null, gets the CPU time of each
// phase (digits, scatter, sort, sums, reduce, combine) summed over the threads, appended, and the
// call's wall time added to its wall_ms.
TeExtended msm_te(const TePrecomputed* points, const Scalar* scalars, size_t n, unsigned c,
                  Accumulation path = Accumulation::Auto, PhaseTimes* phases = nullptr);

}  // namespace zkgpu::bls12_377::cpu
