// Plonky3's new_from_rng_128 (poseidon2/src/lib.rs, external.rs) and MontyField31's
// Distribution<StandardUniform> (monty-31/src/monty_31.rs) over the generators of poseidon2_rng.hpp.
#include "poseidon2/poseidon2_rng.hpp"

#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {

namespace {

// Rejection sampling of a Montgomery word: the accepted u is stored as-is (new_monty(u)).
template <class F, class Rng>
F sample_field(Rng& rng) {
  for (;;) {
    uint32_t u = rng.next_u32() >> 1;
    if (u < F::P) return F::from_monty(u);
  }
}

// `base` keeps its diagonal (V); the round constants are drawn.
template <int W, class F, class Rng>
Poseidon2Params<W, F> params_from(Poseidon2Params<W, F> p, Rng rng) {
  for (auto& row : p.ext_init)
    for (auto& c : row) c = sample_field<F>(rng);
  for (auto& row : p.ext_term)
    for (auto& c : row) c = sample_field<F>(rng);
  for (auto& c : p.internal) c = sample_field<F>(rng);
  return p;
}

template <int W, class F>
Poseidon2Params<W, F> params_from(Poseidon2Params<W, F> base, Poseidon2Rng kind, uint64_t seed) {
  switch (kind) {
    case Poseidon2Rng::SmallRng: return params_from(base, rng::Xoshiro256PlusPlus::seed_from_u64(seed));
    case Poseidon2Rng::Xoroshiro128Plus: return params_from(base, rng::Xoroshiro128Plus::seed_from_u64(seed));
  }
  throw_invalid("poseidon2_params_from_rng: unknown generator kind");
}

}  // namespace

template <int W>
Poseidon2Params<W> poseidon2_params_from_rng(Poseidon2Rng kind, uint64_t seed) {
  return params_from(poseidon2_params<W>(Poseidon2Constants::Plonky3), kind, seed);
}

template <int W>
Poseidon2Params<W, KoalaBear> koalabear_poseidon2_params_from_rng(Poseidon2Rng kind, uint64_t seed) {
  return params_from(koalabear_poseidon2_plonky3_params<W>(), kind, seed);
}

template <int W>
Poseidon2Params<W, KoalaBear> koalabear_poseidon2_params(KoalaBearPoseidon2Constants set) {
  switch (set) {
    case KoalaBearPoseidon2Constants::Plonky3: return koalabear_poseidon2_plonky3_params<W>();
    case KoalaBearPoseidon2Constants::Xoroshiro1:
      return koalabear_poseidon2_params_from_rng<W>(Poseidon2Rng::Xoroshiro128Plus, 1);
  }
  throw_invalid("koalabear_poseidon2_params: unknown constant set");
}

template Poseidon2Params<16> poseidon2_params_from_rng<16>(Poseidon2Rng, uint64_t);
template Poseidon2Params<24> poseidon2_params_from_rng<24>(Poseidon2Rng, uint64_t);
template Poseidon2Params<16, KoalaBear> koalabear_poseidon2_params_from_rng<16>(Poseidon2Rng, uint64_t);
template Poseidon2Params<24, KoalaBear> koalabear_poseidon2_params_from_rng<24>(Poseidon2Rng, uint64_t);
template Poseidon2Params<16, KoalaBear> koalabear_poseidon2_params<16>(KoalaBearPoseidon2Constants);
template Poseidon2Params<24, KoalaBear> koalabear_poseidon2_params<24>(KoalaBearPoseidon2Constants);

}  // namespace zkgpu
