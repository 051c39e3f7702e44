// The CUDA backend of Ed25519 verification (plain C++ declarations; implemented in backend.cu,
// built only when ZKGPU_HAVE_CUDA). A context per device holds the device base-point table and the
// batch pipeline (pinned staging, device blocks, streams); it is created on first use there and
// reused by every call.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ed25519/item_source.hpp"
#include "zkgpu/core/ed25519/verify.hpp"

namespace zkgpu::ed25519::cuda {

// A batch is verified in chunks of at most this many signatures and this many message bytes.
inline constexpr size_t MAX_CHUNK_ITEMS = size_t{1} << 17;
inline constexpr size_t MAX_CHUNK_MSG_BYTES = size_t{64} << 20;
// Chunks hold at least this many signatures unless the batch is smaller (VerifyOptions).
inline constexpr size_t MIN_CHUNK_ITEMS = size_t{1} << 12;
// The chunks in flight at once (runtime/cuda/batch_pipeline.cuh's SLOTS; backend.cu checks it).
inline constexpr size_t PIPELINE_SLOTS = 3;

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
  // Chunks hold at least this many items (chunk_items_for). Smaller chunks let chunk 2's pack and
  // upload overlap chunk 1's kernel on small batches; the bench's --min-chunk sweeps it.
  size_t min_chunk_items = MIN_CHUNK_ITEMS;
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

// Items per chunk for a batch of n: big batches in two rounds of PIPELINE_SLOTS chunks (chunk
// c + 1 is packed while chunk c runs), smaller ones in one round of at most PIPELINE_SLOTS chunks
// of at least min_chunk_items (their kernels run side by side; a fourth chunk would wait for the
// first to finish), a batch of fewer than min_chunk_items in one chunk; never more than
// MAX_CHUNK_ITEMS.
inline size_t chunk_items_for(size_t n, size_t min_chunk_items) {
  const size_t min_chunk = std::clamp<size_t>(min_chunk_items, 1, MAX_CHUNK_ITEMS);
  const size_t two_rounds = (n + 2 * PIPELINE_SLOTS - 1) / (2 * PIPELINE_SLOTS);
  if (two_rounds >= min_chunk) return std::min(two_rounds, MAX_CHUNK_ITEMS);
  return std::min(std::max((n + PIPELINE_SLOTS - 1) / PIPELINE_SLOTS, min_chunk), MAX_CHUNK_ITEMS);
}

// out[i] = verdict of items[i] (lengths already checked; a malformed item of the C ABI's arrays
// gets 0), computed entirely on the device: SHA-512 of R || A || M, decoding, the double-scalar
// multiplication and the comparison. Batches are split into chunks whose pack, upload, kernel and
// download overlap on several streams.
void verify_items(const ItemSource& items, std::span<uint8_t> out, VerifyMode mode, const VerifyOptions& options = {});
// The callback's batch: each chunk is filled straight into its pinned staging.
void verify_filled(const FilledItems& items, std::span<uint8_t> out, VerifyMode mode,
                   const VerifyOptions& options = {});

// A batch in device memory, what the kernels read: n keys (32 bytes each), n signatures (64),
// n + 1 offsets into `messages` (message_bytes bytes). Item i's message is
// messages[offsets[i], offsets[i+1]); the kernels give verdict 0 to an item whose range is not
// ordered and inside [0, message_bytes].
struct ItemArrays {
  const uint8_t* public_keys = nullptr;
  const uint8_t* signatures = nullptr;
  const uint64_t* offsets = nullptr;
  const uint8_t* messages = nullptr;
  uint64_t message_bytes = 0;
  size_t n = 0;

  ItemArrays slice(size_t first, size_t count) const {
    return {public_keys + 32 * first, signatures + 64 * first, offsets + first, messages, message_bytes, count};
  }
};

// Enqueues the verification of arrays already on the device on `stream` (a cudaStream_t) and
// returns: verdicts[i] (device memory, n bytes) once the stream gets there. The caller has checked
// the pointers. options.coop_max picks the kernel as for a chunk of n; the rest does not apply.
void verify_on_stream(const ItemArrays& items, uint8_t* verdicts, VerifyMode mode, void* stream,
                      const VerifyOptions& options = {});

// Destroys the contexts and their device and pinned memory (the next call creates them again).
void release_context();

}  // namespace zkgpu::ed25519::cuda
