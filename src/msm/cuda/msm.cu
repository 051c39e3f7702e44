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
// workspace.cu the buffers they share.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <chrono>
#include <vector>

#include "msm/cuda/api.hpp"
#include "msm/cuda/bucket_sums.cuh"
#include "msm/cuda/digits.cuh"
#include "msm/cuda/inputs.cuh"
#include "msm/cuda/reduction.cuh"
#include "msm/cuda/slice_loader.hpp"
#include "msm/cuda/workspace.cuh"
#include "msm/plan.hpp"
#include "runtime/cuda/phase_profiler.cuh"

namespace zkgpu::bls12_377::cuda {

namespace {

using rt::PhaseProfiler;

// The inputs of one MSM: host_scalars (pageable host memory) or d_scalars (device memory), exactly
// one non-null. With host_points (SW, pageable host memory) instead of d_points, the bases are
// uploaded slice by slice with the scalars and converted on the device into ws.points (see
// check_bases). table_windows: d_points is a window table of that many windows (0: plain bases).
struct MsmInputs {
  const TePrecomputed* d_points = nullptr;
  unsigned table_windows = 0;
  const G1Affine* host_points = nullptr;
  const Scalar* d_scalars = nullptr;
  const Scalar* host_scalars = nullptr;

  gpu_plan::Inputs kind() const {
    if (host_points) return gpu_plan::Inputs::FromHost;
    return host_scalars ? gpu_plan::Inputs::HostScalars : gpu_plan::Inputs::Device;
  }
};

// Every other stream starts after the set-up on `stream` (poison fills, the bad-point index); the
// identity fill touches only the bucket sets, which only this stream uses, so it runs beside the
// first slice's upload (at 2^24, c = 23, two sets of 805 MB: about 0.5 ms the upload waited).
void start_streams(Workspace& ws, const gpu_plan::MsmPlan& plan, cudaStream_t stream) {
  ZKGPU_CUDA_CHECK(cudaEventRecord(ws.start_ready, stream));
  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(ws.staging.copy_stream(), ws.start_ready, 0));
  ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(*ws.digit_stream, ws.start_ready, 0));
  for (auto& cs : ws.convert_streams) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(*cs, ws.start_ready, 0));
  fill_identity(ws.buckets.data(), plan.buckets, stream);
}

// Temporary storage for the largest sort and scan, sized before anything runs (growing it later
// would free memory that queued work may still use... and synchronise the device).
void size_temp(Workspace& ws, const gpu_plan::MsmPlan& plan, cudaStream_t stream) {
  size_t sort_bytes = 0, scan_bytes = 0;
  cub::DoubleBuffer<uint32_t> dk(ws.keys[0].data(), ws.keys[1].data()), dv(ws.vals[0].data(), ws.vals[1].data());
  ZKGPU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, dk, dv, size_t{plan.windows} * plan.max_slice,
                                                   0, plan.end_bit, stream));
  ZKGPU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, ws.pos.data(), ws.pos.data(),
                                                 static_cast<uint32_t>(plan.max_chunks), stream));
  grow(ws.temp, std::max(sort_bytes, scan_bytes));
}

// Queues the loading of slice k: digits (and bases from host) on the other streams, or the digits
// of device scalars on the compute stream.
void load_slice(Workspace& ws, const MsmInputs& in, const gpu_plan::MsmPlan& plan, uint32_t n, size_t k,
                cudaStream_t stream) {
  const gpu_plan::Slice sl = plan.slices[k];
  if (in.host_scalars) {
    upload_scalars_slice(ws, in.host_scalars, n, sl, plan.c, plan.windows, plan.shared, ws.slice_events[k].digits);
    if (in.host_points) upload_bases_slice(ws, in.host_points, sl, ws.slice_events[k].converted);
  } else {
    launch_digits(in.d_scalars, 0, n, 0, n, n, plan.c, plan.windows, plan.shared, ws.keys[0].data(), ws.vals[0].data(),
                  stream);
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
      ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, ws.slice_events[k].digits, 0));
    }
    phases.mark("upload");
    const SortedEntries sorted = sort_slice(ws, plan, slices[k], phases, stream);
    if (!sorted.valid) continue;
    if (in.host_points)
      for (auto& e : ws.slice_events[k].converted) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, e, 0));
    // Every slice sums into the buckets; those after the first start their runs from the sums so far.
    sum_buckets(ws, sorted, bases, k > 0, phases, stream);
  }
  // The last slice's bases may have had no entries to sum: wait for their conversion too (check_bases
  // and the next MSM's set-up come after this stream).
  loader.finish();
  if (in.host_points)
    for (auto& e : ws.slice_events[slices.size() - 1].converted) ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(stream, e, 0));
}

TeExtended msm_on_device(Workspace& ws, const MsmInputs& in, uint32_t n, unsigned c, const MsmGpuOptions& opt,
                         cudaStream_t stream) {
  const gpu_plan::MsmPlan plan = gpu_plan::plan_msm(n, c, in.table_windows, in.kind(), opt, resident_sum_threads());
  prepare_workspace(ws, plan, in.kind(), n, opt.poison_workspace, stream);
  PhaseProfiler phases(opt.phases, stream);
  start_streams(ws, plan, stream);
  size_temp(ws, plan, stream);
  phases.mark("fill");
  ensure_slice_events(ws, plan.slices.size());
  sum_slices(ws, in, plan, n, phases, stream);
  const TeExtended result = reduce_buckets(ws, plan, phases, stream);
  phases.finish();
  return result;
}

unsigned pick_window(size_t n, unsigned c) { return c ? c : gpu_plan::default_window_bits(n); }

}  // namespace

TeExtended msm_device(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned c,
                      const MsmGpuOptions& opt) {
  check_n(n);
  if (n == 0) return TeExtended::identity();
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  rt::Stream stream;
  MsmInputs in;
  in.d_points = d_points;
  in.d_scalars = d_scalars;
  return msm_on_device(ws, in, static_cast<uint32_t>(n), pick_window(n, c), opt, stream);
}

TeExtended msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n, unsigned c,
                        const MsmGpuOptions& opt) {
  check_n(n);
  if (n != bases.n) throw_invalid("MSM needs one scalar per base");
  if (n == 0) return TeExtended::identity();
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  rt::Stream stream;
  MsmInputs in;
  in.host_scalars = host_scalars;
  if (bases.table_windows && (c == 0 || c == bases.table_c)) {
    in.d_points = bases.table.data();
    in.table_windows = bases.table_windows;
    return msm_on_device(ws, in, static_cast<uint32_t>(n), bases.table_c, opt, stream);
  }
  in.d_points = bases.points.data();
  return msm_on_device(ws, in, static_cast<uint32_t>(n), pick_window(n, c), opt, stream);
}

TeExtended msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c,
                         const MsmGpuOptions& opt) {
  check_n(n);
  if (n == 0) return TeExtended::identity();
  Workspace& ws = workspace();
  std::lock_guard<std::mutex> lock(ws.mu);
  rt::Stream stream;
  MsmInputs in;
  in.host_points = host_points;
  in.host_scalars = host_scalars;
  TeExtended r = msm_on_device(ws, in, static_cast<uint32_t>(n), pick_window(n, c), opt, stream);
  check_bases(ws, static_cast<uint32_t>(n), stream);
  return r;
}

std::vector<double> time_msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n,
                                      unsigned c, int warmup, int runs) {
  // Wall time: each MSM ends with the result on the host (the call synchronises).
  std::vector<double> ms;
  for (int r = 0; r < warmup + runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    (void)msm_resident(bases, host_scalars, n, c);
    auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return ms;
}

std::vector<double> time_msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c,
                                       int warmup, int runs) {
  std::vector<double> ms;
  for (int r = 0; r < warmup + runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    (void)msm_from_host(host_points, host_scalars, n, c);
    auto t1 = std::chrono::steady_clock::now();
    if (r >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return ms;
}

}  // namespace zkgpu::bls12_377::cuda
