// Resident bases and their window table: 2^(c*j) * P for every window j, so that MSMs on them add
// every window into one shared bucket set (docs/msm.md).
#include "msm/cuda/api.hpp"
#include "msm/cuda/common.cuh"
#include "msm/plan.hpp"
#include "msm/signed_digits.hpp"

namespace zkgpu::bls12_377::cuda {

namespace {

// Window table step: next[i] = 2^c * prev[i] for TABLE_BATCH consecutive points per thread, with
// one inversion per batch to bring the results back to the stored affine form. The projective
// (X, Y, Z) of each result waits in its output slot between the two passes (TePrecomputed has room
// for three coordinates), so the doublings run once.
constexpr uint32_t TABLE_BATCH = 16;
__global__ void window_table_kernel(const TePrecomputed* prev, TePrecomputed* next, uint32_t n, unsigned c, Fp half) {
  const uint32_t first = (blockIdx.x * blockDim.x + threadIdx.x) * TABLE_BATCH;
  if (first >= n) return;
  const uint32_t count = n - first < TABLE_BATCH ? n - first : TABLE_BATCH;
  Fp prefix[TABLE_BATCH];
  Fp acc = Fp::one();
  for (uint32_t b = 0; b < count; ++b) {
    const TePrecomputed p = prev[first + b];
    const Fp x = (p.ypx - p.ymx) * half, y = (p.ypx + p.ymx) * half;  // stored (y - x, y + x)
    TeExtended q{x, y, Fp::one(), x * y};
    for (unsigned k = 0; k < c; ++k) q = te_double(q);
    next[first + b] = TePrecomputed{q.x, q.y, q.z};
    prefix[b] = acc;
    acc *= q.z;  // never zero: the doubling formulas are complete on G1
  }
  Fp inv = acc.inverse();
  for (uint32_t b = count; b-- > 0;) {
    const TePrecomputed q = next[first + b];
    const Fp zi = inv * prefix[b];
    inv *= q.kt;  // the slot's third word holds Z
    next[first + b] = te_precompute(q.ymx * zi, q.ypx * zi);
  }
}

// The window table of b (b.n > 0), when it fits in at most half of the free device memory (the
// MSM workspace needs the rest); otherwise b keeps no table and MSMs take the per-window buckets.
void build_window_table(detail::DeviceBases& b, unsigned table_window) {
  const unsigned c = table_window ? table_window : gpu_plan::table_window_bits(b.n), W = msm_window_count_half(c);
  const size_t bytes = size_t{W} * b.n * sizeof(TePrecomputed);
  if (size_t{W} * b.n >= (size_t{1} << 31)) return;  // table indices carry a sign bit in 32 bits
  size_t free_b = 0, total_b = 0;
  ZKGPU_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (bytes > free_b / 2) return;
  b.table = rt::DeviceBuffer<TePrecomputed>(size_t{W} * b.n);
  ZKGPU_CUDA_CHECK(cudaMemcpy(b.table.data(), b.points.data(), b.n * sizeof(TePrecomputed), cudaMemcpyDeviceToDevice));
  const Fp half = Fp::one().dbl().inverse();
  const uint32_t n = static_cast<uint32_t>(b.n);
  const unsigned threads = rt::ceil_div(n, TABLE_BATCH);
  for (unsigned j = 1; j < W; ++j) {
    window_table_kernel<<<rt::ceil_div(threads, 128), 128>>>(b.table.data() + size_t{j - 1} * n,
                                                             b.table.data() + size_t{j} * n, n, c, half);
    ZKGPU_CUDA_CHECK_LAUNCH();
  }
  ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
  b.table_c = c;
  b.table_windows = W;
}
}  // namespace

std::shared_ptr<detail::DeviceBases> upload_bases(const TePrecomputed* points, size_t n, const MsmGpuOptions& opt) {
  check_n(n);
  gpu_plan::check_options(opt);
  rt::require_device_memory(n * sizeof(TePrecomputed), "the BLS12-377 MSM bases");
  auto b = std::make_shared<detail::DeviceBases>();
  b->points = rt::DeviceBuffer<TePrecomputed>(n);
  b->n = n;
  if (n) {
    b->points.upload(points, n);
    ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
    build_window_table(*b, opt.table_window);
  }
  return b;
}

const TePrecomputed* device_points(const detail::DeviceBases& b) { return b.points.data(); }
unsigned window_table_bits(const detail::DeviceBases& b) { return b.table_windows ? b.table_c : 0; }

}  // namespace zkgpu::bls12_377::cuda
