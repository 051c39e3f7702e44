// The public msm() with the CUDA backend's per-call tuning values (internal: for the tests that
// give small inputs the shapes of large ones). msm(..., opt) is msm_tuned(..., opt, {}); on the CPU
// backend `gpu` is ignored, and so is gpu.table_window (MsmBases::upload builds the table its size
// picks; cuda::upload_bases takes the option).
#pragma once
#include <span>

#include "msm/cuda/api.hpp"
#include "zkgpu/msm.hpp"

namespace zkgpu::bls12_377 {

G1Affine msm_tuned(std::span<const G1Affine> points, std::span<const Scalar> scalars, const MsmOptions& opt,
                   const cuda::MsmGpuOptions& gpu);
G1Affine msm_tuned(const MsmBases& bases, std::span<const Scalar> scalars, const MsmOptions& opt,
                   const cuda::MsmGpuOptions& gpu);

}  // namespace zkgpu::bls12_377
