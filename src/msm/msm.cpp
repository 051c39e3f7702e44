// MSM front end: validation, backend choice, and the hand-over between the SW API and the TE
// arithmetic of both backends.
#include "zkgpu/msm.hpp"

#include <omp.h>

#include <string>

#include "msm/signed_digits.hpp"
#include "msm/cpu/msm_cpu.hpp"
#include "msm/msm_tuned.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/caller_memory.hpp"
#endif

namespace zkgpu::bls12_377 {

namespace {
void check_sizes(size_t points, size_t scalars) {
  if (points != scalars)
    throw_invalid("MSM needs one scalar per point: " + std::to_string(points) + " points, " + std::to_string(scalars) +
                  " scalars");
  if (points > MSM_MAX_POINTS) throw_invalid("MSM of " + std::to_string(points) + " points exceeds the supported 2^26");
}

void check_scalars(std::span<const Scalar> scalars) {
  size_t bad = scalars.size();
#pragma omp parallel for reduction(min : bad)
  for (size_t i = 0; i < scalars.size(); ++i)
    if (!Fr::is_canonical(scalars[i])) bad = std::min(bad, i);
  if (bad != scalars.size()) throw_invalid("scalar " + std::to_string(bad) + " is not below r");
}

void check_window(unsigned c, unsigned max_c) {
  if (c != 0 && (c < 2 || c > max_c))
    throw_invalid("window_bits = " + std::to_string(c) + " is outside 2.." + std::to_string(max_c));
}

// The GPU options of one call: the tuning values given, the budget and the phases from the public
// options unless the tuning values set their own.
[[maybe_unused]] cuda::MsmGpuOptions gpu_options(const MsmOptions& opt, cuda::MsmGpuOptions gpu) {
  if (!gpu.memory_budget) gpu.memory_budget = opt.gpu_memory_budget;
  if (!gpu.phases) gpu.phases = opt.phase_times;
  return gpu;
}

G1Affine run(const MsmBases& bases, std::span<const Scalar> scalars, const MsmOptions& opt,
             [[maybe_unused]] const cuda::MsmGpuOptions& gpu) {
  check_sizes(bases.size(), scalars.size());
  if (scalars.empty()) return G1Affine::identity();
  if (resolve_backend(opt.backend, scalars.size(), MSM_GPU_CROSSOVER_POINTS) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    // The GPU checks the scalars as it computes their digits (Error(InvalidArgument) naming the
    // first one not below r): a host pass over them cost 6-11 ms at 2^20-2^24 on the H200 host.
    check_window(opt.window_bits, 20);
    bases.upload();
    return te_to_sw(
        cuda::msm_resident(*bases.device(), scalars.data(), scalars.size(), opt.window_bits, gpu_options(opt, gpu)));
#endif
  }
  check_scalars(scalars);
  check_window(opt.window_bits, cpu::MAX_WINDOW_BITS);
  unsigned c = opt.window_bits ? opt.window_bits : msm_cpu_window_bits(scalars.size());
  return te_to_sw(cpu::msm_te(bases.te_points().data(), scalars.data(), scalars.size(), c, cpu::Accumulation::Auto,
                              opt.phase_times));
}
}  // namespace

unsigned msm_cpu_window_bits(size_t n) {
  // Minimise W * (n + 1.35 * 2^c): n bucket additions and 2^(c-1) buckets per window, each bucket
  // costing ~2.7 bucket additions in the reduction (two unified additions, ~1.45x a mixed one,
  // against a mixed addition plus its share of digits and sorts: one Zen 4 thread at 2^20 spent
  // 233 ns per bucket and 87 ns per entry). This picks c = 16 from 2^20 on (one Zen 4 thread at
  // 2^20: 1651-1687 ms against 1713-1745 for c = 15) and the same c as W * (n + 2^c) below.
  unsigned best = 2;
  double best_cost = 1e300;
  for (unsigned c = 2; c <= cpu::MAX_WINDOW_BITS; ++c) {
    double cost =
        static_cast<double>(msm_window_count(c)) * (static_cast<double>(n) + 1.35 * static_cast<double>(1u << c));
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

MsmBases::MsmBases(std::span<const G1Affine> points, bool check_subgroup) {
  if (points.size() > MSM_MAX_POINTS)
    throw_invalid("MSM of " + std::to_string(points.size()) + " points exceeds the supported 2^26");
  if (check_subgroup) {
    size_t bad = points.size();
#pragma omp parallel for schedule(dynamic, 64) reduction(min : bad)
    for (size_t i = 0; i < points.size(); ++i) {
      std::string err;
      if (!validate_g1(points[i], err)) bad = std::min(bad, i);
    }
    if (bad != points.size()) {
      std::string err;
      validate_g1(points[bad], err);
      throw_invalid("point " + std::to_string(bad) + ": " + err);
    }
  }
  te_ = precompute_te(points);
}
MsmBases::~MsmBases() = default;
MsmBases::MsmBases(MsmBases&&) noexcept = default;
MsmBases& MsmBases::operator=(MsmBases&&) noexcept = default;

void MsmBases::upload() const {
  if (device_) return;
#if ZKGPU_HAVE_CUDA
  if (!cuda_usable()) throw Error(ErrorCode::Unavailable, "no usable GPU: " + cuda_unavailable_reason());
  device_ = cuda::upload_bases(te_.data(), te_.size());
#else
  throw Error(ErrorCode::Unavailable, cuda_unavailable_reason());
#endif
}

G1Affine msm_tuned(std::span<const G1Affine> points, std::span<const Scalar> scalars, const MsmOptions& opt,
                   [[maybe_unused]] const cuda::MsmGpuOptions& gpu) {
  check_sizes(points.size(), scalars.size());
  // One-off bases: callers of this overload vouch for their points (the CLI validates each line);
  // MsmBases(points, true) is the checked path. On the GPU the bases are converted on the device.
  if (!scalars.empty() && resolve_backend(opt.backend, scalars.size(), MSM_GPU_CROSSOVER_POINTS) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    check_window(opt.window_bits, 20);  // the scalars: as for resident bases
    return te_to_sw(
        cuda::msm_from_host(points.data(), scalars.data(), scalars.size(), opt.window_bits, gpu_options(opt, gpu)));
#endif
  }
  MsmBases bases(points, false);
  return run(bases, scalars, opt, gpu);
}

G1Affine msm_tuned(const MsmBases& bases, std::span<const Scalar> scalars, const MsmOptions& opt,
                   const cuda::MsmGpuOptions& gpu) {
  return run(bases, scalars, opt, gpu);
}

G1Affine msm(std::span<const G1Affine> points, std::span<const Scalar> scalars, const MsmOptions& opt) {
  return msm_tuned(points, scalars, opt, {});
}

G1Affine msm(const MsmBases& bases, std::span<const Scalar> scalars, const MsmOptions& opt) {
  return msm_tuned(bases, scalars, opt, {});
}

G1Affine msm_device_resident(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned window_bits) {
  return msm_device_resident(d_points, d_scalars, n, window_bits, GpuStream{});
}

G1Affine msm_device_resident(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned window_bits,
                             GpuStream stream) {
  check_sizes(n, n);
  check_window(window_bits, 20);
  resolve_backend(Backend::Cuda, n, 0);  // Error(Unavailable) without a usable GPU
  if (n == 0) return G1Affine::identity();
#if ZKGPU_HAVE_CUDA
  zkgpu::cuda::require_device_pointer(d_points, n * sizeof(TePrecomputed), "msm_device_resident: d_points");
  zkgpu::cuda::require_device_pointer(d_scalars, n * sizeof(Scalar), "msm_device_resident: d_scalars");
  zkgpu::cuda::sync_caller_stream(stream.handle);
  return te_to_sw(cuda::msm_device(d_points, d_scalars, n, window_bits));
#else
  (void)d_points, (void)d_scalars, (void)stream;
  return G1Affine{};
#endif
}

G1Affine msm_naive(std::span<const G1Affine> points, std::span<const Scalar> scalars) {
  check_sizes(points.size(), scalars.size());
  G1Jacobian acc = G1Jacobian::identity();
  for (size_t i = 0; i < points.size(); ++i) acc = jac_add(acc, scalar_mul(points[i], scalars[i]));
  return jac_to_affine(acc);
}

}  // namespace zkgpu::bls12_377
