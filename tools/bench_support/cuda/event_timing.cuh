// Device time of work enqueued on a stream, for bench_support's kernels and device-pointer calls:
// CUDA events around each run, so the host's launch overhead between runs is not counted.
#pragma once
#include <vector>

#include "runtime/cuda/runtime.cuh"

namespace zkgpu::bench {

// Milliseconds of each of `runs` calls of f(stream), after `warmup` untimed calls and a
// synchronisation (every timed run starts on an idle stream).
template <class F>
std::vector<double> time_runs(int warmup, int runs, cuda::Stream& stream, F&& f) {
  for (int i = 0; i < warmup; ++i) f(stream);
  stream.sync();
  std::vector<double> ms;
  cuda::Event a, b;
  for (int i = 0; i < runs; ++i) {
    a.record(stream);
    f(stream);
    b.record(stream);
    b.sync();
    ms.push_back(b.since(a));
  }
  return ms;
}

}  // namespace zkgpu::bench
