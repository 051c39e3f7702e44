// Device-resident timings for the benchmarks and the CLI's bench commands (not the library): inputs
// generated on the GPU, warm-up runs first, then CUDA events around each run. Each returns one entry
// per run, in milliseconds, and throws zkgpu::Error(InvalidArgument) for warmup < 0, runs < 1 or bad
// sizes. Declared only when ZKGPU_HAVE_CUDA. Constants: the WHIR Poseidon2 set.
#pragma once
#include <cstddef>
#include <vector>

#include "ntt/cuda/api.hpp"  // NttKernelForm

namespace zkgpu::bench {

// In place on a random matrix; `form` picks the NTT kernels (Auto: the library's choice).
std::vector<double> time_ntt_device(unsigned log_n, size_t cols, bool inverse, int warmup, int runs,
                                    cuda::NttKernelForm form = cuda::NttKernelForm::Auto);
std::vector<double> time_poseidon2_device(int width, size_t n_states, int warmup, int runs);
// The same over KoalaBear with Plonky3's default constants.
std::vector<double> time_koalabear_poseidon2_device(int width, size_t n_states, int warmup, int runs);
std::vector<double> time_merkle_device(size_t rows, size_t cols, int warmup, int runs);
std::vector<double> time_pow_device(unsigned bits, int warmup, int runs);

}  // namespace zkgpu::bench
