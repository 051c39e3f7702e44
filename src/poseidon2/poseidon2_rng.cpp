// Plonky3's new_from_rng_128 (poseidon2/src/lib.rs, external.rs) and MontyField31's
// Distribution<StandardUniform> (monty-31/src/monty_31.rs) over the generators of poseidon2_rng.hpp.
#include "poseidon2/poseidon2_rng.hpp"

#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {

namespace {

// Rejection sampling of a Montgomery word: the accepted u is stored as-is (new_monty(u)).
template <class Rng>
BabyBear sample_field(Rng& rng) {
  for (;;) {
    uint32_t u = rng.next_u32() >> 1;
    if (u < BabyBear::P) return BabyBear::from_monty(u);
  }
}

template <int W, class Rng>
Poseidon2Params<W> params_from(Rng rng) {
  Poseidon2Params<W> p = poseidon2_params<W>(Poseidon2Constants::Plonky3);  // keeps diag (V)
  for (auto& row : p.ext_init)
    for (auto& c : row) c = sample_field(rng);
  for (auto& row : p.ext_term)
    for (auto& c : row) c = sample_field(rng);
  for (auto& c : p.internal) c = sample_field(rng);
  return p;
}

}  // namespace

template <int W>
Poseidon2Params<W> poseidon2_params_from_rng(Poseidon2Rng kind, uint64_t seed) {
  switch (kind) {
    case Poseidon2Rng::SmallRng: return params_from<W>(rng::Xoshiro256PlusPlus::seed_from_u64(seed));
    case Poseidon2Rng::Xoroshiro128Plus: return params_from<W>(rng::Xoroshiro128Plus::seed_from_u64(seed));
  }
  throw_invalid("poseidon2_params_from_rng: unknown generator kind");
}

template Poseidon2Params<16> poseidon2_params_from_rng<16>(Poseidon2Rng, uint64_t);
template Poseidon2Params<24> poseidon2_params_from_rng<24>(Poseidon2Rng, uint64_t);

}  // namespace zkgpu
