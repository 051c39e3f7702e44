// The AVX-512 instantiation of the batch drivers: 16 states per register set.
// GCC 12's avx512fintrin.h builds set1/broadcast from an "undefined" vector and then warns that it
// is uninitialised (a false positive, fixed in GCC 13); keep the build log readable.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "poseidon2/cpu/poseidon2_ops_avx512.hpp"
#include "poseidon2/cpu/kernels.hpp"

namespace zkgpu::cpu::p2 {

const Kernels& kernels_avx512() {
  static constexpr Kernels k = make_kernels<PackedAvx512>();
  return k;
}

}  // namespace zkgpu::cpu::p2
