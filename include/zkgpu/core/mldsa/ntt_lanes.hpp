// The ML-DSA NTT and inverse NTT split over 32 workers (the lanes of a CUDA warp) holding 8
// coefficients each in registers: three layers at a time run on a worker's own registers, and
// between them the polynomial is re-dealt through a shared buffer (two exchanges per transform
// instead of a shared-memory round trip per layer). The butterflies, twiddles and final scale are
// the core's (ntt_butterfly, ntt_zeta, invntt_butterfly, invntt_zeta, invntt_scale); only the
// order of independent butterflies differs from mldsa::ntt / invntt_tomont, so results are equal
// bit for bit. tests/mldsa/ntt_lanes_test.cpp runs the workers one after the other on the CPU.
#pragma once
#include "zkgpu/core/mldsa/poly.hpp"

namespace zkgpu::mldsa::lanes {

// Which coefficient register t of worker `lane` holds, per layout. Each layout puts three bits of
// the coefficient index in t, so the layers on those bits need no exchange:
//   ROWS      k = lane + 32 t          t = bits 7..5  (forward layers 128, 64, 32; inverse 64, 128)
//   MID       bits 4..2 in t           (forward layers 16, 8, 4)
//   MID_INV   bits 5..3 in t           (inverse layers 8, 16, 32)
//   RUNS      k = 8 lane + t           t = bits 2..0  (forward layers 2, 1; inverse 1, 2, 4)
enum Layout { ROWS, MID, MID_INV, RUNS };
ZKGPU_HD int coeff(Layout layout, int lane, int t) {
  switch (layout) {
    case ROWS: return lane + 32 * t;
    case MID: return (lane & 3) | (t << 2) | ((lane >> 2) << 5);
    case MID_INV: return (lane & 7) | (t << 3) | ((lane >> 3) << 6);
    default: return 8 * lane + t;
  }
}
// Where coefficient k sits in the exchange buffer: XOR-swizzled so that every exchange is free of
// shared-memory bank conflicts (RUNS accesses go 4 words at a time; the swizzle keeps each group
// of 4 together).
ZKGPU_HD int swizzle(int k) { return k ^ ((k >> 5) << 2); }

// The twiddles: by default the core's (ntt_zeta / invntt_zeta, the __device__ table in global
// memory on the GPU); a kernel may pass a copy of the same table (ZETAS.z) in shared memory.
struct CoreZetas {
  ZKGPU_HD int32_t fwd(int len, int g) const { return ntt_zeta(len, g); }
  ZKGPU_HD int32_t inv(int len, int g) const { return invntt_zeta(len, g); }
};
struct TableZetas {  // z[i] = zeta(i): then fwd = ntt_zeta, inv = invntt_zeta
  const int32_t* z;
  ZKGPU_HD int32_t fwd(int len, int g) const { return z[N / (2 * len) + g]; }
  ZKGPU_HD int32_t inv(int len, int g) const { return -z[N / len - 1 - g]; }
};

// Forward layer of half-length LEN on the pairs (t, t | TBIT), which hold (k, k + LEN) in layout
// LAYOUT; g = k / 2 LEN as in mldsa::ntt.
template <int LEN, int TBIT, Layout LAYOUT, class Z = CoreZetas>
ZKGPU_HD void ntt_layer(int32_t r[8], int lane, Z zetas = {}) {
  ZKGPU_UNROLL
  for (int t = 0; t < 8; ++t)
    if (!(t & TBIT))
      ntt_butterfly(r[t], r[t | TBIT], zetas.fwd(LEN, int(unsigned(coeff(LAYOUT, lane, t)) / (2 * LEN))));
}
template <int LEN, int TBIT, Layout LAYOUT, class Z = CoreZetas>
ZKGPU_HD void invntt_layer(int32_t r[8], int lane, Z zetas = {}) {
  ZKGPU_UNROLL
  for (int t = 0; t < 8; ++t)
    if (!(t & TBIT))
      invntt_butterfly(r[t], r[t | TBIT], zetas.inv(LEN, int(unsigned(coeff(LAYOUT, lane, t)) / (2 * LEN))));
}

// The three stages of each transform; an exchange (ROWS -> MID -> RUNS forward, RUNS -> MID_INV
// -> ROWS inverse) separates them. Forward: input ROWS, output RUNS. Inverse (times 2^32, as
// invntt_tomont): input RUNS, output ROWS.
template <class Z = CoreZetas>
ZKGPU_HD void ntt_stage1(int32_t r[8], int lane, Z zetas = {}) {
  ntt_layer<128, 4, ROWS>(r, lane, zetas);
  ntt_layer<64, 2, ROWS>(r, lane, zetas);
  ntt_layer<32, 1, ROWS>(r, lane, zetas);
}
template <class Z = CoreZetas>
ZKGPU_HD void ntt_stage2(int32_t r[8], int lane, Z zetas = {}) {
  ntt_layer<16, 4, MID>(r, lane, zetas);
  ntt_layer<8, 2, MID>(r, lane, zetas);
  ntt_layer<4, 1, MID>(r, lane, zetas);
}
template <class Z = CoreZetas>
ZKGPU_HD void ntt_stage3(int32_t r[8], int lane, Z zetas = {}) {
  ntt_layer<2, 2, RUNS>(r, lane, zetas);
  ntt_layer<1, 1, RUNS>(r, lane, zetas);
}
template <class Z = CoreZetas>
ZKGPU_HD void invntt_stage1(int32_t r[8], int lane, Z zetas = {}) {
  invntt_layer<1, 1, RUNS>(r, lane, zetas);
  invntt_layer<2, 2, RUNS>(r, lane, zetas);
  invntt_layer<4, 4, RUNS>(r, lane, zetas);
}
template <class Z = CoreZetas>
ZKGPU_HD void invntt_stage2(int32_t r[8], int lane, Z zetas = {}) {
  invntt_layer<8, 1, MID_INV>(r, lane, zetas);
  invntt_layer<16, 2, MID_INV>(r, lane, zetas);
  invntt_layer<32, 4, MID_INV>(r, lane, zetas);
}
template <class Z = CoreZetas>
ZKGPU_HD void invntt_stage3(int32_t r[8], int lane, Z zetas = {}) {
  invntt_layer<64, 2, ROWS>(r, lane, zetas);
  invntt_layer<128, 4, ROWS>(r, lane, zetas);
  ZKGPU_UNROLL
  for (int t = 0; t < 8; ++t) r[t] = invntt_scale(r[t]);
}

}  // namespace zkgpu::mldsa::lanes
