// The ML-DSA NTT and inverse NTT split over 32 workers (the lanes of a CUDA warp) holding 8
// coefficients each in registers: three layers at a time run on a worker's own registers, and
// between them the polynomial is re-dealt through a shared buffer (two exchanges per transform
// instead of a shared-memory round trip per layer). The butterflies, twiddles and final scale are
// the core's (ntt_butterfly, ntt_zeta, invntt_butterfly, invntt_zeta, invntt_scale); only the
// order of independent butterflies differs from mldsa::ntt / invntt_tomont, so results are equal
// bit for bit. tests/mldsa/ntt_lanes_test.cpp runs the workers one after the other on the CPU.
#pragma once
#include "core/mldsa/poly.hpp"

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

// Forward layer of half-length LEN on the pairs (t, t | TBIT), which hold (k, k + LEN) in layout
// LAYOUT; g = k / 2 LEN as in mldsa::ntt.
template <int LEN, int TBIT, Layout LAYOUT>
ZKGPU_HD void ntt_layer(int32_t r[8], int lane) {
  ZKGPU_UNROLL
  for (int t = 0; t < 8; ++t)
    if (!(t & TBIT)) ntt_butterfly(r[t], r[t | TBIT], ntt_zeta(LEN, int(unsigned(coeff(LAYOUT, lane, t)) / (2 * LEN))));
}
template <int LEN, int TBIT, Layout LAYOUT>
ZKGPU_HD void invntt_layer(int32_t r[8], int lane) {
  ZKGPU_UNROLL
  for (int t = 0; t < 8; ++t)
    if (!(t & TBIT)) invntt_butterfly(r[t], r[t | TBIT], invntt_zeta(LEN, int(unsigned(coeff(LAYOUT, lane, t)) / (2 * LEN))));
}

// The three stages of each transform; an exchange (ROWS -> MID -> RUNS forward, RUNS -> MID_INV
// -> ROWS inverse) separates them. Forward: input ROWS, output RUNS. Inverse (times 2^32, as
// invntt_tomont): input RUNS, output ROWS.
ZKGPU_HD void ntt_stage1(int32_t r[8], int lane) {
  ntt_layer<128, 4, ROWS>(r, lane);
  ntt_layer<64, 2, ROWS>(r, lane);
  ntt_layer<32, 1, ROWS>(r, lane);
}
ZKGPU_HD void ntt_stage2(int32_t r[8], int lane) {
  ntt_layer<16, 4, MID>(r, lane);
  ntt_layer<8, 2, MID>(r, lane);
  ntt_layer<4, 1, MID>(r, lane);
}
ZKGPU_HD void ntt_stage3(int32_t r[8], int lane) {
  ntt_layer<2, 2, RUNS>(r, lane);
  ntt_layer<1, 1, RUNS>(r, lane);
}
ZKGPU_HD void invntt_stage1(int32_t r[8], int lane) {
  invntt_layer<1, 1, RUNS>(r, lane);
  invntt_layer<2, 2, RUNS>(r, lane);
  invntt_layer<4, 4, RUNS>(r, lane);
}
ZKGPU_HD void invntt_stage2(int32_t r[8], int lane) {
  invntt_layer<8, 1, MID_INV>(r, lane);
  invntt_layer<16, 2, MID_INV>(r, lane);
  invntt_layer<32, 4, MID_INV>(r, lane);
}
ZKGPU_HD void invntt_stage3(int32_t r[8], int lane) {
  invntt_layer<64, 2, ROWS>(r, lane);
  invntt_layer<128, 4, ROWS>(r, lane);
  ZKGPU_UNROLL
  for (int t = 0; t < 8; ++t) r[t] = invntt_scale(r[t]);
}

}  // namespace zkgpu::mldsa::lanes
