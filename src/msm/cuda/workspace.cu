// The GPU MSM's workspace (workspace.cuh): sizing within the budget, poisoning, slice events.
#include <string>

#include "msm/cuda/api.hpp"
#include "msm/cuda/workspace.cuh"

namespace zkgpu::bls12_377::cuda {

namespace {

// Calls f(buffer, count) for every buffer of the workspace with the count this MSM needs (0: not
// this MSM's; it keeps what it holds).
template <class F>
void for_each_buffer(Workspace& ws, const gpu_plan::WorkspaceSizes& sz, F&& f) {
  auto one = [](size_t count) { return std::max<size_t>(count, 1); };
  for (int k = 0; k < 2; ++k) {
    f(ws.keys[k], one(sz.entries));
    f(ws.vals[k], one(sz.entries));  // the sort's spare value buffer later holds the per-chunk counts
    f(ws.part_keys[k], one(sz.max_parts));
    f(ws.sums[k], one(sz.max_parts));
    f(ws.parts[k], one(sz.pairs));
  }
  f(ws.pos, one(sz.max_chunks));
  f(ws.counters, one(sz.counters));
  f(ws.buckets, one(sz.buckets));
  f(ws.temp, one(sz.temp));
  f(ws.scalars, sz.scalars);
  f(ws.sw_points, sz.bases);
  f(ws.points, sz.bases);
  f(ws.bad, 2);
}

}  // namespace

void prepare_workspace(Workspace& ws, const gpu_plan::MsmPlan& plan, gpu_plan::Inputs inputs, uint32_t n,
                       size_t temp_bytes, bool poison, cudaStream_t stream) {
  const gpu_plan::WorkspaceSizes sz = gpu_plan::workspace_sizes(plan, inputs, n, temp_bytes);
  // What the buffers lack: a repeated MSM of the same size grows nothing and skips the
  // device-memory query.
  size_t growth = 0;
  for_each_buffer(ws, sz, [&](auto& b, size_t count) {
    const size_t want = count * sizeof(*b.data());
    if (want > b.bytes()) growth += want - b.bytes();
  });
  ws.arena().make_room(sz.bytes(), growth,
                       "the BLS12-377 MSM of " + std::to_string(n) + " points (window " + std::to_string(plan.c) + ")");
  for_each_buffer(ws, sz, [](auto& b, size_t count) {
    if (count) b.ensure(count);
  });
  if (poison) ws.arena().poison(stream);
  ZKGPU_CUDA_CHECK(cudaMemsetAsync(ws.bad.data(), 0xff, 2 * sizeof(uint32_t), stream));  // no bad input yet
}

void ensure_slice_events(Workspace& ws, size_t slices) {
  while (ws.slice_events.size() < slices) ws.slice_events.push_back(std::make_unique<Workspace::SliceEvents>());
}

void release_msm_workspace() { rt::context_cache<Workspace>().release(); }

}  // namespace zkgpu::bls12_377::cuda
