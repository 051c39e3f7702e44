// Shared by the ML-KEM / ML-DSA kernel files: launch shape and host<->device staging.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "runtime/cuda/runtime.cuh"
#include "runtime/env.hpp"

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

// With ZKGPU_PQ_TRACE=1, a batch call (or one chunk of it) prints the device time of each of its
// phases (uploads, each kernel, downloads) on its stream, and the host wall time, to stderr: a
// diagnostic for runs on the GPU machine, where the CLI bench only sees the whole call. Costs
// nothing when unset.
inline bool trace_enabled() {
  static const bool on = env_flag("ZKGPU_PQ_TRACE");
  return on;
}
class Trace {
 public:
  Trace(const char* what, size_t n, cudaStream_t stream = nullptr)
      : on_(trace_enabled()), what_(what), n_(n), stream_(stream), t0_(std::chrono::steady_clock::now()) {
    mark("start");
  }
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;
  void mark(const char* phase) {
    if (!on_) return;
    events_.push_back(std::make_unique<Event>());
    phases_.push_back(phase);
    events_.back()->record(stream_);
  }
  ~Trace() {
    if (!on_) return;
    try {
      events_.back()->sync();
      const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
      std::fprintf(stderr, "pq-trace %s n=%zu: wall %.3f ms, device %.3f ms |", what_, n_, wall,
                   events_.back()->since(*events_.front()));
      for (size_t i = 1; i < events_.size(); ++i)
        std::fprintf(stderr, " %s %.3f", phases_[i], events_[i]->since(*events_[i - 1]));
      std::fprintf(stderr, "\n");
    } catch (...) {  // a trace never turns a finished call into an error
    }
  }

 private:
  bool on_;
  const char* what_;
  size_t n_;
  cudaStream_t stream_;
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::unique_ptr<Event>> events_;
  std::vector<const char*> phases_;
};

}  // namespace zkgpu::cuda::pq_launch
