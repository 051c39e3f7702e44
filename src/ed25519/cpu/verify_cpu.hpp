// The CPU backend of Ed25519 verification: the core verifier (include/zkgpu/core/ed25519) over OpenMP threads.
#pragma once
#include <cstdint>
#include <span>

#include "zkgpu/core/ed25519/verify.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu::ed25519::cpu {

// The host's field representation (five 51-bit limbs; the GPU uses Fe10, see fe25519_10.hpp).
using HostFe = Fe;

// The process-wide table of odd multiples of B (built on first use, thread-safe).
const GePrecomp<HostFe>* base_table();

// out[i] = verdict of items[i]; lengths are already checked by the caller.
void verify_items(std::span<const Ed25519Item> items, std::span<uint8_t> out, VerifyMode mode);

}  // namespace zkgpu::ed25519::cpu
