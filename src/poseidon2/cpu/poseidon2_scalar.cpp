// The portable instantiation of the batch drivers (one state at a time), for CPUs without AVX2
// and as the ZKGPU_SIMD=scalar path.
#include "poseidon2/cpu/kernels.hpp"
#include "field/cpu/packed_scalar.hpp"

namespace zkgpu::cpu::p2 {

template <>
struct DiagOps<PackedScalar> {
  template <unsigned N>
  static PackedScalar mul_2exp_neg(PackedScalar a) {
    return {BabyBear::from_monty(mul_2exp_neg_word<N>(a.x.v))};
  }
  static PackedScalar halve(PackedScalar a) { return {a.x.halve()}; }
};

const Kernels& kernels_scalar() {
  static constexpr Kernels k = make_kernels<PackedScalar>();
  return k;
}

}  // namespace zkgpu::cpu::p2
