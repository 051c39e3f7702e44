// The window reduction of the GPU MSM (msm/bucket_reduce.hpp): running sums over parts of the
// buckets and folds on the device, the last folds and the combination of the windows on the host.
#pragma once
#include <cuda_runtime.h>

#include "msm/cuda/workspace.cuh"
#include "runtime/cuda/phase_profiler.cuh"

namespace zkgpu::bls12_377::cuda {

// The MSM's sum from the bucket sets in ws.buckets (plan.bucket_sets of plan.buckets_per_window
// each), on `stream`, which it synchronises. Marks "reduce" (the device part) and "host folds".
TeExtended reduce_buckets(Workspace& ws, const gpu_plan::MsmPlan& plan, ::zkgpu::cuda::PhaseProfiler& phases,
                          cudaStream_t stream);

}  // namespace zkgpu::bls12_377::cuda
