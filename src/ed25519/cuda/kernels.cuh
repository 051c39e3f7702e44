// The verification kernels: one thread per signature over the shared core verifier, with the
// fixed-window double-scalar multiplication (core/ed25519/scalarmult_fixed.hpp: no divergence
// between the signatures of a warp), and the 4-lanes-per-signature form. Both read the batch
// through the pointers of ItemArrays (backend.hpp): a chunk of the pinned pipeline, or the
// caller's own device arrays.
#pragma once
#include <cooperative_groups.h>

#include <cstddef>
#include <cstdint>

#include "ed25519/cuda/backend.hpp"
#include "zkgpu/core/ed25519/fe25519_10.hpp"
#include "zkgpu/core/ed25519/verify.hpp"

namespace zkgpu::ed25519::cuda {

// The device's field representation: 32-bit limbs (native 32 x 32 -> 64 multiply-adds).
using DeviceFe = Fe10;

inline constexpr int VERIFY_BLOCK = 128;
inline constexpr int COOP_LANES = 4;  // lanes sharing one signature in the low-latency kernel

// The product policy of the low-latency kernel: the four lanes of a tile hold the same state and
// take the same branches (same signature), each computes one of a point operation's independent
// products, and shuffles give every lane all of them. A point doubling's 4 squarings and 3
// products then take 2 products of latency instead of 7.
struct LaneMul {
  cooperative_groups::thread_block_tile<COOP_LANES> tile;

  template <int N>
  __device__ __forceinline__ void exchange(DeviceFe* o, const DeviceFe& mine) const {
#pragma unroll
    for (int j = 0; j < N; ++j)
#pragma unroll
      for (int l = 0; l < 10; ++l) o[j].v[l] = tile.shfl(mine.v[l], j);
  }
  // Operand selection by predicated moves, not indexing (which would put the arrays in memory).
  template <int N>
  __device__ __forceinline__ int slot() const {
    const int r = static_cast<int>(tile.thread_rank());
    return r < N ? r : N - 1;  // spare lanes repeat the last product
  }
  template <int N>
  __device__ __forceinline__ void mul(DeviceFe* o, const DeviceFe* a, const DeviceFe* b) const {
    const int k = slot<N>();
    DeviceFe x = a[0], y = b[0];
#pragma unroll
    for (int i = 1; i < N; ++i)
      if (k == i) {
        x = a[i];
        y = b[i];
      }
    exchange<N>(o, fe_mul(x, y));
  }
  // A value of lane `src` of the tile, word by word.
  template <class T>
  __device__ __forceinline__ T from_lane(const T& v, int src) const {
    static_assert(sizeof(T) % 4 == 0);
    T r;
    const auto* in = reinterpret_cast<const uint32_t*>(&v);
    auto* o = reinterpret_cast<uint32_t*>(&r);
#pragma unroll
    for (int w = 0; w < static_cast<int>(sizeof(T) / 4); ++w) o[w] = tile.shfl(in[w], src);
    return r;
  }
  // fn(0) on the even lanes and fn(1) on the odd ones (the same code, so no divergence), then
  // every lane gets both.
  template <class T, class Fn>
  __device__ __forceinline__ void pair(T out[2], const Fn& fn) const {
    const T mine = fn(static_cast<int>(tile.thread_rank() & 1));
    out[0] = from_lane(mine, 0);
    out[1] = from_lane(mine, 1);
  }
  template <int N>
  __device__ __forceinline__ void sq(DeviceFe* o, const DeviceFe* a) const {
    const int k = slot<N>();
    DeviceFe x = a[0];
#pragma unroll
    for (int i = 1; i < N; ++i)
      if (k == i) x = a[i];
    exchange<N>(o, fe_sq(x));
  }
};

// Item i's key and signature into registers (read several times during the verification) and
// its message range; false when the range is not ordered and inside the messages. That check is
// where the device-pointer call's offsets are validated: the host cannot read them.
__device__ __forceinline__ bool load_item(const uint8_t* __restrict__ pks, const uint8_t* __restrict__ sigs,
                                          const uint64_t* __restrict__ offsets, const uint8_t* __restrict__ msgs,
                                          uint64_t message_bytes, uint32_t i, uint8_t pk[32], uint8_t sig[64],
                                          const uint8_t*& msg, uint64_t& len) {
  const uint8_t* gpk = pks + 32 * size_t{i};
  const uint8_t* gsig = sigs + 64 * size_t{i};
  for (int j = 0; j < 32; ++j) pk[j] = gpk[j];
  for (int j = 0; j < 64; ++j) sig[j] = gsig[j];
  const uint64_t off = offsets[i], end = offsets[i + 1];
  msg = msgs + off;
  len = end - off;
  return off <= end && end <= message_bytes;
}

__global__ void __launch_bounds__(VERIFY_BLOCK)
    ed25519_verify_kernel(const uint8_t* __restrict__ pks, const uint8_t* __restrict__ sigs,
                          const uint64_t* __restrict__ offsets, const uint8_t* __restrict__ msgs,
                          uint64_t message_bytes, uint32_t n, FixedBaseTable<DeviceFe> base_table, VerifyMode mode,
                          uint8_t* __restrict__ out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t pk[32], sig[64];
  const uint8_t* msg;
  uint64_t len;
  if (!load_item(pks, sigs, offsets, msgs, message_bytes, i, pk, sig, msg, len)) {
    out[i] = 0;
    return;
  }
  out[i] = ed25519_verify_decoding_r(mode, pk, sig, msg, len, base_table) ? 1 : 0;
}

// The low-latency form: COOP_LANES lanes per signature (LaneMul). A and R are decoded on two
// lanes at once; hashing runs redundantly on every lane of the tile; the point operations' products
// are shared.
// (launch bounds: one block per SM is enough, so ptxas may use every register before spilling)
__global__ void __launch_bounds__(VERIFY_BLOCK, 1)
    ed25519_verify_coop_kernel(const uint8_t* __restrict__ pks, const uint8_t* __restrict__ sigs,
                               const uint64_t* __restrict__ offsets, const uint8_t* __restrict__ msgs,
                               uint64_t message_bytes, uint32_t n, FixedBaseTable<DeviceFe> base_table, VerifyMode mode,
                               uint8_t* __restrict__ out) {
  const LaneMul m{cooperative_groups::tiled_partition<COOP_LANES>(cooperative_groups::this_thread_block())};
  const uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / COOP_LANES;
  if (i >= n) return;  // the whole tile leaves together: its lanes share i
  uint8_t pk[32], sig[64];
  const uint8_t* msg;
  uint64_t len;
  if (!load_item(pks, sigs, offsets, msgs, message_bytes, i, pk, sig, msg, len)) {  // the same for the whole tile
    if (m.tile.thread_rank() == 0) out[i] = 0;
    return;
  }
  const bool ok = ed25519_verify_decoding_r(mode, pk, sig, msg, len, base_table, m);
  if (m.tile.thread_rank() == 0) out[i] = ok ? 1 : 0;
}

}  // namespace zkgpu::ed25519::cuda
