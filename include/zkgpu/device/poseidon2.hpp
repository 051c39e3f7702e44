// The Poseidon2 permutation over BabyBear (widths 16 and 24) and the Merkle hash built on it
// (PaddingFreeSponge<16,8,8>, TruncatedPermutation<2,8,16>) for a user's own CUDA kernels: the
// functions zkgpu's Merkle and WHIR kernels call per thread. The round constants are a
// Poseidon2Params<W> value: build it on the host (zkgpu::poseidon2_params<W>(set), constexpr, in
// this header's params.hpp; or from a table of your own) and pass it to the kernel by value.
#pragma once
#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/params.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"
