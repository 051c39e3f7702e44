// BLS12-377 for a user's own CUDA kernels: the base field Fp and scalar field Fr (Montgomery,
// 64-bit limbs), G1 in affine, Jacobian and XYZZ coordinates and the twisted-Edwards form the MSM
// adds in (TeExtended, TePrecomputed), with the formulas zkgpu's MSM kernels use. On the host the
// same types take the x86-64 mulx/adx paths; on the device, PTX carry chains.
#pragma once
#include "zkgpu/core/bls12_377/curve.hpp"
#include "zkgpu/core/bls12_377/field.hpp"
