// Per-thread building blocks shared by the hash kernels: which permutation a kernel runs and the
// 16-byte moves of its state. The permutation is the core function of
// include/zkgpu/core/poseidon2/ in the register-resident form the GPU needs (no run-time index into
// the state array, which would move it to local memory).
#pragma once
#include <cuda_runtime.h>

#include <type_traits>

#include "zkgpu/core/poseidon2/poseidon2.hpp"
#include "zkgpu/core/poseidon2/poseidon2_fast.hpp"

namespace zkgpu::cuda::hash_detail {

// Which permutation code a kernel is built with. Generic is the core function (any diag); StdRolled
// needs poseidon2_has_standard_diag (both constant sets) and is the same function, faster, with the
// round loops kept rolled: on the H200 that beat the fully unrolled form both in the permutation
// kernel and in the Merkle build (a small instruction-cache footprint, one copy of each round).
enum class PermKind { Generic, StdRolled };

// StdRolled is BabyBear's (its diagonal's shifts); other fields run the core function.
template <int W, class F>
inline PermKind perm_kind_for(const Poseidon2Params<W, F>& p) {
  if constexpr (std::is_same_v<F, BabyBear>)
    return poseidon2_has_standard_diag(p) ? PermKind::StdRolled : PermKind::Generic;
  else
    return PermKind::Generic;
}

template <int W, PermKind K, class F>
__device__ __forceinline__ void permute(F (&s)[W], const Poseidon2Params<W, F>& p) {
  if constexpr (K == PermKind::Generic)
    poseidon2_permute<W>(s, p);
  else
    poseidon2_permute_std<W, /*ROLLED=*/true>(s, p);
}

template <class F>
__device__ __forceinline__ uint4 pack4(const F* x) {
  return make_uint4(x[0].v, x[1].v, x[2].v, x[3].v);
}
template <class F>
__device__ __forceinline__ void unpack4(uint4 q, F* x) {
  x[0].v = q.x;
  x[1].v = q.y;
  x[2].v = q.z;
  x[3].v = q.w;
}

}  // namespace zkgpu::cuda::hash_detail
