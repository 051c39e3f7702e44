// BabyBear, p = 2^31 - 2^27 + 1, in Montgomery form (R = 2^32), bit-compatible with Plonky3's
// MontyField31<BabyBearParameters> (docs/specs/babybear.md §1): the generic 31-bit field
// (monty31.hpp) with BabyBear's constants.
#pragma once
#include "zkgpu/core/field/monty31.hpp"

namespace zkgpu {

struct BabyBearParams {
  static constexpr uint32_t P = 0x78000001u;
  static constexpr uint32_t MU = 0x88000001u;  // p^-1 mod 2^32 (Plonky3 MONTY_MU)
  static constexpr uint32_t R_MOD_P = 0x0ffffffeu;
  static constexpr uint32_t R2_MOD_P = 0x45dddde3u;
  static constexpr unsigned TWO_ADICITY = 27;
  static constexpr uint32_t GENERATOR = 31;                   // canonical multiplicative generator
  static constexpr uint32_t TWO_ADIC_GENERATOR = 440564289u;  // 31^((p-1)/2^27)
  static constexpr uint32_t EXT4_W = 11;                      // the quartic extension is F[X]/(X^4 - EXT4_W)
  static constexpr unsigned SBOX_DEGREE = 7;
};

using BabyBear = MontyField31<BabyBearParams>;
static_assert(sizeof(BabyBear) == 4, "BabyBear must be one u32 word");

}  // namespace zkgpu
