// The signed digits of the scalars as (bucket key, base index) entries for the sort, and the count
// of sorted entries below the zero-digit sentinel. Every function enqueues on `s` and throws
// zkgpu::Error on a launch failure.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "zkgpu/core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377::cuda {

// The entries of points [first, first + count) of n, all inside the slice [slice_first,
// slice_first + slice_count) whose entries keys/vals point at (digits_kernel in digits.cu); the
// least index of a scalar not below r, if any, is atomicMin-ed into *bad_scalar.
void launch_digits(const Scalar* scalars, uint32_t first, uint32_t count, uint32_t slice_first, uint32_t slice_count,
                   uint32_t n, unsigned c, unsigned windows, bool shared, uint32_t* keys, uint32_t* vals,
                   uint32_t* bad_scalar, cudaStream_t s);
// *out = the number of the n sorted keys below `sentinel`.
void launch_count_valid(const uint32_t* keys, uint32_t n, uint32_t sentinel, uint32_t* out, cudaStream_t s);

}  // namespace zkgpu::bls12_377::cuda
