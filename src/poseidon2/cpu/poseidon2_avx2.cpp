// The AVX2 instantiation of the batch drivers: 8 states per register set.
#include "poseidon2/cpu/poseidon2_ops_avx2.hpp"
#include "poseidon2/cpu/kernels.hpp"

namespace zkgpu::cpu::p2 {

const Kernels& kernels_avx2() {
  static constexpr Kernels k = make_kernels<PackedAvx2>();
  return k;
}

}  // namespace zkgpu::cpu::p2
