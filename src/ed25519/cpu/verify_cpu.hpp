// The CPU backend of Ed25519 verification: the core verifier (include/zkgpu/core/ed25519) over OpenMP threads.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "ed25519/item_source.hpp"
#include "zkgpu/core/ed25519/verify.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu::ed25519::cpu {

// The host's field representation (five 51-bit limbs; the GPU uses Fe10, see fe25519_10.hpp).
using HostFe = Fe;

// The process-wide table of odd multiples of B (built on first use, thread-safe).
const GePrecomp<HostFe>* base_table();

// out[i] = verdict of items[i] (0 for a malformed item of the C ABI's arrays).
void verify_items(const ItemSource& items, std::span<uint8_t> out, VerifyMode mode);

// The ZIP-215 batch equation (batch_rlc.cpp) over any source: whether it holds for the whole
// batch (false when an item fails its prechecks), and the verdicts through it with bisection.
bool batch_equation_zip215(const ItemSource& items, std::optional<uint64_t> seed);
void verify_zip215_rlc(const ItemSource& items, std::span<uint8_t> out, std::optional<uint64_t> seed);

}  // namespace zkgpu::ed25519::cpu
