// The CUDA backend of Ed25519 verification (plain C++ declarations; implemented in backend.cu,
// built only when ZKGPU_HAVE_CUDA). A context per device holds the device base-point table and the
// batch pipeline (pinned staging, device blocks, streams); it is created on first use there and
// reused by every call.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "zkgpu/core/ed25519/verify.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu::ed25519::cuda {

// A batch is verified in chunks of at most this many signatures and this many message bytes.
inline constexpr size_t MAX_CHUNK_ITEMS = size_t{1} << 17;
inline constexpr size_t MAX_CHUNK_MSG_BYTES = size_t{64} << 20;

// Chunks of at most this many signatures run the low-latency kernel (4 lanes per signature):
// up to about one wave of resident threads on an H200 it finishes sooner; beyond, one lane per
// signature gives more throughput.
inline constexpr size_t COOP_MAX_ITEMS = 8192;

// What one call of this backend may change; the defaults are the public API's.
struct VerifyOptions {
  // Chunks of at most this many signatures run the 4-lanes-per-signature kernel, larger ones one
  // lane per signature (0: none; MAX_CHUNK_ITEMS or more: all). Tests and the bench set it to
  // cover and compare both kernels.
  size_t coop_max = COOP_MAX_ITEMS;
  // A chunk holds at most this many message bytes; a single larger message gets a chunk of its own
  // (the GPU tests pass a small budget to reach that path at small sizes).
  size_t max_chunk_msg_bytes = MAX_CHUNK_MSG_BYTES;
  // Tests: fill the device result buffer with 0xAB before each chunk, so a verdict that a kernel
  // does not write shows up as a mismatch.
  bool result_poison = false;
  // Device bytes the call may hold (Ed25519BatchOptions::gpu_memory_budget): chunks shrink so the
  // chunks in flight fit; 0: no budget.
  uint64_t memory_budget = 0;
};

// out[i] = verdict of items[i] (lengths already checked), computed entirely on the device:
// SHA-512 of R || A || M, decoding, the double-scalar multiplication and the comparison.
// Batches are split into chunks whose upload, kernel and download overlap on several streams.
void verify_items(std::span<const Ed25519Item> items, std::span<uint8_t> out, VerifyMode mode,
                  const VerifyOptions& options = {});

// Destroys the contexts and their device and pinned memory (the next call creates them again).
void release_context();

// Device-side time of verifying n copies of a fixed batch already resident on the GPU
// (milliseconds per run, CUDA events, after warm-up): the kernel alone, without transfers.
// options.coop_max picks the kernel as in verify_items; the other fields do not apply.
std::vector<double> time_verify_device(std::span<const Ed25519Item> items, VerifyMode mode, int warmup, int runs,
                                       const VerifyOptions& options = {});

}  // namespace zkgpu::ed25519::cuda
