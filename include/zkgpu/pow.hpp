// Proof-of-work search for Plonky3's GrindingChallenger (spec §7): find w with pow_witness_ok.
// The challenger's grind() builds the PowInput; this header is the search on its own, for callers
// (benchmarks, other transcripts) that hold a PowInput directly.
#pragma once
#include <cstdint>

#include "zkgpu/core/hash/pow.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {

// Backend::Auto grinds on the GPU from this many bits up: below it the expected 2^bits
// permutations finish on the CPU before a kernel launch and its copies would.
inline constexpr unsigned POW_GPU_CROSSOVER_BITS = 12;

// Returns the canonical value of a witness w in [0, p) with pow_witness_ok(in, w, p). With
// deterministic = true it is the smallest such w (reproducible transcripts); otherwise any valid
// one, whichever a thread finds first. Error(InvalidArgument) when in.bits is outside 1..30,
// in.n_pending >= 8, a state word is not < p, or no witness exists in [0, p).
uint32_t pow_grind(const PowInput& in, const Poseidon2Params<16>& p, Backend backend = Backend::Auto,
                   bool deterministic = true);

// What travels with one search: the backend and, for Auto, the GPU crossover in bits.
struct PowOptions {
  Backend backend = Backend::Auto;
  unsigned gpu_crossover_bits = POW_GPU_CROSSOVER_BITS;
  bool deterministic = true;
};
uint32_t pow_grind(const PowInput& in, const Poseidon2Params<16>& p, const PowOptions& options);

}  // namespace zkgpu
