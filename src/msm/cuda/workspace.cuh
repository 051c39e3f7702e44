// The GPU MSM's process-wide workspace: device buffers grown on demand and reused, the staging
// buffers, the streams and events of one MSM. One MSM at a time holds it (Workspace::mu).
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "msm/cuda/common.cuh"
#include "msm/cuda/priority_stream.cuh"
#include "msm/cuda/staging.cuh"
#include "msm/plan.hpp"

namespace zkgpu::bls12_377::cuda {

struct Workspace {
  std::mutex mu;
  rt::DeviceBuffer<Scalar> scalars;
  rt::DeviceBuffer<TePrecomputed> points;  // for inputs that come from the host each call
  rt::DeviceBuffer<G1Affine> sw_points;
  rt::DeviceBuffer<uint32_t> keys[2], vals[2], pos, part_keys[2];
  rt::DeviceBuffer<uint32_t> counters;  // [0] valid entries, [1] segments
  rt::DeviceBuffer<uint32_t> bad;       // the first base where the TE map is undefined (from-host bases)
  // sums: partial bucket sums per level; parts[k]: the reduction's pairs, x, y and u in thirds.
  rt::DeviceBuffer<TeExtended> sums[2], buckets, parts[2];
  rt::DeviceBuffer<unsigned char> temp;
  Staging staging;  // inputs from host memory
  // start_ready: the compute stream's set-up (poison fills) is done, the other streams wait for it;
  // valid_ready, level_ready: the counts read back into `readback` (pinned, so the reads do not
  // block the host).
  cudaEvent_t start_ready = nullptr, valid_ready = nullptr, level_ready = nullptr;
  rt::PinnedBuffer<uint32_t> readback;  // [0] valid entries, [1] last chunk's position, [2] its count
  std::unique_ptr<PriorityStream> digit_stream;
  // Bases from host are converted chunk by chunk on these streams (upload_bases_slice).
  static constexpr int CONVERT_STREAMS = 4;
  std::unique_ptr<PriorityStream> convert_streams[CONVERT_STREAMS];
  // Per slice of the current MSM: its digits are written (digit_stream), its bases converted (each
  // conversion stream). One set per slice, as the uploads of later slices run ahead of the compute
  // stream (SliceLoader).
  struct SliceEvents {
    cudaEvent_t digits = nullptr;
    cudaEvent_t converted[CONVERT_STREAMS] = {};
  };
  std::vector<SliceEvents> slice_events;
};

// The workspace, created (and registered with release_gpu_caches) on first use, never destroyed.
Workspace& workspace();

// Sizes ws for `plan` (checking the device memory first), creates its streams and events, fills
// every buffer with 0xff bytes when `poison`, and for bases from host sets ws.bad to "no bad point
// yet", all on `stream`.
void prepare_workspace(Workspace& ws, const gpu_plan::MsmPlan& plan, gpu_plan::Inputs inputs, uint32_t n, bool poison,
                       cudaStream_t stream);

// At least `slices` sets of slice events.
void ensure_slice_events(Workspace& ws, size_t slices);

}  // namespace zkgpu::bls12_377::cuda
