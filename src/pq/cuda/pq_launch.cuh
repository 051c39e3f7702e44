// Shared by the ML-KEM / ML-DSA kernel files: launch shape and host<->device staging.
#pragma once
#include <cstddef>
#include <cstdint>

#include "runtime/cuda/runtime.cuh"

namespace zkgpu::cuda::pq_launch {

constexpr int PQ_THREADS = 64;  // small blocks: each thread holds kilobytes of local memory

inline unsigned blocks_for(size_t n) { return unsigned((n + PQ_THREADS - 1) / PQ_THREADS); }

// A host buffer staged on the device: `in` uploads it, `fetch` downloads into it.
struct Io {
  const uint8_t* host;
  size_t bytes;
  DeviceBuffer<uint8_t> dev;
};
inline Io in(const uint8_t* p, size_t bytes) {
  Io io{p, bytes, DeviceBuffer<uint8_t>(bytes)};
  io.dev.upload(p, bytes);
  return io;
}
inline Io out(uint8_t* p, size_t bytes) { return Io{p, bytes, DeviceBuffer<uint8_t>(bytes)}; }
inline void fetch(Io& io) { io.dev.download(const_cast<uint8_t*>(io.host), io.bytes); }
inline void finish() {
  ZKGPU_CUDA_CHECK_LAUNCH();
  ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace zkgpu::cuda::pq_launch
