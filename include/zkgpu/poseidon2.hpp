// Batched Poseidon2 over BabyBear and the Merkle hash built on it (spec §4-§6).
#pragma once
#include <span>

#include "core/hash/sponge.hpp"
#include "core/poseidon2/params.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {

inline constexpr uint64_t POSEIDON2_GPU_CROSSOVER_STATES = uint64_t(1) << 12;

// Permutes states.size() / width consecutive states in place. width is 16 or 24; states.size()
// must be a multiple of it (Error(InvalidArgument) otherwise).
void poseidon2_permute_batch(std::span<BabyBear> states, int width, Poseidon2Constants constants,
                             Backend backend = Backend::Auto);

}  // namespace zkgpu
