// Shared by the ML-KEM and ML-DSA batch APIs: per-item status and operating-system randomness.
#pragma once
#include <cstddef>
#include <cstdint>

namespace zkgpu {

// The outcome of one item of a batch. Errors of the whole call (buffer sizes that do not match
// the item count, an unavailable backend) throw zkgpu::Error instead.
enum class PqStatus : uint8_t {
  Ok = 0,
  InvalidInput = 1,  // the item was rejected: wrong length, ek not reduced mod q, dk hash mismatch,
                     // context over 255 bytes, ...
};

// Fills buf from the operating system's CSPRNG (getrandom); throws zkgpu::Error if it fails.
void fill_random(uint8_t* buf, size_t len);

}  // namespace zkgpu
