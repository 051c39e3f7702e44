// Inputs and CPU measurements shared by `zkgpu msm|padd bench` and bench/msm_bench.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "zkgpu/core/bls12_377/curve.hpp"

namespace zkgpu::bls12_377 {

// n distinct points of G1, fast: Q_j + R_i for two tables of random multiples of G (2*sqrt(n)
// scalar multiplications, then one addition and a batched normalisation per point).
std::vector<G1Affine> random_g1_points(size_t n, uint64_t seed);
std::vector<Scalar> random_scalars(size_t n, uint64_t seed);

// Mixed TE additions (te_add_precomputed) on the CPU. Throughput: each thread keeps 8 independent
// accumulators and streams over the bases; returns additions per second. Latency: one dependent
// chain on one thread; returns microseconds per addition. `check` gets the chain's end.
double padd_cpu_throughput(const std::vector<TePrecomputed>& bases, unsigned threads, size_t adds_per_thread);
// The same streamed additions eight at a time on AVX-512 IFMA (the CPU MSM's adder): each thread
// keeps one 8-lane accumulator, lane l adding bases[(s + 8k + l) mod n] at step k, s = 7919 *
// thread. Returns additions per second, or 0 without IFMA. `check` (8 entries) gets thread 0's
// lane sums.
double padd_cpu_throughput_ifma(const std::vector<TePrecomputed>& bases, unsigned threads, size_t adds_per_thread,
                                TeExtended* check = nullptr);
double padd_cpu_latency_us(const std::vector<TePrecomputed>& bases, size_t chain, TeExtended* check);
// The same chain with each addition's products spread over the IFMA lanes (te_lanes_ifma.hpp):
// 0 without AVX-512 IFMA.
double padd_cpu_latency_ifma_us(const std::vector<TePrecomputed>& bases, size_t chain, TeExtended* check = nullptr);

}  // namespace zkgpu::bls12_377
