// Point-addition benchmark kernels in the terms of the Versal AI-Engine paper (shared/specs/msm.md
// §6.4): throughput = independent mixed TE additions streamed from memory; latency = one thread's
// dependent chain. Both use the MSM's accumulation step (te_add_precomputed, 7M).
#include <algorithm>

#include "runtime/cuda/runtime.cuh"
#include "msm/cuda/api.hpp"

namespace zkgpu::bls12_377::cuda {
namespace rt = ::zkgpu::cuda;

namespace {

// Thread t adds bases[(t + k*threads) mod n_bases] for k < adds: neighbouring threads read
// neighbouring bases (coalesced), and every addition depends only on its own accumulator.
// 3 blocks of 128 per SM (142 registers): with the fused IMAD.WIDE multiply the H200 ran it at 3.84
// G/s against 3.80 at 4 blocks (128 registers, 64 bytes of spills). (With the older multiply both
// ran at 3.135 G/s: the FMA-heavy pipe that executes IMAD.WIDE/IMAD.HI limits it, not latency.)
__global__ void __launch_bounds__(128, 3)
    padd_stream_kernel(const TePrecomputed* bases, uint32_t n_bases, uint32_t threads, uint32_t adds, TeExtended* out) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  TeExtended acc = TeExtended::identity();
  uint64_t idx = t % n_bases;
  for (uint32_t k = 0; k < adds; ++k) {
    acc = te_add_precomputed(acc, bases[idx]);
    idx = (idx + threads) % n_bases;
  }
  out[t] = acc;
}

__global__ void padd_chain_kernel(const TePrecomputed* bases, uint32_t n_bases, uint32_t chain, TeExtended* out) {
  TeExtended acc = TeExtended::identity();
  for (uint32_t k = 0; k < chain; ++k) acc = te_add_precomputed(acc, bases[k % n_bases]);
  *out = acc;
}

}  // namespace

double padd_throughput(const TePrecomputed* host_bases, size_t n_bases, size_t threads, size_t adds_per_thread,
                       TeExtended* check) {
  if (n_bases == 0 || threads == 0 || adds_per_thread == 0 || threads > 0xffffffffu || n_bases > 0xffffffffu)
    throw_invalid("padd_throughput: sizes must be positive and fit 32 bits");
  rt::require_device_memory(n_bases * sizeof(TePrecomputed) + threads * sizeof(TeExtended), "the PADD benchmark");
  rt::DeviceBuffer<TePrecomputed> bases(n_bases);
  rt::DeviceBuffer<TeExtended> out(threads);
  rt::Stream stream;
  bases.upload(host_bases, n_bases, stream);
  const unsigned block = 128;
  auto launch = [&](uint32_t adds) {
    padd_stream_kernel<<<rt::ceil_div(threads, block), block, 0, stream>>>(
        bases.data(), static_cast<uint32_t>(n_bases), static_cast<uint32_t>(threads), adds, out.data());
    ZKGPU_CUDA_CHECK_LAUNCH();
  };
  launch(1);  // warm-up
  rt::Event start, stop;
  start.record(stream);
  launch(static_cast<uint32_t>(adds_per_thread));
  stop.record(stream);
  stop.sync();
  double seconds = stop.since(start) / 1e3;
  if (check) out.download(check, 1, stream);
  stream.sync();
  return static_cast<double>(threads) * static_cast<double>(adds_per_thread) / seconds;
}

double padd_latency_us(const TePrecomputed* host_bases, size_t n_bases, size_t chain, TeExtended* check) {
  if (n_bases == 0 || chain == 0 || n_bases > 0xffffffffu || chain > 0xffffffffu)
    throw_invalid("padd_latency_us: sizes must be positive and fit 32 bits");
  rt::DeviceBuffer<TePrecomputed> bases(n_bases);
  rt::DeviceBuffer<TeExtended> out(1);
  rt::Stream stream;
  bases.upload(host_bases, n_bases, stream);
  padd_chain_kernel<<<1, 1, 0, stream>>>(bases.data(), static_cast<uint32_t>(n_bases), 1, out.data());  // warm-up
  ZKGPU_CUDA_CHECK_LAUNCH();
  rt::Event start, stop;
  start.record(stream);
  padd_chain_kernel<<<1, 1, 0, stream>>>(bases.data(), static_cast<uint32_t>(n_bases), static_cast<uint32_t>(chain),
                                         out.data());
  ZKGPU_CUDA_CHECK_LAUNCH();
  stop.record(stream);
  stop.sync();
  if (check) out.download(check, 1, stream);
  stream.sync();
  return stop.since(start) * 1e3 / static_cast<double>(chain);
}

}  // namespace zkgpu::bls12_377::cuda
