// ML-DSA parameter sets (FIPS 204 table 1) and the byte sizes that follow from them.
#pragma once
#include "zkgpu/core/mldsa/poly.hpp"

namespace zkgpu::mldsa {

template <int K_, int L_, int ETA_, int TAU_, int GAMMA1_BITS_, int32_t GAMMA2_, int OMEGA_, int LAMBDA_>
struct Params {
  static constexpr int K = K_, L = L_, ETA = ETA_, TAU = TAU_, OMEGA = OMEGA_;
  static constexpr int GAMMA1_BITS = GAMMA1_BITS_;
  static constexpr int32_t GAMMA1 = int32_t(1) << GAMMA1_BITS_;
  static constexpr int32_t GAMMA2 = GAMMA2_;
  static constexpr int32_t BETA = TAU_ * ETA_;
  static constexpr int CTILDE_BYTES = LAMBDA_ / 4;
  static constexpr int ETA_BITS = ETA_ == 2 ? 3 : 4;
  static constexpr int W1_BITS = GAMMA2_ == (Q - 1) / 88 ? 6 : 4;
  static constexpr size_t ETA_BYTES = 32 * ETA_BITS;
  static constexpr size_t Z_BYTES = 32 * (GAMMA1_BITS_ + 1);
  static constexpr size_t T1_BYTES = 320, T0_BYTES = 416;
  static constexpr size_t PK_BYTES = 32 + K_ * T1_BYTES;
  static constexpr size_t SK_BYTES = 128 + (K_ + L_) * ETA_BYTES + K_ * T0_BYTES;
  static constexpr size_t SIG_BYTES = CTILDE_BYTES + L_ * Z_BYTES + OMEGA_ + K_;
};

using P44 = Params<4, 4, 2, 39, 17, (Q - 1) / 88, 80, 128>;
using P65 = Params<6, 5, 4, 49, 19, (Q - 1) / 32, 55, 192>;
using P87 = Params<8, 7, 2, 60, 19, (Q - 1) / 32, 75, 256>;
static_assert(P44::PK_BYTES == 1312 && P44::SK_BYTES == 2560 && P44::SIG_BYTES == 2420);
static_assert(P65::PK_BYTES == 1952 && P65::SK_BYTES == 4032 && P65::SIG_BYTES == 3309);
static_assert(P87::PK_BYTES == 2592 && P87::SK_BYTES == 4896 && P87::SIG_BYTES == 4627);

}  // namespace zkgpu::mldsa
