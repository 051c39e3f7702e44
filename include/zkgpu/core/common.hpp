// Shared by g++ and nvcc: every arithmetic function in include/zkgpu/core is ZKGPU_HD, so one source
// serves the CPU backend and the CUDA kernels (same byte layout, same results).
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define ZKGPU_HD __host__ __device__ __forceinline__
#define ZKGPU_DEVICE_CODE 1
#else
#define ZKGPU_HD inline
#define ZKGPU_DEVICE_CODE 0
#endif
// For large routines called from many places (Keccak-f, NTTs, samplers): one device copy instead
// of an inlined copy per call site, which keeps kernel code and compile time in bounds.
#if defined(__CUDACC__)
#define ZKGPU_HD_NOINLINE inline __host__ __device__ __noinline__  // inline: one definition across TUs
#else
#define ZKGPU_HD_NOINLINE inline
#endif

#if defined(__CUDACC__)  // nvcc understands "unroll" in both its host and device passes
#define ZKGPU_UNROLL _Pragma("unroll")
#define ZKGPU_NO_UNROLL _Pragma("unroll 1")
#elif defined(__GNUC__) && !defined(__clang__)
#define ZKGPU_UNROLL _Pragma("GCC unroll 32")
#define ZKGPU_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define ZKGPU_UNROLL
#define ZKGPU_NO_UNROLL
#endif
