// Shared by the ML-KEM and ML-DSA warp drivers: one NTT layer over a 256-coefficient polynomial in
// shared memory, 128 butterflies spread over the 32 lanes of a warp (4 each).
#pragma once

namespace zkgpu::cuda {

// Butterfly b = lane + 32 t of the layer of half-length len pairs a[j] and a[j + len], with
// j = 2 len g + b mod len in group g = b / len; bf(a[j], a[j + len], g) does the arithmetic. All
// lanes see the layer's results on return.
template <class T, class Butterfly>
__device__ __forceinline__ void warp_ntt_layer(T* a, int len, int lane, Butterfly&& bf) {
#pragma unroll
  for (int t = 0; t < 4; ++t) {
    const int b = lane + 32 * t;
    const int g = b / len, j = 2 * len * g + b % len;
    bf(a[j], a[j + len], g);
  }
  __syncwarp();
}

}  // namespace zkgpu::cuda
