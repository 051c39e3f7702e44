// EF = BabyBear[X]/(X^4 - 11), Plonky3's BinomialExtensionField<BabyBear, 4> (spec §2).
#pragma once
#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/binomial_ext4.hpp"

namespace zkgpu {

using BabyBear4 = BinomialExt4<BabyBear>;
static_assert(sizeof(BabyBear4) == 16, "BabyBear4 is four u32 words, c0..c3");

}  // namespace zkgpu
