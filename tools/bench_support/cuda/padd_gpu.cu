// The GPU point-addition probes (padd_gpu.hpp): throughput = independent mixed TE additions
// streamed from memory, latency = one thread's dependent chain, both with the MSM's adder.
#include <string>

#include "bench_support/cuda/event_timing.cuh"
#include "bench_support/padd_gpu.hpp"
#include "runtime/cuda/runtime.cuh"
#include "zkgpu/device/bls12_377.hpp"

namespace zkgpu::bench {
using namespace zkgpu::bls12_377;
namespace rt = ::zkgpu::cuda;

namespace {

// Every addition depends only on its own accumulator. 3 blocks of 128 per SM (142 registers):
// with the fused IMAD.WIDE multiply the H200 ran it at 3.84 G/s against 3.80 at 4 blocks (128
// registers, 64 bytes of spills); the FMA-heavy pipe that executes IMAD.WIDE/IMAD.HI limits it,
// not latency.
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

void check_sizes(const char* what, size_t n_bases, size_t a, size_t b) {
  if (n_bases == 0 || a == 0 || b == 0 || n_bases > 0xffffffffu || a > 0xffffffffu || b > 0xffffffffu)
    throw_invalid(std::string(what) + ": sizes must be positive and fit 32 bits");
}

// The bases on the device and `outs` accumulators, on a stream of their own.
struct Probe {
  Probe(std::span<const TePrecomputed> host_bases, size_t outs)
      : bases(host_bases.size()), out(outs), n(static_cast<uint32_t>(host_bases.size())) {
    bases.upload(host_bases.data(), host_bases.size(), stream);
  }
  // Milliseconds of launch(len), after a warm-up launch(1).
  template <class Launch>
  double time_ms(size_t len, Launch&& launch) {
    launch(1);
    return time_runs(0, 1, stream, [&](cudaStream_t) { launch(static_cast<uint32_t>(len)); })[0];
  }
  void copy_check(TeExtended* check) {
    if (check) out.download(check, 1, stream);
    stream.sync();
  }
  rt::Stream stream;
  rt::DeviceBuffer<TePrecomputed> bases;
  rt::DeviceBuffer<TeExtended> out;
  const uint32_t n;
};

}  // namespace

double padd_throughput(std::span<const TePrecomputed> bases, size_t threads, size_t adds_per_thread,
                       TeExtended* check) {
  check_sizes("padd_throughput", bases.size(), threads, adds_per_thread);
  rt::require_device_memory(bases.size() * sizeof(TePrecomputed) + threads * sizeof(TeExtended), "the PADD benchmark");
  Probe p(bases, threads);
  const unsigned block = 128;
  auto launch = [&](uint32_t adds) {
    padd_stream_kernel<<<rt::ceil_div(threads, block), block, 0, p.stream>>>(
        p.bases.data(), p.n, static_cast<uint32_t>(threads), adds, p.out.data());
    ZKGPU_CUDA_CHECK_LAUNCH();
  };
  const double ms = p.time_ms(adds_per_thread, launch);
  p.copy_check(check);
  return static_cast<double>(threads) * static_cast<double>(adds_per_thread) / (ms / 1e3);
}

double padd_latency_us(std::span<const TePrecomputed> bases, size_t chain, TeExtended* check) {
  check_sizes("padd_latency_us", bases.size(), chain, 1);
  Probe p(bases, 1);
  auto launch = [&](uint32_t len) {
    padd_chain_kernel<<<1, 1, 0, p.stream>>>(p.bases.data(), p.n, len, p.out.data());
    ZKGPU_CUDA_CHECK_LAUNCH();
  };
  const double ms = p.time_ms(chain, launch);
  p.copy_check(check);
  return ms * 1e3 / static_cast<double>(chain);
}

}  // namespace zkgpu::bench
