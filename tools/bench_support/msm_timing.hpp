// GPU MSM timings for `zkgpu msm bench` and bench/msm_bench.cpp, on the public API: the host wall
// time of each bls12_377::msm call on the CUDA backend after one warm-up call (the call returns
// with the sum on the host), in milliseconds, one entry per run. `last`, when given, gets the last
// run's sum. Error(InvalidArgument) for runs < 1, Error(Unavailable) without a usable GPU, and
// whatever msm() throws for its inputs.
#pragma once
#include <span>
#include <vector>

#include "zkgpu/msm.hpp"

namespace zkgpu::bench {

// Bases resident on the device (uploaded once, before the warm-up), scalars from host memory each
// run. c = 0: the window msm() picks (the bases' window table).
std::vector<double> time_msm_resident(const bls12_377::MsmBases& bases, std::span<const bls12_377::Scalar> scalars,
                                      unsigned c, int runs, bls12_377::G1Affine* last = nullptr);
// Short-Weierstrass bases and scalars both from host memory each run (converted on the device).
std::vector<double> time_msm_from_host(std::span<const bls12_377::G1Affine> points,
                                       std::span<const bls12_377::Scalar> scalars, unsigned c, int runs,
                                       bls12_377::G1Affine* last = nullptr);

}  // namespace zkgpu::bench
