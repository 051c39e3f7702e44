// Tuning hooks of the CUDA hash kernels, plain C++ so benchmarks can pick the permutation code form
// and compare them in one device run. Not part of the library's API.
#pragma once

namespace zkgpu::cuda {

// 1: fully unrolled standard-diag permutation (default), 2: round loops kept rolled, 0: the core
// generic permutation (multiplies by p.diag). Applies to later calls with standard-diag params;
// throws Error(InvalidArgument) for other values. Not thread-safe with concurrent hash calls.
void set_poseidon2_kernel_kind(int kind);
int poseidon2_kernel_kind();

}  // namespace zkgpu::cuda
