// Batched Poseidon2 permutation: one thread per state, the state in registers, the constants in
// the kernel's parameter bank (__grid_constant__, so no per-thread copy).
#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

#include "poseidon2/cuda/api.hpp"
#include "poseidon2/cuda/poseidon2.cuh"
#include "poseidon2/cuda/permute.cuh"
#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda {
namespace hash_detail {
namespace {

constexpr unsigned PERMUTE_BLOCK = 256;

// States are W*4 = 64 or 96 bytes, so with a 16-byte aligned base every state loads as uint4s.
template <int W, PermKind K, class F>
__global__ void __launch_bounds__(PERMUTE_BLOCK)
    poseidon2_kernel(F* __restrict__ states, size_t n, const __grid_constant__ Poseidon2Params<W, F> p) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint4* q = reinterpret_cast<uint4*>(states + i * W);
  F s[W];
#pragma unroll
  for (int k = 0; k < W / 4; ++k) unpack4(q[k], &s[4 * k]);
  permute<W, K>(s, p);
#pragma unroll
  for (int k = 0; k < W / 4; ++k) q[k] = pack4(&s[4 * k]);
}

template <int W, class F>
void permute_device_impl(F* d_states, size_t n, const Poseidon2Params<W, F>& p, cudaStream_t s) {
  if (n == 0) return;
  if (!d_states) throw_invalid("poseidon2_permute_device: d_states is null for " + std::to_string(n) + " states");
  if (reinterpret_cast<uintptr_t>(d_states) % 16 != 0)
    throw_invalid("poseidon2_permute_device: d_states must be 16-byte aligned (cudaMalloc memory is)");
  const size_t blocks = (n + PERMUTE_BLOCK - 1) / PERMUTE_BLOCK;
  if (blocks > size_t(INT_MAX)) throw_invalid("poseidon2_permute_device: too many states (" + std::to_string(n) + ")");
  const dim3 grid(static_cast<unsigned>(blocks));
  if constexpr (std::is_same_v<F, BabyBear>) {
    if (perm_kind_for(p) == PermKind::StdRolled) {
      poseidon2_kernel<W, PermKind::StdRolled, F><<<grid, PERMUTE_BLOCK, 0, s>>>(d_states, n, p);
      ZKGPU_CUDA_CHECK_LAUNCH();
      return;
    }
  }
  poseidon2_kernel<W, PermKind::Generic, F><<<grid, PERMUTE_BLOCK, 0, s>>>(d_states, n, p);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

template <int W, class F>
void permute_host_impl(F* states, size_t n, const Poseidon2Params<W, F>& p) {
  if (n == 0) return;
  if (!states) throw_invalid("poseidon2_permute_host: states is null");
  if (n > SIZE_MAX / (W * sizeof(F))) throw_invalid("poseidon2_permute_host: state count overflows");
  const size_t words = n * W;
  require_device_memory(words * sizeof(F), "Poseidon2 permutation states");
  Stream stream;
  DeviceBuffer<F> d(words);
  d.upload(states, words, stream);
  permute_device_impl<W, F>(d.data(), n, p, stream);
  d.download(states, words, stream);
  stream.sync();
}

}  // namespace
}  // namespace hash_detail

void poseidon2_permute_device(BabyBear* d_states, size_t n, const Poseidon2Params<16>& p, cudaStream_t s) {
  hash_detail::permute_device_impl<16>(d_states, n, p, s);
}
void poseidon2_permute_device(BabyBear* d_states, size_t n, const Poseidon2Params<24>& p, cudaStream_t s) {
  hash_detail::permute_device_impl<24>(d_states, n, p, s);
}
void poseidon2_permute_device(KoalaBear* d_states, size_t n, const Poseidon2Params<16, KoalaBear>& p, cudaStream_t s) {
  hash_detail::permute_device_impl<16>(d_states, n, p, s);
}
void poseidon2_permute_device(KoalaBear* d_states, size_t n, const Poseidon2Params<24, KoalaBear>& p, cudaStream_t s) {
  hash_detail::permute_device_impl<24>(d_states, n, p, s);
}
void poseidon2_permute_on_stream(BabyBear* d_states, size_t n_states, const Poseidon2Params<16>& p, void* stream) {
  poseidon2_permute_device(d_states, n_states, p, static_cast<cudaStream_t>(stream));
}
void poseidon2_permute_on_stream(BabyBear* d_states, size_t n_states, const Poseidon2Params<24>& p, void* stream) {
  poseidon2_permute_device(d_states, n_states, p, static_cast<cudaStream_t>(stream));
}
void poseidon2_permute_host(BabyBear* states, size_t n_states, const Poseidon2Params<16>& p) {
  hash_detail::permute_host_impl<16>(states, n_states, p);
}
void poseidon2_permute_host(BabyBear* states, size_t n_states, const Poseidon2Params<24>& p) {
  hash_detail::permute_host_impl<24>(states, n_states, p);
}
void poseidon2_permute_host(KoalaBear* states, size_t n_states, const Poseidon2Params<16, KoalaBear>& p) {
  hash_detail::permute_host_impl<16>(states, n_states, p);
}
void poseidon2_permute_host(KoalaBear* states, size_t n_states, const Poseidon2Params<24, KoalaBear>& p) {
  hash_detail::permute_host_impl<24>(states, n_states, p);
}

}  // namespace zkgpu::cuda
