// Multi-scalar multiplication on BLS12-377 G1: sum_i s_i * P_i by Pippenger's bucket method with
// signed digits (shared/specs/msm.md §4), the bucket additions done on the twisted-Edwards form.
// CPU backend: OpenMP over (window, chunk of points). CUDA backend: digits -> radix sort of
// (bucket, point) pairs -> segmented, load-balanced bucket sums -> bucket and window reduction on
// the device (docs/msm.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "zkgpu/backend.hpp"
#include "zkgpu/bls12_377.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::bls12_377 {

// Auto uses the GPU from this many points on (below it the CPU finishes before a launch pays off).
inline constexpr uint64_t MSM_GPU_CROSSOVER_POINTS = uint64_t{1} << 12;
inline constexpr size_t MSM_MAX_POINTS = size_t{1} << 26;
// The largest window the CPU backend takes (its digits are stored in 16 bits).
inline constexpr unsigned MSM_CPU_MAX_WINDOW_BITS = 16;

struct MsmOptions {
  Backend backend = Backend::Auto;
  unsigned window_bits = 0;  // 0: chosen from n; otherwise 2..16 (CPU) or 2..20 (CUDA)
  // Bytes of device memory this call may use besides resident bases; 0: what the device has free.
  // Beyond it the GPU runs the MSM over consecutive parts of the points that each fit and adds
  // their sums (the same result); Error(OutOfMemory) when not even one point does.
  uint64_t gpu_memory_budget = 0;
  // Where the time went, appended: on the GPU the device time between its phases ("fill",
  // "upload", "sort", "sums0", "sums1+" per slice, "reduce", "host folds"; per part under a
  // budget), on the CPU each phase's CPU time summed over the threads ("digits", "scatter",
  // "sort", "sums", "reduce", "combine"); wall_ms adds the call's time.
  PhaseTimes* phase_times = nullptr;
};

namespace detail {
struct DeviceBases;  // the CUDA backend's copy of the bases (opaque here)
}

// Bases prepared once for repeated MSMs (the "optional per-point precomputation"): the mixed-adder
// twisted-Edwards form on the host and, after upload() or the first GPU MSM, a resident device copy.
class MsmBases {
 public:
  // Throws Error(InvalidArgument) naming the first point that is not in G1 when check_subgroup,
  // else only for points where the map is undefined. More than MSM_MAX_POINTS is an error.
  explicit MsmBases(std::span<const G1Affine> points, bool check_subgroup = true);
  ~MsmBases();
  MsmBases(MsmBases&&) noexcept;
  MsmBases& operator=(MsmBases&&) noexcept;

  size_t size() const { return te_.size(); }
  const std::vector<TePrecomputed>& te_points() const { return te_; }
  // Copies the bases to the GPU (once); Error(Unavailable) without a usable GPU.
  void upload() const;
  bool uploaded() const { return device_ != nullptr; }
  const detail::DeviceBases* device() const { return device_.get(); }

 private:
  std::vector<TePrecomputed> te_;
  mutable std::shared_ptr<detail::DeviceBases> device_;
};

// Scalars are canonical (< r). Empty input gives the identity; sizes must match.
G1Affine msm(std::span<const G1Affine> points, std::span<const Scalar> scalars, const MsmOptions& opt = {});
G1Affine msm(const MsmBases& bases, std::span<const Scalar> scalars, const MsmOptions& opt = {});

// The naive sum (one scalar multiplication per point), the reference the tests compare with.
G1Affine msm_naive(std::span<const G1Affine> points, std::span<const Scalar> scalars);

// The window the CPU backend picks for n points.
unsigned msm_cpu_window_bits(size_t n);

}  // namespace zkgpu::bls12_377

namespace zkgpu::bls12_377 {
// Inputs already in GPU memory (device pointers): n bases in the mixed-adder form and n canonical
// scalars (Error(InvalidArgument) naming the first that is not below r). Error(Unavailable) without
// the CUDA backend.
G1Affine msm_device_resident(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n,
                             unsigned window_bits = 0);
// The same after the work queued on the caller's stream (which produced the inputs) has finished;
// the sum comes back to the host, so the call returns when it is done. Both buffers are checked to
// be memory the current device can address.
G1Affine msm_device_resident(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned window_bits,
                             GpuStream stream);
}  // namespace zkgpu::bls12_377
