// KoalaBear, p = 2^31 - 2^24 + 1, in Montgomery form (R = 2^32), bit-compatible with Plonky3's
// MontyField31<KoalaBearParameters> (docs/specs/fields-curves.md §1.1-1.2): the generic 31-bit
// field (monty31.hpp) with KoalaBear's constants.
#pragma once
#include "zkgpu/core/field/monty31.hpp"

namespace zkgpu {

struct KoalaBearParams {
  static constexpr uint32_t P = 0x7f000001u;
  static constexpr uint32_t MU = 0x81000001u;  // p^-1 mod 2^32 (Plonky3 MONTY_MU)
  static constexpr uint32_t R_MOD_P = 0x01fffffeu;
  static constexpr uint32_t R2_MOD_P = 0x17f7efe4u;
  static constexpr unsigned TWO_ADICITY = 24;
  static constexpr uint32_t GENERATOR = 3;                     // MONTY_GEN
  static constexpr uint32_t TWO_ADIC_GENERATOR = 0x6ac49f88u;  // 3^127 = 3^((p-1)/2^24)
  static constexpr uint32_t EXT4_W = 3;                        // the quartic extension is F[X]/(X^4 - EXT4_W)
  static constexpr unsigned SBOX_DEGREE = 3;
};

using KoalaBear = MontyField31<KoalaBearParams>;
static_assert(sizeof(KoalaBear) == 4, "KoalaBear must be one u32 word");

}  // namespace zkgpu
