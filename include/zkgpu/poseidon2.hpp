// Batched Poseidon2 over BabyBear (spec §4-§6; the Merkle hash is built on it) and KoalaBear
// (docs/specs/fields-curves.md §1.4-1.6).
#pragma once
#include <cstdint>
#include <span>

#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/koalabear_params.hpp"
#include "zkgpu/core/poseidon2/params.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {

inline constexpr uint64_t POSEIDON2_GPU_CROSSOVER_STATES = uint64_t(1) << 12;

// Permutes states.size() / width consecutive states in place. width is 16 or 24; states.size()
// must be a multiple of it (Error(InvalidArgument) otherwise).
void poseidon2_permute_batch(std::span<BabyBear> states, int width, Poseidon2Constants constants,
                             Backend backend = Backend::Auto);

// What travels with one batch: the backend and, for Auto, the GPU crossover in states.
struct Poseidon2BatchOptions {
  Backend backend = Backend::Auto;
  uint64_t gpu_crossover = POSEIDON2_GPU_CROSSOVER_STATES;
};
void poseidon2_permute_batch(std::span<BabyBear> states, int width, Poseidon2Constants constants,
                             const Poseidon2BatchOptions& options);

// The same on n_states states already in GPU memory (Montgomery words), enqueued on the caller's
// stream without waiting (see ntt_device for the rules on device buffers). Error(Unavailable)
// without a usable GPU.
void poseidon2_permute_batch_device(BabyBear* d_states, size_t n_states, int width, Poseidon2Constants constants,
                                    GpuStream stream);

// The generators Plonky3 draws Poseidon2 constants from (spec §4.2).
enum class Poseidon2Rng {
  SmallRng,          // rand's SmallRng on 64-bit targets (Xoshiro256++): seed 1 gives set B (WHIR)
  Xoroshiro128Plus,  // rand_xoshiro, as in Plonky3's test_poseidon2_width_*_random
};

// Poseidon2BabyBear::<W>::new_from_rng_128(&mut Rng::seed_from_u64(seed)) on a fresh generator:
// external initial (4 rows of W), external terminal (4 rows of W), then R_P internal constants,
// each element drawn as u = next_u32() >> 1 until u < p, u being the Montgomery word. W = 16 or 24.
template <int W>
Poseidon2Params<W> poseidon2_params_from_rng(Poseidon2Rng kind, uint64_t seed);

extern template Poseidon2Params<16> poseidon2_params_from_rng<16>(Poseidon2Rng, uint64_t);
extern template Poseidon2Params<24> poseidon2_params_from_rng<24>(Poseidon2Rng, uint64_t);

// KoalaBear: the same permutation with x^3 and 20 / 23 partial rounds (states as Montgomery
// words < p, as for BabyBear). The CPU runs the scalar core on every thread; the GPU the
// BabyBear kernel instantiated for KoalaBear.
void poseidon2_permute_batch(std::span<KoalaBear> states, int width, KoalaBearPoseidon2Constants constants,
                             const Poseidon2BatchOptions& options = {});

// A KoalaBear constant set: Plonky3's default (koalabear_poseidon2_plonky3_params) or
// Poseidon2KoalaBear::<W>::new_from_rng_128(&mut Xoroshiro128Plus::seed_from_u64(1)). W = 16 or 24.
template <int W>
Poseidon2Params<W, KoalaBear> koalabear_poseidon2_params(KoalaBearPoseidon2Constants set);
// Poseidon2KoalaBear::<W>::new_from_rng_128 on a fresh generator of that kind and seed, drawn as
// poseidon2_params_from_rng draws BabyBear's.
template <int W>
Poseidon2Params<W, KoalaBear> koalabear_poseidon2_params_from_rng(Poseidon2Rng kind, uint64_t seed);

extern template Poseidon2Params<16, KoalaBear> koalabear_poseidon2_params<16>(KoalaBearPoseidon2Constants);
extern template Poseidon2Params<24, KoalaBear> koalabear_poseidon2_params<24>(KoalaBearPoseidon2Constants);
extern template Poseidon2Params<16, KoalaBear> koalabear_poseidon2_params_from_rng<16>(Poseidon2Rng, uint64_t);
extern template Poseidon2Params<24, KoalaBear> koalabear_poseidon2_params_from_rng<24>(Poseidon2Rng, uint64_t);

}  // namespace zkgpu
