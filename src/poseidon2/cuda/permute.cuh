// Per-thread building blocks shared by the hash kernels: which permutation a kernel runs, the sponge
// leaf hash, the compression and 16-byte digest moves. Each is the core function of
// include/zkgpu/core/hash/sponge.hpp with the register-resident form the GPU needs (no run-time index into
// the state array, which would move it to local memory).
#pragma once
#include <cuda_runtime.h>

#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"
#include "zkgpu/core/poseidon2/poseidon2_fast.hpp"

namespace zkgpu::cuda::hash_detail {

// Which permutation code a kernel is built with. Generic is the core function (any diag); the Std
// forms need poseidon2_has_standard_diag (both constant sets) and are the same function, faster.
enum class PermKind : int { Generic = 0, StdUnrolled = 1, StdRolled = 2 };

// The kernel form used for the standard diag; set_poseidon2_kernel_kind (hash_tuning.hpp) changes it.
PermKind std_perm_kind();

template <int W>
inline PermKind perm_kind_for(const Poseidon2Params<W>& p) {
  return poseidon2_has_standard_diag(p) ? std_perm_kind() : PermKind::Generic;
}

template <int W, PermKind K>
__device__ __forceinline__ void permute(BabyBear (&s)[W], const Poseidon2Params<W>& p) {
  if constexpr (K == PermKind::Generic)
    poseidon2_permute<W>(s, p);
  else
    poseidon2_permute_std<W, K == PermKind::StdRolled>(s, p);
}

__device__ __forceinline__ uint4 pack4(const BabyBear* x) { return make_uint4(x[0].v, x[1].v, x[2].v, x[3].v); }
__device__ __forceinline__ void unpack4(uint4 q, BabyBear* x) {
  x[0].v = q.x;
  x[1].v = q.y;
  x[2].v = q.z;
  x[3].v = q.w;
}

// dst must be 16-byte aligned (callers check the base pointer; digests are 32 bytes).
__device__ __forceinline__ void store_digest(Digest* dst, const Digest& d) {
  uint4* q = reinterpret_cast<uint4*>(dst);
  q[0] = pack4(&d.e[0]);
  q[1] = pack4(&d.e[4]);
}
__device__ __forceinline__ Digest load_digest(const Digest* src) {
  const uint4* q = reinterpret_cast<const uint4*>(src);
  Digest d;
  unpack4(q[0], &d.e[0]);
  unpack4(q[1], &d.e[4]);
  return d;
}

// sponge_hash(row, cols, p). VEC: cols % 4 == 0 and row 16-byte aligned, so every chunk is 4 or 8
// words and loads as uint4.
template <PermKind K, bool VEC>
__device__ __forceinline__ Digest leaf_hash(const BabyBear* row, size_t cols, const Poseidon2Params<16>& p) {
  BabyBear s[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) s[i] = BabyBear::zero();
  for (size_t off = 0; off < cols; off += 8) {
    if constexpr (VEC) {
      const uint4* q = reinterpret_cast<const uint4*>(row + off);
      unpack4(__ldg(q), &s[0]);
      if (off + 4 < cols) unpack4(__ldg(q + 1), &s[4]);
    } else {
#pragma unroll
      for (int i = 0; i < 8; ++i)
        if (off + i < cols) s[i] = row[off + i];
    }
    permute<16, K>(s, p);
  }
  Digest d;
#pragma unroll
  for (int i = 0; i < 8; ++i) d.e[i] = s[i];
  return d;
}

// compress(l, r, p).
template <PermKind K>
__device__ __forceinline__ Digest compress_pair(const Digest& l, const Digest& r, const Poseidon2Params<16>& p) {
  BabyBear s[16];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    s[i] = l.e[i];
    s[8 + i] = r.e[i];
  }
  permute<16, K>(s, p);
  Digest d;
#pragma unroll
  for (int i = 0; i < 8; ++i) d.e[i] = s[i];
  return d;
}

}  // namespace zkgpu::cuda::hash_detail
