// GPU Pippenger for BLS12-377 (docs/msm.md): signed digits -> radix sort of (bucket, point) pairs
// -> bucket sums by fixed chunks of the sorted entries (one thread each, every thread the same
// number of additions, so skewed scalars stay load-balanced), repeated on the partial sums of the
// buckets that cross chunks until none is left -> bucket reduction by partitioned running sums ->
// a pairwise tree. Resident bases with a window table (2^(c*j) * P per window) use one bucket set
// for all windows; otherwise each window has its own, and the W window sums are combined on the
// host (Horner's c doublings per window are a serial chain, which one CPU core runs faster than
// one GPU thread).
// This file runs one MSM through those steps as msm/plan.hpp plans it: digits.cu, bucket_sums.cu,
// reduction.cu and window_table.cu hold the kernels, inputs.cu the uploads from host memory,
// workspace.cu the buffers they share (in the host layer's context, runtime/cuda/context.cuh).
// Under a device-memory budget an MSM too large for it runs as several MSMs over consecutive
// ranges of its points, their sums added on the host.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <vector>

#include "msm/cuda/api.hpp"
#include "msm/cuda/bucket_sums.cuh"
#include "msm/cuda/digits.cuh"
#include "msm/cuda/inputs.cuh"
#include "msm/cuda/reduction.cuh"
#include "msm/cuda/slice_loader.hpp"
#include "msm/cuda/workspace.cuh"
#include "msm/plan.hpp"
#include "runtime/budget.hpp"
#include "runtime/cuda/phase_profiler.cuh"

namespace zkgpu::bls12_377::cuda {

namespace {

using rt::PhaseProfiler;

// The inputs of one MSM: host_scalars (pageable host memory) or d_scalars (device memory), exactly
// one non-null. With host_points (SW, pageable host memory) instead of d_points, the bases are
// uploaded slice by slice with the scalars and converted on the device into ws.points (see
// check_inputs). table_windows: d_points is a window table of that many windows (0: plain bases),
// base i's copy for window w at w * table_stride + i.
struct MsmInputs {
  const TePrecomputed* d_points = nullptr;
  unsigned table_windows = 0;
  uint32_t table_stride = 0;
  const G1Affine* host_points = nullptr;
  const Scalar* d_scalars = nullptr;
  const Scalar* host_scalars = nullptr;

  gpu_plan::Inputs kind() const {
    if (host_points) return gpu_plan::Inputs::FromHost;
    return host_scalars ? gpu_plan::Inputs::HostScalars : gpu_plan::Inputs::Device;
  }
  // The inputs from point `first` on (the same table stride).
  MsmInputs from(uint32_t first) const {
    MsmInputs r = *this;
    auto at = [first](auto* p) { return p ? p + first : p; };
    r.d_points = at(d_points), r.host_points = at(host_points), r.d_scalars = at(d_scalars),
    r.host_scalars = at(host_scalars);
    return r;
  }
};

// Every other stream starts after the set-up on `stream` (poison fills, the bad-point index); the
// identity fill touches only the bucket sets, which only this stream uses, so it runs beside the
// first slice's upload (at 2^24, c = 23, two sets of 805 MB: about 0.5 ms the upload waited).
void start_streams(Workspace& ws, const gpu_plan::MsmPlan& plan, cudaStream_t stream) {
  ZKGPU_CUDA_CHECK(cudaEventRecord(ws.start_ready, stream));
  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(ws.copy_stream(), ws.start_ready, 0));
  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(ws.digit_stream(), ws.start_ready, 0));
  for (int j = 0; j < Workspace::CONVERT_STREAMS; ++j)
    ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(ws.convert_stream(j), ws.start_ready, 0));
  fill_identity(ws.buckets.data(), plan.buckets, stream);
}

// Temporary storage for the largest sort and scan, sized with the workspace before anything runs
// (growing it later would free memory that queued work may still use... and synchronise the
// device). CUB only computes sizes here: no pointer is read.
size_t temp_bytes(const gpu_plan::MsmPlan& plan) {
  size_t sort_bytes = 0, scan_bytes = 0;
  cub::DoubleBuffer<uint32_t> dk(nullptr, nullptr), dv(nullptr, nullptr);
  ZKGPU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, dk, dv, size_t{plan.windows} * plan.max_slice,
                                                   0, plan.end_bit));
  ZKGPU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<uint32_t*>(nullptr),
                                                 static_cast<uint32_t*>(nullptr),
                                                 static_cast<uint32_t>(plan.max_chunks)));
  return std::max(sort_bytes, scan_bytes);
}

// Queues the loading of slice k: digits (and bases from host) on the other streams, or the digits
// of device scalars on the compute stream.
void load_slice(Workspace& ws, const MsmInputs& in, const gpu_plan::MsmPlan& plan, uint32_t n, size_t k,
                cudaStream_t stream) {
  const gpu_plan::Slice sl = plan.slices[k];
  if (in.host_scalars) {
    upload_scalars_slice(ws, in.host_scalars, in.table_stride, sl, plan.c, plan.windows, plan.shared,
                         ws.slice_events[k]->digits);
    if (in.host_points) upload_bases_slice(ws, in.host_points, sl, *ws.slice_events[k]);
  } else {
    launch_digits(in.d_scalars, 0, n, 0, n, in.table_stride, plan.c, plan.windows, plan.shared, ws.keys[0].data(),
                  ws.vals[0].data(), ws.bad.data() + 1, stream);
  }
}

// Sorts slice sl's entries by bucket key on `stream` and returns them with the count of nonzero
// digits, read back (the host waits for the sort). Marks "sort".
SortedEntries sort_slice(Workspace& ws, const gpu_plan::MsmPlan& plan, gpu_plan::Slice sl, PhaseProfiler& phases,
                         cudaStream_t stream) {
  const size_t base = size_t{plan.windows} * sl.first, count = size_t{plan.windows} * sl.count;
  cub::DoubleBuffer<uint32_t> dk(ws.keys[0].data() + base, ws.keys[1].data() + base),
      dv(ws.vals[0].data() + base, ws.vals[1].data() + base);
  size_t temp_bytes = ws.temp.size();
  ZKGPU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ws.temp.data(), temp_bytes, dk, dv, count, 0, plan.end_bit, stream));
  const uint32_t* keys = dk.Current();
  const uint32_t* vals = dv.Current();
  launch_count_valid(keys, static_cast<uint32_t>(count), plan.sentinel, ws.counters.data(), stream);
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&ws.readback[0], ws.counters.data(), 4, cudaMemcpyDeviceToHost, stream));
  ZKGPU_CUDA_CHECK(cudaEventRecord(ws.valid_ready, stream));
  phases.mark("sort");
  ZKGPU_CUDA_CHECK(cudaEventSynchronize(ws.valid_ready));
  // The sort's spare value buffer is free now: it takes the per-chunk counts.
  return {keys, vals, ws.readback[0], dv.Alternate()};
}

// Digits, sort and bucket sums of every slice into ws.buckets. Marks "upload" per slice (what the
// compute stream waited for the slice's uploads and digits), then sort_slice's and sum_buckets'.
void sum_slices(Workspace& ws, const MsmInputs& in, const gpu_plan::MsmPlan& plan, uint32_t n, PhaseProfiler& phases,
                cudaStream_t stream) {
  const std::vector<gpu_plan::Slice>& slices = plan.slices;
  load_slice(ws, in, plan, n, 0, stream);
  // Later slices are loaded by their own host thread, back to back, so the next slice's copy
  // starts as soon as the current one's is queued rather than after this thread has queued the
  // current slice's sort and read back its count of nonzero digits (the GPU's sort of slice 0 at
  // 2^24 is 1 ms). This thread runs the sorts and levels meanwhile. (At 2^20 the second slice's
  // upload, about 1 ms, is as long as the first slice's sorting and sums: the compute stream
  // waited 0.4-1.4 ms on uploads in the H200 runs.)
  SliceLoader loader;
  if (in.host_scalars && slices.size() > 1)
    loader.start([&] {
      for (size_t k = 1; k < slices.size(); ++k) {
        load_slice(ws, in, plan, n, k, stream);
        loader.loaded(k);
      }
    });
  const TePrecomputed* bases = in.host_points ? ws.points.data() : in.d_points;
  for (size_t k = 0; k < slices.size(); ++k) {
    if (in.host_scalars) {
      if (k > 0) loader.wait_for(k);
      ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, ws.slice_events[k]->digits, 0));
    }
    phases.mark("upload");
    const SortedEntries sorted = sort_slice(ws, plan, slices[k], phases, stream);
    if (!sorted.valid) continue;
    if (in.host_points)
      for (auto& e : ws.slice_events[k]->converted) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, e, 0));
    // Every slice sums into the buckets; those after the first start their runs from the sums so far.
    sum_buckets(ws, sorted, bases, k > 0, phases, stream);
  }
  // The last slice's bases may have had no entries to sum: wait for their conversion too (check_inputs
  // and the next MSM's set-up come after this stream).
  loader.finish();
  if (in.host_points)
    for (auto& e : ws.slice_events[slices.size() - 1]->converted) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, e, 0));
}

gpu_plan::MsmPlan plan_for(gpu_plan::Inputs kind, unsigned table_windows, uint32_t n, unsigned c,
                           const MsmGpuOptions& opt) {
  return gpu_plan::plan_msm(n, c, table_windows, kind, opt, resident_sum_threads());
}

// Device bytes the workspace of one MSM of n points holds: what the budget is held against.
size_t workspace_need(gpu_plan::Inputs kind, unsigned table_windows, uint32_t n, unsigned c, const MsmGpuOptions& opt) {
  const gpu_plan::MsmPlan plan = plan_for(kind, table_windows, n, c, opt);
  return gpu_plan::workspace_sizes(plan, kind, n, temp_bytes(plan)).bytes();
}

// One MSM of n points on the compute stream, the workspace sized for it.
TeExtended msm_on_device(Workspace& ws, const MsmInputs& in, uint32_t n, unsigned c, const MsmGpuOptions& opt) {
  const cudaStream_t stream = ws.compute();
  const gpu_plan::MsmPlan plan = plan_for(in.kind(), in.table_windows, n, c, opt);
  prepare_workspace(ws, plan, in.kind(), n, temp_bytes(plan), opt.poison_workspace, stream);
  PhaseProfiler phases(opt.phases, stream);
  start_streams(ws, plan, stream);
  phases.mark("fill");
  ensure_slice_events(ws, plan.slices.size());
  sum_slices(ws, in, plan, n, phases, stream);
  read_bad_inputs(ws, stream);  // lands before reduce_buckets' synchronisation
  const TeExtended result = reduce_buckets(ws, plan, phases, stream);
  phases.finish();
  return result;
}

// Points per MSM so that one fits the call's budget: all n without one, or when they fit.
uint32_t points_per_part(const MsmInputs& in, uint32_t n, unsigned c, const MsmGpuOptions& opt) {
  const uint64_t budget = opt.memory_budget;
  auto need = [&](size_t m) { return workspace_need(in.kind(), in.table_windows, static_cast<uint32_t>(m), c, opt); };
  if (!budget || need(n) <= budget) return n;
  const size_t m = runtime::largest_fitting(n, [&](size_t k) { return need(k) <= budget; });
  if (m == 0)
    runtime::throw_over_budget("the BLS12-377 MSM (window " + std::to_string(c) + ", even one point per part)", need(1),
                               budget);
  return static_cast<uint32_t>(m);
}

// The MSM of n points, as MSMs over consecutive parts when the budget asks for it (the sum is the
// same group element; the result goes to the caller in affine form, so its bytes do not change).
// The inputs are checked part by part, in order, so the first bad scalar or point is the one named.
TeExtended run_msm(MsmInputs in, size_t count, unsigned c, const MsmGpuOptions& opt) {
  check_n(count);
  if (count == 0) return TeExtended::identity();
  const auto n = static_cast<uint32_t>(count);
  in.table_stride = n;
  auto lease = workspace();
  Workspace& ws = *lease;
  ws.gpu.begin_call(opt.memory_budget);
  const uint32_t part = points_per_part(in, n, c, opt);
  TeExtended sum = TeExtended::identity();
  for (uint32_t first = 0; first < n; first += part) {
    const uint32_t m = std::min(part, n - first);
    const TeExtended r = msm_on_device(ws, in.from(first), m, c, opt);
    check_inputs(ws, first);
    sum = first == 0 ? r : te_add(sum, r);
  }
  return sum;
}

unsigned pick_window(size_t n, unsigned c) { return c ? c : gpu_plan::default_window_bits(n); }

}  // namespace

TeExtended msm_device(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned c,
                      const MsmGpuOptions& opt) {
  return run_msm({.d_points = d_points, .d_scalars = d_scalars}, n, pick_window(n, c), opt);
}

TeExtended msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n, unsigned c,
                        const MsmGpuOptions& opt) {
  check_n(n);
  if (n != bases.n) throw_invalid("MSM needs one scalar per base");
  if (bases.table_windows && (c == 0 || c == bases.table_c))
    return run_msm({.d_points = bases.table.data(), .table_windows = bases.table_windows, .host_scalars = host_scalars},
                   n, bases.table_c, opt);
  return run_msm({.d_points = bases.points.data(), .host_scalars = host_scalars}, n, pick_window(n, c), opt);
}

TeExtended msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c,
                         const MsmGpuOptions& opt) {
  return run_msm({.host_points = host_points, .host_scalars = host_scalars}, n, pick_window(n, c), opt);
}

size_t msm_device_bytes(const detail::DeviceBases* bases, bool host_scalars, size_t n, unsigned c,
                        const MsmGpuOptions& opt) {
  check_n(n);
  const auto m = static_cast<uint32_t>(std::max<size_t>(n, 1));
  if (!bases) return workspace_need(gpu_plan::Inputs::FromHost, 0, m, pick_window(n, c), opt);
  if (!host_scalars) return workspace_need(gpu_plan::Inputs::Device, 0, m, pick_window(n, c), opt);
  if (bases->table_windows && (c == 0 || c == bases->table_c))
    return workspace_need(gpu_plan::Inputs::HostScalars, bases->table_windows, m, bases->table_c, opt);
  return workspace_need(gpu_plan::Inputs::HostScalars, 0, m, pick_window(n, c), opt);
}

}  // namespace zkgpu::bls12_377::cuda
