// Transparent huge pages for large host arrays that are read at random (the MSM's bases and
// digits): one TLB entry per 2 MiB instead of per 4 KiB. Call before the first touch; only the
// whole 2 MiB pages inside the range are advised. Advisory: where the kernel refuses, nothing
// changes but speed.
#pragma once
#include <cstddef>
#include <cstdint>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace zkgpu {

inline void advise_huge_pages(const void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t HUGE = uintptr_t{2} << 20;
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(p) + HUGE - 1) & ~(HUGE - 1);
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(HUGE - 1);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace zkgpu
