// Constant-time helpers shared by ML-KEM and ML-DSA (host and device), and the hook the valgrind
// constant-time test uses: secrets are marked undefined there, and ct_declassify marks the few
// values the standards allow to become public (ρ, the rejection decision of ML-DSA signing, and the
// accepted signature) as defined again. Outside that test build it compiles to nothing.
#pragma once
#include "zkgpu/core/common.hpp"

#if defined(ZKGPU_CT_VALGRIND) && !ZKGPU_DEVICE_CODE
#include <valgrind/memcheck.h>
#endif

namespace zkgpu::pq {

ZKGPU_HD void ct_declassify(const void* p, size_t len) {
#if defined(ZKGPU_CT_VALGRIND) && !ZKGPU_DEVICE_CODE
  VALGRIND_MAKE_MEM_DEFINED(p, len);
#else
  (void)p;
  (void)len;
#endif
}
template <class T>
ZKGPU_HD T ct_declassify_value(T v) {
  ct_declassify(&v, sizeof v);
  return v;
}

// A value the optimizer cannot see through, so mask arithmetic is not turned back into a branch.
ZKGPU_HD uint32_t ct_opaque(uint32_t x) {
#if !ZKGPU_DEVICE_CODE && defined(__GNUC__)
  __asm__("" : "+r"(x));
#endif
  return x;
}

// 0 if the buffers are equal, 1 otherwise, reading every byte (never memcmp: it stops early).
ZKGPU_HD uint32_t ct_differ(const uint8_t* a, const uint8_t* b, size_t len) {
  uint32_t acc = 0;
  for (size_t i = 0; i < len; ++i) acc |= uint32_t(a[i] ^ b[i]);
  return (ct_opaque(acc) + 0xffu) >> 8;  // acc <= 255, so bit 8 is set iff acc != 0
}

// dst = src when flag == 1, unchanged when flag == 0 (flag must be 0 or 1).
ZKGPU_HD void ct_cmov(uint8_t* dst, const uint8_t* src, size_t len, uint32_t flag) {
  const uint8_t mask = uint8_t(0u - ct_opaque(flag));
  for (size_t i = 0; i < len; ++i) dst[i] ^= mask & (dst[i] ^ src[i]);
}

}  // namespace zkgpu::pq
