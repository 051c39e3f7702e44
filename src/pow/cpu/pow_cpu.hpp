// CPU (multi-threaded) proof-of-work search over pow_witness_ok (spec §7).
#pragma once
#include <cstdint>

#include "zkgpu/core/hash/pow.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu::cpu {

// Canonical value of a witness w in [0, p) with pow_witness_ok(in, w, p): the smallest one when
// deterministic, else the first one any thread finds. Error(InvalidArgument) for in.bits outside
// 1..30, in.n_pending >= 8, a state or pending word >= p, or when no witness exists in [0, p).
uint32_t pow_grind(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic);

}  // namespace zkgpu::cpu
