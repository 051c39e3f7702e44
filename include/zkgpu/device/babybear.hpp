// BabyBear (p = 2^31 - 2^27 + 1) and its quartic extension BabyBear4 = F[X]/(X^4 - 11) for a
// user's own CUDA kernels: the same ZKGPU_HD types the library's kernels and its CPU backend use,
// one uint32_t Montgomery word per element (Plonky3's layout), so buffers pass between a user's
// kernels and zkgpu's device-pointer calls (zkgpu::ntt_device, ...) without conversion.
// Header-only: a .cu file needs only the install prefix's include directory (and -std=c++20).
#pragma once
#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/field/batch_inverse.hpp"
