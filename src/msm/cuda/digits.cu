// The digits of the scalars (signed_digits.hpp) as sort entries, and the count of nonzero ones.
#include "msm/cuda/common.cuh"
#include "msm/cuda/digits.cuh"
#include "msm/signed_digits.hpp"

namespace zkgpu::bls12_377::cuda {

namespace {

// Points [first, first + count) of n, all inside the slice [slice_first, slice_first + slice_count)
// whose entries keys/vals point at; a slice's entries are window-major (index w * slice_count + i -
// slice_first). Per-window buckets (shared = false): key = (w, |d| - 1), value = base index i. One
// shared bucket set over the window table (shared = true): key = |d| - 1, value = table index
// w*n + i. Zero digits get the sentinel key, which sorts last. A scalar that is not below r puts its
// index into *bad_scalar (the least such index wins) and gets digits like any other: the call
// throws once the MSM is done, so they are never used.
__global__ void digits_kernel(const Scalar* scalars, uint32_t first, uint32_t count, uint32_t slice_first,
                              uint32_t slice_count, uint32_t n, unsigned c, unsigned windows, bool shared,
                              uint32_t* keys, uint32_t* vals, uint32_t* bad_scalar) {
  uint32_t i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= first + count) return;
  Scalar s = scalars[i];
  if (!Fr::is_canonical(s)) atomicMin(bad_scalar, i);
  // The window table has msm_window_count_half(c) windows: scalars above (r - 1)/2 are negated
  // (their digits then take the negated bases).
  const uint32_t flip = shared && negate_above_half(s) ? NEG_BIT : 0u;
  const uint32_t sentinel = static_cast<uint32_t>(shared ? 1 : windows) << (c - 1);
  uint32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    int32_t d = next_signed_digit(s, w, c, carry);
    const size_t o = static_cast<size_t>(w) * slice_count + (i - slice_first);
    if (d == 0) {
      keys[o] = sentinel;
      vals[o] = 0;
    } else {
      uint32_t mag = static_cast<uint32_t>(d < 0 ? -d : d);
      keys[o] = shared ? mag - 1 : (static_cast<uint32_t>(w) << (c - 1)) | (mag - 1);
      const size_t index = shared ? static_cast<size_t>(w) * n + i : i;
      vals[o] = static_cast<uint32_t>(index) | ((d < 0 ? NEG_BIT : 0u) ^ flip);
    }
  }
}

// The number of keys below the sentinel (keys are sorted): the index where the sentinel starts, or
// n when there is none. Exactly one thread writes, so *out needs no initial value.
__global__ void count_valid_kernel(const uint32_t* keys, uint32_t n, uint32_t sentinel, uint32_t* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (keys[i] >= sentinel && (i == 0 || keys[i - 1] < sentinel)) *out = i;
  if (i == n - 1 && keys[i] < sentinel) *out = n;
}

}  // namespace

void launch_digits(const Scalar* scalars, uint32_t first, uint32_t count, uint32_t slice_first, uint32_t slice_count,
                   uint32_t n, unsigned c, unsigned windows, bool shared, uint32_t* keys, uint32_t* vals,
                   uint32_t* bad_scalar, cudaStream_t s) {
  digits_kernel<<<blocks_for(count), BLOCK, 0, s>>>(scalars, first, count, slice_first, slice_count, n, c, windows,
                                                    shared, keys, vals, bad_scalar);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

void launch_count_valid(const uint32_t* keys, uint32_t n, uint32_t sentinel, uint32_t* out, cudaStream_t s) {
  count_valid_kernel<<<blocks_for(n), BLOCK, 0, s>>>(keys, n, sentinel, out);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

}  // namespace zkgpu::bls12_377::cuda
