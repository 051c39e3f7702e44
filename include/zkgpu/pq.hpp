// Shared by the ML-KEM and ML-DSA batch APIs: per-item status, per-call options and
// operating-system randomness.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "zkgpu/backend.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu {

// The outcome of one item of a batch. Errors of the whole call (buffer sizes that do not match
// the item count, an unavailable backend) throw zkgpu::Error instead.
enum class PqStatus : uint8_t {
  Ok = 0,
  InvalidInput = 1,  // the item was rejected: wrong length, ek not reduced mod q, dk hash mismatch,
                     // context over 255 bytes, ...
};

// What travels with one ML-KEM or ML-DSA batch call.
struct PqBatchOptions {
  Backend backend = Backend::Auto;
  // Backend::Auto uses the GPU from this many items up; unset: the operation's own crossover
  // (MLKEM_GPU_CROSSOVER_ITEMS, MLDSA_SIGN_GPU_CROSSOVER_ITEMS, ...).
  std::optional<uint64_t> gpu_crossover = std::nullopt;
  // GPU: the phases of every chunk of the batch, appended as the chunks finish (they overlap on
  // several streams): "pack" (the host fills pinned staging), "upload", the operation's kernels
  // ("hash", "xof", "keygen", "encrypt", "decrypt", "reencrypt", "final", "prepare", "core",
  // "finish", "sign"), "download", each with its device time on the chunk's stream; wall_ms adds
  // the call's host time. The CPU backend leaves it alone.
  PhaseTimes* phase_times = nullptr;
  // Bytes of device memory this call may use; 0: what the device has free. The GPU runs the batch
  // in chunks small enough that the chunks in flight fit (same results); Error(OutOfMemory) when
  // not even one item does.
  uint64_t gpu_memory_budget = 0;
};

// Fills buf from the operating system's CSPRNG (getrandom); throws zkgpu::Error if it fails.
void fill_random(uint8_t* buf, size_t len);

}  // namespace zkgpu
