// The GPU MSM's workspace (workspace.cuh): its singleton, sizing, poisoning and release.
#include "msm/cuda/api.hpp"
#include "msm/cuda/workspace.cuh"
#include "runtime/device_caches.hpp"

namespace zkgpu::bls12_377::cuda {

Workspace& workspace() {
  static Workspace* ws = [] {  // never destroyed: no CUDA calls during static teardown
    ::zkgpu::runtime::register_device_cache(&release_msm_workspace);
    return new Workspace;
  }();
  return *ws;
}

namespace {

template <class T>
void poison_fill(rt::DeviceBuffer<T>& b, cudaStream_t s) {
  if (b.size()) ZKGPU_CUDA_CHECK(cudaMemsetAsync(b.data(), 0xff, b.size() * sizeof(T), s));
}

void ensure_streams(Workspace& ws) {
  ws.staging.ensure();
  for (cudaEvent_t* e : {&ws.start_ready, &ws.valid_ready, &ws.level_ready})
    if (!*e) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  if (!ws.readback.data()) ws.readback = rt::PinnedBuffer<uint32_t>(4);
  if (!ws.digit_stream) ws.digit_stream = std::make_unique<PriorityStream>();
  for (auto& cs : ws.convert_streams)
    if (!cs) cs = std::make_unique<PriorityStream>();
}

// Checks that what the plan needs beyond the buffers ws already has fits on the device, then grows
// them.
void grow_buffers(Workspace& ws, const gpu_plan::MsmPlan& plan, bool host_scalars, bool host_points, uint32_t n) {
  const size_t need = plan.workspace_bytes;
  size_t have = 0;
  // Every buffer `need` counts, so a repeated MSM of the same size skips the device-memory query.
  for (auto* b : {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1]})
    have += b->size() * 4;
  for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]})
    have += b->size() * sizeof(TeExtended);
  have += ws.scalars.size() * sizeof(Scalar);
  if (need > have) rt::require_device_memory(need - std::min(need, have), "the BLS12-377 MSM workspace");

  for (int k = 0; k < 2; ++k) {
    grow(ws.keys[k], plan.entries);
    grow(ws.vals[k], plan.entries);  // the sort's spare value buffer later holds the per-chunk counts
    grow(ws.part_keys[k], plan.max_parts);
    grow(ws.sums[k], plan.max_parts);
    grow(ws.parts[k], 3 * size_t{plan.parts});
  }
  grow(ws.pos, plan.max_chunks);
  grow(ws.counters, 2);
  grow(ws.buckets, plan.buckets);
  if (host_scalars) grow(ws.scalars, n);
  if (host_points) {
    rt::require_device_memory(size_t{n} * (sizeof(G1Affine) + sizeof(TePrecomputed)), "the BLS12-377 MSM bases");
    grow(ws.sw_points, n);
    grow(ws.points, n);
    grow(ws.bad, 1);
  }
}

void poison_buffers(Workspace& ws, bool host_scalars, bool host_points, cudaStream_t stream) {
  for (auto* b :
       {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1], &ws.counters})
    poison_fill(*b, stream);
  for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]}) poison_fill(*b, stream);
  if (host_scalars) poison_fill(ws.scalars, stream);
  if (host_points) {
    poison_fill(ws.points, stream);
    poison_fill(ws.sw_points, stream);
  }
}

}  // namespace

void prepare_workspace(Workspace& ws, const gpu_plan::MsmPlan& plan, gpu_plan::Inputs inputs, uint32_t n, bool poison,
                       cudaStream_t stream) {
  const bool host_scalars = inputs != gpu_plan::Inputs::Device, host_points = inputs == gpu_plan::Inputs::FromHost;
  grow_buffers(ws, plan, host_scalars, host_points, n);
  ensure_streams(ws);
  if (poison) poison_buffers(ws, host_scalars, host_points, stream);
  if (host_points) {
    ws.readback[3] = n;  // no bad point yet
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(ws.bad.data(), &ws.readback[3], 4, cudaMemcpyHostToDevice, stream));
  }
}

void ensure_slice_events(Workspace& ws, size_t slices) {
  while (ws.slice_events.size() < slices) {
    Workspace::SliceEvents ev;
    ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&ev.digits, cudaEventDisableTiming));
    for (auto& e : ev.converted) ZKGPU_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    ws.slice_events.push_back(ev);
  }
}

void release_msm_workspace() {
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  ws.scalars.reset();
  ws.points.reset();
  ws.sw_points.reset();
  ws.bad.reset();
  ws.staging.release();
  ws.readback = rt::PinnedBuffer<uint32_t>();
  for (auto* b :
       {&ws.keys[0], &ws.keys[1], &ws.vals[0], &ws.vals[1], &ws.pos, &ws.part_keys[0], &ws.part_keys[1], &ws.counters})
    b->reset();
  for (auto* b : {&ws.sums[0], &ws.sums[1], &ws.buckets, &ws.parts[0], &ws.parts[1]}) b->reset();
  ws.temp.reset();
}

}  // namespace zkgpu::bls12_377::cuda
