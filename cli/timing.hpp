// Timing helpers shared by the commands: the median of repeated measurements, the median wall
// time of a call after one warm-up call, and the one way a time is printed for people.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support/wall_time.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::cli {

// A PhaseTimes with each phase name once: its milliseconds summed over its repeats (slices, stage
// calls) and how many there were, in the order the names first ran.
struct PhaseSum {
  std::string name;
  double ms = 0;
  size_t calls = 0;
};
inline std::vector<PhaseSum> sum_phases_by_name(const PhaseTimes& t) {
  std::vector<PhaseSum> sums;
  for (const auto& phase : t.phases) {
    auto it = std::find_if(sums.begin(), sums.end(), [&](const PhaseSum& e) { return e.name == phase.first; });
    if (it == sums.end()) it = sums.insert(sums.end(), PhaseSum{phase.first});
    it->ms += phase.second;
    ++it->calls;
  }
  return sums;
}

// The upper median (-1 for no samples: "not measured" in the tables).
inline double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median wall time of fn over `runs` calls after one warm-up call, milliseconds.
template <class F>
double time_median_ms(int runs, F&& fn) {
  return median(bench::wall_ms("time_median_ms", 1, runs, fn));
}

// A time (in whatever unit the caller prints) rounded to 3 significant digits, without an
// exponent: 1234.5 -> "1230", 12.345 -> "12.3", 0.012345 -> "0.0123"; "-" for a negative value
// (not measured). Measurements repeat to about 1%, so further digits are noise; JSON and CSV
// output keep the full value.
inline std::string format_time(double t) {
  if (!(t >= 0)) return "-";
  if (t == 0) return "0";
  char sci[32];
  std::snprintf(sci, sizeof sci, "%.2e", t);  // d.dde+x: the rounded digits and their exponent
  const int exponent = std::atoi(std::strchr(sci, 'e') + 1);
  char out[64];
  std::snprintf(out, sizeof out, "%.*f", std::max(0, 2 - exponent), std::strtod(sci, nullptr));
  return out;
}

}  // namespace zkgpu::cli
