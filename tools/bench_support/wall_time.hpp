// Host wall time of calls that return when their work is done (the public host-memory calls
// synchronise), for the CLI's and the benchmarks' timings: what a caller of the call waits.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "zkgpu/status.hpp"

namespace zkgpu::bench {

// Error(InvalidArgument) naming `what` for warmup < 0 or runs < 1, the counts every timing takes.
inline void check_runs(const char* what, int warmup, int runs) {
  if (warmup < 0 || runs < 1)
    throw_invalid(std::string(what) + ": need warmup >= 0 and runs >= 1, got " + std::to_string(warmup) + ", " +
                  std::to_string(runs));
}

// Milliseconds of each of `runs` calls of fn after `warmup` untimed ones (check_runs first).
template <class F>
std::vector<double> wall_ms(const char* what, int warmup, int runs, F&& fn) {
  check_runs(what, warmup, runs);
  for (int i = 0; i < warmup; ++i) fn();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return ms;
}

}  // namespace zkgpu::bench
