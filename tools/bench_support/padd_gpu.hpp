// Twisted-Edwards mixed additions on the GPU (te_add_precomputed, 7M: the MSM's accumulation
// step, from the public device header zkgpu/device/bls12_377.hpp) in the terms of the Versal
// AI-Engine paper (docs/specs/msm.md §6.4), for `zkgpu padd bench` and bench/msm_bench.cpp.
// Declared only when ZKGPU_HAVE_CUDA. Sizes must be positive and fit 32 bits, else
// Error(InvalidArgument); `check`, when given, gets a result to compare with the CPU.
#pragma once
#include <cstddef>
#include <span>

#include "zkgpu/core/bls12_377/curve.hpp"

#if ZKGPU_HAVE_CUDA
namespace zkgpu::bench {

// Throughput: thread t of `threads` keeps one accumulator and adds bases[(t + k*threads) mod n]
// for k < adds_per_thread (neighbouring threads read neighbouring bases); after one warm-up launch
// of one addition per thread, returns additions per second of the timed launch (CUDA events).
// `check` gets thread 0's accumulator.
double padd_throughput(std::span<const bls12_377::TePrecomputed> bases, size_t threads, size_t adds_per_thread,
                       bls12_377::TeExtended* check);
// Latency: one thread adds bases[k mod n] for k < chain, one dependent chain; after a warm-up
// launch of one addition, returns microseconds per addition. `check` gets the chain's end.
double padd_latency_us(std::span<const bls12_377::TePrecomputed> bases, size_t chain, bls12_377::TeExtended* check);

}  // namespace zkgpu::bench
#endif
