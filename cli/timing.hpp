// Timing helpers shared by the bench commands: the median of repeated measurements and the median
// wall time of a call after one warm-up call.
#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

namespace zkgpu::cli {

// The upper median (-1 for no samples: "not measured" in the tables).
inline double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median wall time of fn over `runs` calls after one warm-up call, milliseconds.
template <class F>
double time_median_ms(int runs, F&& fn) {
  fn();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto a = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  return median(t);
}

}  // namespace zkgpu::cli
