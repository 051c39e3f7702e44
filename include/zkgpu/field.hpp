// Field-level batch operations of the public API.
#pragma once
#include <span>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"

namespace zkgpu {

// In place: every nonzero element is replaced by its inverse, zeros stay zero. Multi-threaded
// (Montgomery's trick per chunk), one field inversion per chunk.
void batch_inverse(std::span<BabyBear> xs);
void batch_inverse(std::span<BabyBear4> xs);

}  // namespace zkgpu
