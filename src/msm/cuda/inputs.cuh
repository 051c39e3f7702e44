// Inputs from host memory, one slice at a time (gpu_plan::plan_slices): the scalars' upload with
// their digits, and the SW bases' upload with their conversion to the stored TE form.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "msm/cuda/workspace.cuh"

namespace zkgpu::bls12_377::cuda {

// Uploads the scalars of slice sl into ws.scalars chunk by chunk (ws.gpu.uploader(), on
// copy_stream) and computes the digits of each chunk as it lands (on digit_stream); records
// `ready` when the slice's digits are written. stride: the window table's stride (launch_digits).
void upload_scalars_slice(Workspace& ws, const Scalar* host, uint32_t stride, gpu_plan::Slice sl, unsigned c,
                          unsigned W, bool shared, cudaEvent_t ready);
// Uploads the SW bases of slice sl and converts them on the device into ws.points; records
// ev.converted[*] (one per conversion stream) when they are all converted. The index of the first
// point where the map is undefined lands in ws.bad[0], which check_inputs reads after the MSM.
void upload_bases_slice(Workspace& ws, const G1Affine* host_points, gpu_plan::Slice sl, Workspace::SliceEvents& ev);
// Queues the copy of ws.bad into ws.readback[4..5] on `stream`, after the MSM's digits and base
// conversions (the compute stream has waited for them).
void read_bad_inputs(Workspace& ws, cudaStream_t stream);
// Once that copy has landed: Error(InvalidArgument) naming the first scalar not below r, else the
// first base from host where the TE map is undefined, counted from `first` (the MSM's part, when a
// budget splits it).
void check_inputs(const Workspace& ws, uint32_t first);

}  // namespace zkgpu::bls12_377::cuda
