// The CUDA backend of Ed25519 verification (plain C++ declarations; implemented in backend.cu,
// built only when ZKGPU_HAVE_CUDA). A process-wide context holds the device base-point table,
// pinned staging buffers and streams; it is created on first use and reused by every call.
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

// out[i] = verdict of items[i] (lengths already checked), computed entirely on the device:
// SHA-512 of R || A || M, decoding, the double-scalar multiplication and the comparison.
// Batches are split into chunks whose upload, kernel and download overlap on several streams;
// a chunk holds at most `max_chunk_msg_bytes` of messages, and a single larger message gets a
// chunk of its own (the GPU tests pass a small budget to reach that path at small sizes).
void verify_items(std::span<const Ed25519Item> items, std::span<uint8_t> out, VerifyMode mode,
                  size_t max_chunk_msg_bytes = MAX_CHUNK_MSG_BYTES);

// Chunks of at most this many signatures run the low-latency kernel (4 lanes per signature);
// larger ones one lane per signature (0: none; MAX_CHUNK_ITEMS or more: all). Default 8192, or
// ZKGPU_ED25519_COOP_MAX (0 to MAX_CHUNK_ITEMS, read on first use); tests and the bench set it to
// cover and compare both kernels.
void set_coop_max(size_t items);
size_t coop_max();

// Tests: fill the device result buffer with 0xAB before each chunk, so a verdict that a kernel
// does not write shows up as a mismatch.
void set_result_poison(bool on);

// Frees the context's device and pinned memory (the next call creates it again).
void release_context();

// Device-side time of verifying n copies of a fixed batch already resident on the GPU
// (milliseconds per run, CUDA events, after warm-up): the kernel alone, without transfers.
std::vector<double> time_verify_device(std::span<const Ed25519Item> items, VerifyMode mode, int warmup, int runs);

}  // namespace zkgpu::ed25519::cuda
