// A user's own CUDA kernels on zkgpu's device types, next to zkgpu's device-pointer calls on the
// same stream and buffers. Built against the installed package only (examples/cuda/CMakeLists.txt):
//   1. a kernel fills a BabyBear matrix, zkgpu::ntt_device transforms it in place on the same
//      stream, and the result equals zkgpu::ntt on the CPU;
//   2. a kernel runs one Poseidon2-16 permutation per thread (constants passed by value), equal
//      to zkgpu::poseidon2_permute_batch on the CPU;
//   3. a kernel computes k * G on BLS12-377 G1 per thread, equal to the MSM of one point on the CPU.
// Exit status 0 when all agree, 1 on a mismatch or an error, 77 when no GPU is usable (ctest
// reports it skipped).
#include <cstdio>
#include <cstring>
#include <vector>

#include "zkgpu/device/device.hpp"
#include "zkgpu/zkgpu.hpp"

namespace {

using zkgpu::BabyBear;
namespace bls = zkgpu::bls12_377;

#define CHECK(expr)                                                             \
  do {                                                                          \
    const cudaError_t err_ = (expr);                                            \
    if (err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #expr, cudaGetErrorString(err_)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

// Entry (row, col) of the input matrix: any host/device function of the position.
__host__ __device__ BabyBear input_entry(uint32_t row, uint32_t col) {
  const BabyBear x = BabyBear::from_canonical((row * 7919u + col * 104729u + 1u) % BabyBear::P);
  return x * x * x + BabyBear::from_canonical(col);
}

__global__ void fill_matrix(BabyBear* m, uint32_t rows, uint32_t cols) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) m[i] = input_entry(i / cols, i % cols);
}

__global__ void permute_each(BabyBear* states, uint32_t n, zkgpu::Poseidon2Params<16> p) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  BabyBear s[16];
  for (int j = 0; j < 16; ++j) s[j] = states[16 * i + j];
  zkgpu::poseidon2_permute<16>(s, p);
  for (int j = 0; j < 16; ++j) states[16 * i + j] = s[j];
}

__global__ void multiples_of_generator(const bls::Scalar* k, bls::G1Affine* out, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = bls::jac_to_affine(bls::scalar_mul(bls::G1Affine::generator(), k[i]));
}

bool ntt_after_user_kernel(cudaStream_t s) {
  const unsigned log_n = 12;
  const uint32_t rows = 1u << log_n, cols = 3;
  BabyBear* d = nullptr;
  CHECK(cudaMalloc(&d, size_t(rows) * cols * sizeof(BabyBear)));
  fill_matrix<<<(rows * cols + 255) / 256, 256, 0, s>>>(d, rows, cols);
  CHECK(cudaGetLastError());
  zkgpu::ntt_device(d, log_n, cols, zkgpu::NttDirection::Forward, BabyBear::one(), zkgpu::GpuStream{s});
  std::vector<BabyBear> got(size_t(rows) * cols), want(got.size());
  CHECK(cudaMemcpyAsync(got.data(), d, got.size() * sizeof(BabyBear), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaFree(d));
  for (uint32_t i = 0; i < rows * cols; ++i) want[i] = input_entry(i / cols, i % cols);
  zkgpu::ntt(want, log_n, cols, zkgpu::NttDirection::Forward, BabyBear::one(), zkgpu::Backend::Cpu);
  return std::memcmp(got.data(), want.data(), got.size() * sizeof(BabyBear)) == 0;
}

bool poseidon2_in_user_kernel(cudaStream_t s) {
  const uint32_t n = 1000;
  const auto set = zkgpu::Poseidon2Constants::Plonky3;
  std::vector<BabyBear> states(16 * n), want;
  for (uint32_t i = 0; i < states.size(); ++i) states[i] = BabyBear::from_canonical(i * 2654435761u % BabyBear::P);
  want = states;
  BabyBear* d = nullptr;
  CHECK(cudaMalloc(&d, states.size() * sizeof(BabyBear)));
  CHECK(cudaMemcpyAsync(d, states.data(), states.size() * sizeof(BabyBear), cudaMemcpyHostToDevice, s));
  permute_each<<<(n + 127) / 128, 128, 0, s>>>(d, n, zkgpu::poseidon2_params<16>(set));
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(states.data(), d, states.size() * sizeof(BabyBear), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaFree(d));
  zkgpu::poseidon2_permute_batch(want, 16, set, zkgpu::Backend::Cpu);
  return std::memcmp(states.data(), want.data(), states.size() * sizeof(BabyBear)) == 0;
}

bool curve_in_user_kernel(cudaStream_t s) {
  const uint32_t n = 64;
  std::vector<bls::Scalar> k(n);
  for (uint32_t i = 0; i < n; ++i) k[i] = bls::Scalar{{0x9e3779b97f4a7c15ull * (i + 1), i, 0, 0}};
  bls::Scalar* d_k = nullptr;
  bls::G1Affine* d_out = nullptr;
  CHECK(cudaMalloc(&d_k, n * sizeof(bls::Scalar)));
  CHECK(cudaMalloc(&d_out, n * sizeof(bls::G1Affine)));
  CHECK(cudaMemcpyAsync(d_k, k.data(), n * sizeof(bls::Scalar), cudaMemcpyHostToDevice, s));
  multiples_of_generator<<<1, n, 0, s>>>(d_k, d_out, n);
  CHECK(cudaGetLastError());
  std::vector<bls::G1Affine> got(n);
  CHECK(cudaMemcpyAsync(got.data(), d_out, n * sizeof(bls::G1Affine), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaFree(d_k));
  CHECK(cudaFree(d_out));
  const std::vector<bls::G1Affine> g{bls::G1Affine::generator()};
  for (uint32_t i = 0; i < n; ++i) {
    const bls::G1Affine want = bls::msm(g, std::vector<bls::Scalar>{k[i]}, {.backend = zkgpu::Backend::Cpu});
    if (!(got[i] == want)) return false;
  }
  return true;
}

}  // namespace

int main() {
  if (!zkgpu::cuda_usable()) {
    std::printf("skipped: %s\n", zkgpu::cuda_unavailable_reason().c_str());
    return 77;
  }
  try {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const bool ntt_ok = ntt_after_user_kernel(s);
    const bool p2_ok = poseidon2_in_user_kernel(s);
    const bool curve_ok = curve_in_user_kernel(s);
    CHECK(cudaStreamDestroy(s));
    std::printf("user kernel + zkgpu::ntt_device = CPU NTT: %s\n", ntt_ok ? "yes" : "NO");
    std::printf("user Poseidon2 kernel = CPU batch: %s\n", p2_ok ? "yes" : "NO");
    std::printf("user BLS12-377 kernel = CPU MSM of one point: %s\n", curve_ok ? "yes" : "NO");
    zkgpu::release_gpu_caches();
    return ntt_ok && p2_ok && curve_ok ? 0 : 1;
  } catch (const zkgpu::Error& e) {
    std::fprintf(stderr, "zkgpu error: %s\n", e.what());
    return 1;
  }
}
