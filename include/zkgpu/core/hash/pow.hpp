// Proof-of-work check of Plonky3's GrindingChallenger over the DuplexChallenger (spec §7), as one
// function that the CPU search loop and the GPU kernel both call for each candidate.
#pragma once
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu {

// The challenger's duplex state and pending inputs when grinding starts (090b overwrite rule).
struct PowInput {
  BabyBear state[16];   // the sponge state before the next duplexing
  BabyBear pending[8];  // inputs observed since the last duplexing
  uint32_t n_pending;   // < 8, or observe() would already have duplexed
  uint32_t bits;        // 1..30
};

// observe(w) then sample_bits(bits) == 0: w lands in slot n_pending, the other rate slots are the
// pending inputs followed by the old state, one permutation, and the sample is the canonical value
// of state[7] (popped from the end of the output buffer).
ZKGPU_HD bool pow_witness_ok(const PowInput& in, BabyBear w, const Poseidon2Params<16>& p) {
  BabyBear s[16];
  ZKGPU_UNROLL
  for (int i = 0; i < 16; ++i) s[i] = in.state[i];
  for (uint32_t i = 0; i < in.n_pending; ++i) s[i] = in.pending[i];
  s[in.n_pending] = w;
  poseidon2_permute<16>(s, p);
  uint32_t mask = (1u << in.bits) - 1u;
  return (s[7].canonical() & mask) == 0;
}

}  // namespace zkgpu
