// The CUDA MSM's host-facing entry points as plain C++ (implemented in src/msm/cuda/*.cu, declared
// only when ZKGPU_HAVE_CUDA). Every function throws zkgpu::Error (OutOfMemory when the work does not
// fit on the device), never aborts.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "zkgpu/core/bls12_377/curve.hpp"
#include "zkgpu/msm.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::bls12_377::cuda {

// What travels with one GPU MSM: the tuning values (defaults: the measured choices, docs/msm.md)
// and, for callers who ask, where the time went. Tests set the values that make small inputs take
// the shapes large ones do. No value is kept between calls.
struct MsmGpuOptions {
  // Inputs from host memory run in slices (gpu_plan::plan_slices): the first at least this many
  // points (at least 1). Below 2^16 a slice's sort and bucket-sum launches and host round trips
  // cost more than its upload.
  uint32_t min_slice = 1u << 16;
  // Resident bases with scalars from host memory run in slices from this many points on: below
  // 2^20 the second slice's launches and bucket set cost about what the upload they hide does.
  uint32_t resident_slice_min_n = 1u << 20;
  // upload_bases: the window of the table it builds, 2..23; 0: table_window_bits(n).
  unsigned table_window = 0;
  // The window reduction: about this many parts in all (gpu_plan::reduce_len). H200 run of 3f4b1c9
  // (lanes, parts of consecutive buckets), reduction at 2^20 / 2^24 (c = 23): 2^14 parts 1.11 /
  // 6.55 ms, 2^15 1.29 / 6.65, 2^16 1.59 / 6.91.
  size_t reduce_parts = size_t{1} << 14;
  // ... and at most this many pairs in all left for the host's folds (one per window at least): the
  // last levels have a few threads each, two dependent additions of some 10 us per level on the GPU
  // against about 2 us per pair on one CPU core. (H200 run of 3f4b1c9, 2^20: reduction 1.29 ms with
  // 16 pairs left for the host, 1.36 with every fold on the GPU.)
  uint32_t host_fold_pairs = 16;
  // Tests: fill every workspace buffer with 0xff bytes before the MSM, so a read of anything the MSM
  // did not write changes the result.
  bool poison_workspace = false;
  // Where the time went (appended): device time between the phases (fill, upload, sort, sums0,
  // sums1+ per slice, reduce, then host folds: what the stream idled while the host folded the last
  // pairs and ran Horner's rule). "upload" is what the compute stream waited for uploads and digits
  // beyond its own work.
  PhaseTimes* phases = nullptr;
  // Device bytes the MSM may hold (MsmOptions::gpu_memory_budget; the resident bases are not
  // counted): beyond it the MSM runs as MSMs over consecutive parts of the points that each fit,
  // their sums added on the host (the same result); Error(OutOfMemory) when not even one point
  // does. 0: no budget.
  uint64_t memory_budget = 0;
};

// Uploads the bases and, when it fits in half of the free device memory, builds their window table
// (2^(c*j) * P for every window j, c = opt.table_window or table_window_bits(n)): MSMs on these
// bases with c = 0 (or that c) then add every window into one shared bucket set.
std::shared_ptr<detail::DeviceBases> upload_bases(const TePrecomputed* points, size_t n, const MsmGpuOptions& opt = {});
const TePrecomputed* device_points(const detail::DeviceBases& b);
// The window size of b's table; 0 when b has none.
unsigned window_table_bits(const detail::DeviceBases& b);

// c = 0 picks the window from n (gpu_plan::default_window_bits; resident bases: their table's).
// Bases resident on the device, scalars in host memory.
TeExtended msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n, unsigned c,
                        const MsmGpuOptions& opt = {});
// Bases (short Weierstrass, converted on the device) and scalars in host memory.
TeExtended msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c,
                         const MsmGpuOptions& opt = {});
// Both in device memory.
TeExtended msm_device(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned c,
                      const MsmGpuOptions& opt = {});

// Device bytes the workspace of one GPU MSM of n points holds, what MsmGpuOptions::memory_budget
// is held against (resident bases not counted), for the inputs of msm_resident (bases, scalars
// from host memory), msm_device (bases, device scalars) or msm_from_host (no bases); c as they
// take it.
size_t msm_device_bytes(const detail::DeviceBases* bases, bool host_scalars, size_t n, unsigned c,
                        const MsmGpuOptions& opt = {});

// Frees the workspaces, one per device (the next MSM allocates again).
void release_msm_workspace();

}  // namespace zkgpu::bls12_377::cuda
