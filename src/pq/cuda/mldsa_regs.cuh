// Device drivers of core/mldsa/ntt_lanes.hpp: a warp transforms a polynomial held in registers, 8
// coefficients per lane, exchanging it twice through a 256-word shared buffer (instead of a
// shared-memory round trip per layer, as mldsa_warp::ntt does). Forward: in ROWS (lane + 32 t),
// out RUNS (8 lane + t); inverse: in RUNS, out ROWS. The buffer is free again on return.
#pragma once
#include "zkgpu/core/mldsa/ntt_lanes.hpp"

namespace zkgpu::cuda::mldsa_regs {

namespace ml = mldsa::lanes;

// The lane's RUNS coefficients a[8 lane .. 8 lane + 7] (natural order; a 16-byte aligned).
__device__ __forceinline__ void load_runs(int32_t r[8], const int32_t* a, int lane) {
  const int4 lo = reinterpret_cast<const int4*>(a)[2 * lane], hi = reinterpret_cast<const int4*>(a)[2 * lane + 1];
  r[0] = lo.x, r[1] = lo.y, r[2] = lo.z, r[3] = lo.w, r[4] = hi.x, r[5] = hi.y, r[6] = hi.z, r[7] = hi.w;
}
__device__ __forceinline__ void store_runs(int32_t* a, const int32_t r[8], int lane) {
  reinterpret_cast<int4*>(a)[2 * lane] = make_int4(r[0], r[1], r[2], r[3]);
  reinterpret_cast<int4*>(a)[2 * lane + 1] = make_int4(r[4], r[5], r[6], r[7]);
}

// Writes the registers to buf in layout FROM, reads them back in layout TO (swizzled positions;
// RUNS 16 bytes at a time, the swizzle keeps its groups of 4 together).
template <ml::Layout FROM, ml::Layout TO>
__device__ __forceinline__ void exchange(int32_t r[8], int32_t* buf, int lane) {
  __syncwarp();  // other lanes may still read buf
  if constexpr (FROM == ml::RUNS) {
    *reinterpret_cast<int4*>(buf + ml::swizzle(8 * lane)) = make_int4(r[0], r[1], r[2], r[3]);
    *reinterpret_cast<int4*>(buf + ml::swizzle(8 * lane + 4)) = make_int4(r[4], r[5], r[6], r[7]);
  } else {
#pragma unroll
    for (int t = 0; t < 8; ++t) buf[ml::swizzle(ml::coeff(FROM, lane, t))] = r[t];
  }
  __syncwarp();
  if constexpr (TO == ml::RUNS) {
    const int4 lo = *reinterpret_cast<const int4*>(buf + ml::swizzle(8 * lane));
    const int4 hi = *reinterpret_cast<const int4*>(buf + ml::swizzle(8 * lane + 4));
    r[0] = lo.x, r[1] = lo.y, r[2] = lo.z, r[3] = lo.w, r[4] = hi.x, r[5] = hi.y, r[6] = hi.z, r[7] = hi.w;
  } else {
#pragma unroll
    for (int t = 0; t < 8; ++t) r[t] = buf[ml::swizzle(ml::coeff(TO, lane, t))];
  }
}

// NTT (mldsa::ntt) of the warp's polynomial: r in ROWS on entry, RUNS on return. zetas: the
// twiddles' source (ml::CoreZetas, or ml::TableZetas over a copy of the table in shared memory).
template <class Z = ml::CoreZetas>
__device__ __forceinline__ void ntt(int32_t r[8], int32_t* buf, int lane, Z zetas = {}) {
  ml::ntt_stage1(r, lane, zetas);
  exchange<ml::ROWS, ml::MID>(r, buf, lane);
  ml::ntt_stage2(r, lane, zetas);
  exchange<ml::MID, ml::RUNS>(r, buf, lane);
  ml::ntt_stage3(r, lane, zetas);
  __syncwarp();
}

// Inverse NTT times 2^32 (mldsa::invntt_tomont): r in RUNS on entry, ROWS on return.
template <class Z = ml::CoreZetas>
__device__ __forceinline__ void invntt_tomont(int32_t r[8], int32_t* buf, int lane, Z zetas = {}) {
  ml::invntt_stage1(r, lane, zetas);
  exchange<ml::RUNS, ml::MID_INV>(r, buf, lane);
  ml::invntt_stage2(r, lane, zetas);
  exchange<ml::MID_INV, ml::ROWS>(r, buf, lane);
  ml::invntt_stage3(r, lane, zetas);
  __syncwarp();
}

}  // namespace zkgpu::cuda::mldsa_regs
