// The GPU MSM timings (msm_timing.hpp) over the public msm() calls.
#include "bench_support/msm_timing.hpp"

#include "bench_support/wall_time.hpp"

namespace zkgpu::bench {
using namespace zkgpu::bls12_377;

namespace {
MsmOptions on_gpu(unsigned c) { return {.backend = Backend::Cuda, .window_bits = c}; }
}  // namespace

std::vector<double> time_msm_resident(const MsmBases& bases, std::span<const Scalar> scalars, unsigned c, int runs,
                                      G1Affine* last) {
  check_runs("time_msm_resident", 1, runs);
  bases.upload();
  G1Affine r{};
  auto ms = wall_ms("time_msm_resident", 1, runs, [&] { r = msm(bases, scalars, on_gpu(c)); });
  if (last) *last = r;
  return ms;
}

std::vector<double> time_msm_from_host(std::span<const G1Affine> points, std::span<const Scalar> scalars, unsigned c,
                                       int runs, G1Affine* last) {
  G1Affine r{};
  auto ms = wall_ms("time_msm_from_host", 1, runs, [&] { r = msm(points, scalars, on_gpu(c)); });
  if (last) *last = r;
  return ms;
}

}  // namespace zkgpu::bench
