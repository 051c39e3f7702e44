// EF = KoalaBear[X]/(X^4 - 3), Plonky3's BinomialExtensionField<KoalaBear, 4>
// (docs/specs/fields-curves.md §1.3).
#pragma once
#include "zkgpu/core/field/binomial_ext4.hpp"
#include "zkgpu/core/field/koalabear.hpp"

namespace zkgpu {

using KoalaBear4 = BinomialExt4<KoalaBear>;
static_assert(sizeof(KoalaBear4) == 16, "KoalaBear4 is four u32 words, c0..c3");

}  // namespace zkgpu
