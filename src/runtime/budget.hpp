// Host-side planning under a caller's device-memory budget (the gpu_memory_budget of the public
// option structs): how many items a chunk may hold so that the work in flight stays within it, and
// the one message a call that cannot fit gives. Plain C++ (no CUDA), so the CPU tests check it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace zkgpu::runtime {

// The largest m in [1, hi] with fits(m), for a fits that is monotone (true up to some m, false
// beyond); 0 when not even fits(1) holds. log2(hi) + 1 calls of fits.
template <class F>
size_t largest_fitting(size_t hi, F&& fits) {
  if (hi == 0 || !fits(size_t{1})) return 0;
  size_t lo = 1;  // fits(lo) holds
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// The share of `budget` each of `slots` chunks in flight may hold (0, no budget, stays 0).
inline uint64_t slot_share(uint64_t budget, size_t slots) { return slots ? budget / slots : budget; }

// Error(OutOfMemory): `what` needs `need` bytes of device memory, more than the call's budget of
// `budget` bytes. The message names both and the option to raise.
[[noreturn]] void throw_over_budget(const std::string& what, uint64_t need, uint64_t budget);

// A byte count for messages: "12345 bytes (1.2 MiB)".
std::string bytes_text(uint64_t bytes);

}  // namespace zkgpu::runtime
