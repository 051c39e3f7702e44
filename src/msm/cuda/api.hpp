// The CUDA MSM's host-facing entry points as plain C++ (implemented in src/msm/cuda/*.cu, declared
// only when ZKGPU_HAVE_CUDA). Every function throws zkgpu::Error (OutOfMemory when the work does not
// fit on the device), never aborts.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "zkgpu/core/bls12_377/curve.hpp"
#include "zkgpu/msm.hpp"

namespace zkgpu::bls12_377::cuda {

// Uploads the bases and, when it fits in half of the free device memory, builds their window table
// (2^(c*j) * P for every window j, c = table_window_bits(n)): MSMs on these bases with c = 0 (or that
// c) then add every window into one shared bucket set.
std::shared_ptr<detail::DeviceBases> upload_bases(const TePrecomputed* points, size_t n);
const TePrecomputed* device_points(const detail::DeviceBases& b);
unsigned table_window_bits(size_t n);
// The window size of b's table; 0 when b has none.
unsigned window_table_bits(const detail::DeviceBases& b);

// c = 0 picks the window from n.
unsigned default_window_bits(size_t n);
// Bases resident on the device, scalars in host memory.
TeExtended msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n, unsigned c);
// Bases (short Weierstrass, converted on the device) and scalars in host memory.
TeExtended msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c);
// Both in device memory.
TeExtended msm_device(const TePrecomputed* d_points, const Scalar* d_scalars, size_t n, unsigned c);

// Timings (milliseconds per run, after warm-up), for the benchmarks:
// resident: bases on the device, scalars uploaded from host memory each run;
// from_host: SW bases and scalars uploaded each run, the bases converted on the device (msm_from_host).
std::vector<double> time_msm_resident(const detail::DeviceBases& bases, const Scalar* host_scalars, size_t n,
                                      unsigned c, int warmup, int runs);
std::vector<double> time_msm_from_host(const G1Affine* host_points, const Scalar* host_scalars, size_t n, unsigned c,
                                       int warmup, int runs);

// Point-addition benchmark (twisted-Edwards mixed additions, 7M). Throughput: `threads` independent
// accumulators, each adding `adds_per_thread` bases streamed from memory; returns additions per
// second. Latency: one thread, one dependent chain of `chain` additions; returns microseconds per
// addition. `check` receives the first accumulator / the chain's end for a CPU comparison.
double padd_throughput(const TePrecomputed* host_bases, size_t n_bases, size_t threads, size_t adds_per_thread,
                       TeExtended* check);
double padd_latency_us(const TePrecomputed* host_bases, size_t n_bases, size_t chain, TeExtended* check);

}  // namespace zkgpu::bls12_377::cuda

namespace zkgpu::bls12_377::cuda {
// Tests: fill every workspace buffer with 0xff bytes before each MSM, so a read of anything that
// MSM did not write changes the result.
void set_msm_poison(bool on);
// Tests: the smallest first slice of inputs from host memory (0 restores the default, 2^16 points),
// so small inputs run through several slices.
void set_msm_min_slice(size_t points);
// Tests: the window size of window tables built from now on (0 restores table_window_bits' choice),
// so small inputs reach the sizes large ones use (c = 23: 11 windows).
void set_msm_table_window(unsigned c);
// Tests: the window reduction's shape, about 2^parts_log2 parts and at most host_pairs pairs left
// for the host's folds (0 restores each default), so small inputs run the shapes large ones take.
void set_msm_reduce_shape(unsigned parts_log2, uint32_t host_pairs);
// Frees the process-wide workspace (the next MSM allocates again).
void release_msm_workspace();
}  // namespace zkgpu::bls12_377::cuda
