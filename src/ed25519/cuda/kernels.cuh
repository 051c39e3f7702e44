// The verification kernel: one thread per signature over the shared core verifier. A chunk is one
// contiguous buffer (so one upload): n public keys, n signatures, n message offsets and lengths
// (u64), then the message bytes.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/ed25519/fe25519_10.hpp"
#include "core/ed25519/verify.hpp"

namespace zkgpu::ed25519::cuda {

struct ChunkLayout {
  size_t n = 0, msg_bytes = 0;
  ZKGPU_HD size_t pk() const { return 0; }
  ZKGPU_HD size_t sig() const { return 32 * n; }
  ZKGPU_HD size_t offsets() const { return 96 * n; }  // 8-byte aligned: 96 n is a multiple of 8
  ZKGPU_HD size_t lengths() const { return 104 * n; }
  ZKGPU_HD size_t msgs() const { return 112 * n; }
  ZKGPU_HD size_t bytes() const { return 112 * n + msg_bytes; }
};

// The device's field representation: 32-bit limbs (native 32 x 32 -> 64 multiply-adds).
using DeviceFe = Fe10;

inline constexpr int VERIFY_BLOCK = 128;

__global__ void __launch_bounds__(VERIFY_BLOCK)
    ed25519_verify_kernel(const uint8_t* __restrict__ chunk, uint32_t n, const GePrecomp<DeviceFe>* __restrict__ base_table,
                          VerifyMode mode, uint8_t* __restrict__ out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const ChunkLayout lay{n, 0};
  uint8_t pk[32], sig[64];  // registers/local: read several times during the verification
  const uint8_t* gpk = chunk + lay.pk() + 32 * size_t{i};
  const uint8_t* gsig = chunk + lay.sig() + 64 * size_t{i};
  for (int j = 0; j < 32; ++j) pk[j] = gpk[j];
  for (int j = 0; j < 64; ++j) sig[j] = gsig[j];
  const uint64_t off = reinterpret_cast<const uint64_t*>(chunk + lay.offsets())[i];
  const uint64_t len = reinterpret_cast<const uint64_t*>(chunk + lay.lengths())[i];
  out[i] = ed25519_verify(mode, pk, sig, chunk + lay.msgs() + off, len, base_table) ? 1 : 0;
}

}  // namespace zkgpu::ed25519::cuda
