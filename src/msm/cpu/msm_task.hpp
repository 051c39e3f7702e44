// What the CPU MSM's files share (msm_cpu.cpp, msm_cpu_ifma.cpp): the phase clock and the running
// sums of one task's buckets.
#pragma once
#include <time.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "zkgpu/core/bls12_377/curve.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::bls12_377::cpu {

// When the caller asks for PhaseTimes: the CPU time of each phase summed over the threads
// (CLOCK_THREAD_CPUTIME_ID: on a shared or oversubscribed machine the wall clock says little about
// where one thread's time goes). Off, every call is a test of `on`.
enum Phase { DIGITS, SCATTER, SORT, SUMS, REDUCE, COMBINE, PHASES };
struct PhaseClock {
  explicit PhaseClock(bool enabled) : on(enabled) {}
  const bool on;
  std::atomic<int64_t> ns[PHASES] = {};
  static int64_t now() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000ll + t.tv_nsec;
  }
  // Adds the thread time since t0 to phase p and returns the new mark.
  int64_t lap(Phase p, int64_t t0) {
    if (!on) return 0;
    const int64_t t = now();
    ns[p] += t - t0;
    return t;
  }
  int64_t start() const { return on ? now() : 0; }
  // Appends the phases (milliseconds) to out.
  void report(PhaseTimes& out) const {
    static constexpr const char* NAMES[PHASES] = {"digits", "scatter", "sort", "sums", "reduce", "combine"};
    for (int p = 0; p < PHASES; ++p) out.phases.emplace_back(NAMES[p], static_cast<double>(ns[p].load()) * 1e-6);
  }
};

// A_r = sum_j (j + 1) B_j and S_r = sum_j B_j over bucket[0..S): the running sum picks up B_j at
// j and is added j + 1 times.
inline void reduce_range(const TeExtended* bucket, size_t S, TeExtended& acc, TeExtended& run) {
  run = TeExtended::identity(), acc = TeExtended::identity();
  for (size_t j = S; j-- > 0;) {
    run = te_add(run, bucket[j]);
    acc = te_add(acc, run);
  }
}

}  // namespace zkgpu::bls12_377::cpu
