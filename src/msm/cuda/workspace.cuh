// The GPU MSM's context on one device (the host layer's GpuContext, runtime/cuda/context.cuh): its
// streams, the uploader of inputs from host memory, and the device buffers of one MSM, grown on
// demand in the context's arena and reused. One MSM at a time holds it (context_cache's lease).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "msm/cuda/common.cuh"
#include "msm/plan.hpp"
#include "runtime/cuda/context.cuh"

namespace zkgpu::bls12_377::cuda {

struct Workspace {
  // Bases from host are converted chunk by chunk on this many streams (upload_bases_slice).
  static constexpr int CONVERT_STREAMS = 4;

  // Streams: compute() runs the sorts, sums and reduction; copy_stream() the uploads from host
  // memory; digit_stream() and convert_stream(j) the digits and base conversions of the slices
  // ahead, at the greatest priority: they run while the bucket sums of the current slice fill every
  // SM, and on a normal stream their blocks would wait until the last block of those sums had been
  // dispatched.
  rt::GpuContext gpu{"the BLS12-377 MSM", 2, 1 + CONVERT_STREAMS};
  cudaStream_t compute() const { return gpu.stream(0); }
  cudaStream_t copy_stream() const { return gpu.stream(1); }
  cudaStream_t digit_stream() const { return gpu.priority_stream(0); }
  cudaStream_t convert_stream(int j) const { return gpu.priority_stream(1 + static_cast<unsigned>(j)); }

  rt::DeviceArena& arena() { return gpu.arena(); }
  rt::ArenaBuffer<Scalar> scalars{arena()};
  rt::ArenaBuffer<TePrecomputed> points{arena()};  // for inputs that come from the host each call
  rt::ArenaBuffer<G1Affine> sw_points{arena()};
  rt::ArenaBuffer<uint32_t> keys[2] = {rt::ArenaBuffer<uint32_t>(arena()), rt::ArenaBuffer<uint32_t>(arena())};
  rt::ArenaBuffer<uint32_t> vals[2] = {rt::ArenaBuffer<uint32_t>(arena()), rt::ArenaBuffer<uint32_t>(arena())};
  rt::ArenaBuffer<uint32_t> part_keys[2] = {rt::ArenaBuffer<uint32_t>(arena()), rt::ArenaBuffer<uint32_t>(arena())};
  rt::ArenaBuffer<uint32_t> pos{arena()};
  rt::ArenaBuffer<uint32_t> counters{arena()};  // [0] valid entries, [1] segments
  // The first input that is not what the MSM takes, UINT32_MAX when none: [0] a base from host where
  // the TE map is undefined, [1] a scalar that is not below r (the digits kernel checks every one, so
  // the host does not read the scalars before uploading them).
  rt::ArenaBuffer<uint32_t> bad{arena()};
  // sums: partial bucket sums per level; parts[k]: the reduction's pairs, x, y and u in thirds.
  rt::ArenaBuffer<TeExtended> sums[2] = {rt::ArenaBuffer<TeExtended>(arena()), rt::ArenaBuffer<TeExtended>(arena())};
  rt::ArenaBuffer<TeExtended> buckets{arena()};
  rt::ArenaBuffer<TeExtended> parts[2] = {rt::ArenaBuffer<TeExtended>(arena()), rt::ArenaBuffer<TeExtended>(arena())};
  rt::ArenaBuffer<unsigned char> temp{arena()};  // the sorts' and scans' temporary storage
  // start_ready: the compute stream's set-up (poison fills) is done, the other streams wait for it;
  // valid_ready, level_ready: the counts read back into `readback` (pinned, so the reads do not
  // block the host).
  rt::Event start_ready{cudaEventDisableTiming}, valid_ready{cudaEventDisableTiming},
      level_ready{cudaEventDisableTiming};
  // [0] valid entries, [1] last chunk's position, [2] its count, [3] unused, [4..5] `bad` after the MSM
  rt::PinnedBuffer<uint32_t> readback{6};
  // Per slice of the current MSM: its digits are written (digit_stream), its bases converted (each
  // conversion stream). One set per slice, as the uploads of later slices run ahead of the compute
  // stream (SliceLoader).
  struct SliceEvents {
    rt::Event digits{cudaEventDisableTiming};
    rt::Event converted[CONVERT_STREAMS] = {rt::Event(cudaEventDisableTiming), rt::Event(cudaEventDisableTiming),
                                            rt::Event(cudaEventDisableTiming), rt::Event(cudaEventDisableTiming)};
  };
  std::vector<std::unique_ptr<SliceEvents>> slice_events;
};

// The current device's workspace for one MSM (created, and registered with release_gpu_caches, on
// the device's first MSM).
inline auto workspace() { return rt::context_cache<Workspace>().acquire(); }

// Sizes ws for `plan` (n points, temp_bytes of sort and scan storage) within the call's budget and
// the device's free memory, fills every buffer with 0xff bytes when `poison`, and sets ws.bad to
// "no bad input yet", all on `stream`.
void prepare_workspace(Workspace& ws, const gpu_plan::MsmPlan& plan, gpu_plan::Inputs inputs, uint32_t n,
                       size_t temp_bytes, bool poison, cudaStream_t stream);

// At least `slices` sets of slice events.
void ensure_slice_events(Workspace& ws, size_t slices);

}  // namespace zkgpu::bls12_377::cuda
