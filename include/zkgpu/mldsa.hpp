// ML-DSA (FIPS 204) batches. Keys and signatures are the standard byte encodings (pk, the
// expanded sk, or the 32-byte seed xi). Signing and verification take per-item views because
// messages and contexts have their own lengths; every output slot is written.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "zkgpu/backend.hpp"
#include "zkgpu/pq.hpp"

namespace zkgpu {

enum class MlDsaSet { MlDsa44, MlDsa65, MlDsa87 };

struct MlDsaSizes {
  size_t pk, sk, sig;
  static constexpr size_t seed = 32, rnd = 32, mu = 64, max_ctx = 255;
};
MlDsaSizes mldsa_sizes(MlDsaSet set);
std::optional<MlDsaSet> parse_mldsa_set(std::string_view s);  // "44" | "65" | "87"
const char* to_string(MlDsaSet set);                          // "ML-DSA-65"

// Backend::Auto runs a batch on the GPU from these many items up (per call:
// PqBatchOptions::gpu_crossover). The H200 runs of 2026-11-30 (BENCHMARKS.md): sign (one
// persistent kernel per chunk) wins 2.4-2.8x at 256 items, verify 1.5-2.4x at 256; keygen (one
// thread per item on the GPU) loses 2.3-2.8x at 256 and wins 1.1-1.45x at 1024.
inline constexpr uint64_t MLDSA_KEYGEN_GPU_CROSSOVER_ITEMS = 1024;
inline constexpr uint64_t MLDSA_SIGN_GPU_CROSSOVER_ITEMS = 256;
inline constexpr uint64_t MLDSA_VERIFY_GPU_CROSSOVER_ITEMS = 256;

// Each operation takes its options last (PqBatchOptions; MlDsaSignOptions for signing), or a bare
// Backend (the default options otherwise).

// KeyGen_internal(xi) for each 32-byte seed.
void mldsa_keygen_batch(MlDsaSet set, std::span<const uint8_t> seeds, std::span<uint8_t> pk, std::span<uint8_t> sk,
                        const PqBatchOptions& options);
void mldsa_keygen_batch(MlDsaSet set, std::span<const uint8_t> seeds, std::span<uint8_t> pk, std::span<uint8_t> sk,
                        Backend backend = Backend::Auto);

struct MlDsaSignItem {
  std::span<const uint8_t> sk;   // expanded secret key
  std::span<const uint8_t> msg;  // the message M, or mu itself when external_mu
  std::span<const uint8_t> ctx;  // context string, at most 255 bytes (ignored when external_mu)
  std::span<const uint8_t> rnd;  // 32 bytes for hedged signing; empty = deterministic (rnd = 0^32)
  bool external_mu = false;      // msg is the 64-byte mu (the "external mu" interface)
};

// Where the GPU signer's warps spent their cycles (SM cycle counters, summed over the warps): how
// many attempts FIPS 204's rejection loop took and each phase's share. Added to by every GPU run;
// the CPU backend leaves it alone.
struct MlDsaSignProfile {
  uint64_t items = 0;     // items the GPU signed (those that passed the input checks)
  uint64_t attempts = 0;  // signing attempts over those items
  // Warp cycles per phase, in this order: "key+mu" (skDecode, NTTs, mu, rho''), "expandA",
  // "masks" (ExpandMask), "w=Ay", "c~", "ball+ntt" (SampleInBall and NTT(c)), "z+hint".
  std::vector<std::pair<std::string, uint64_t>> phase_cycles;
};

struct MlDsaSignOptions : PqBatchOptions {
  MlDsaSignProfile* sign_profile = nullptr;  // costs a few counters per warp when set
};

// InvalidInput for: wrong sk/rnd/mu length, ctx over 255 bytes, sk with s1/s2 out of range.
// Rejected items get a zeroed signature.
void mldsa_sign_batch(MlDsaSet set, std::span<const MlDsaSignItem> items, std::span<uint8_t> sigs,
                      std::span<PqStatus> status, const MlDsaSignOptions& options);
void mldsa_sign_batch(MlDsaSet set, std::span<const MlDsaSignItem> items, std::span<uint8_t> sigs,
                      std::span<PqStatus> status, Backend backend = Backend::Auto);

struct MlDsaVerifyItem {
  std::span<const uint8_t> pk, msg, ctx, sig;
  bool external_mu = false;  // msg is mu
};
// ok[i] = 1 iff the signature is valid; wrong lengths and contexts over 255 bytes give 0.
void mldsa_verify_batch(MlDsaSet set, std::span<const MlDsaVerifyItem> items, std::span<uint8_t> ok,
                        const PqBatchOptions& options);
void mldsa_verify_batch(MlDsaSet set, std::span<const MlDsaVerifyItem> items, std::span<uint8_t> ok,
                        Backend backend = Backend::Auto);

// ---- device-pointer calls ----------------------------------------------------------------------
// The same batches on buffers already in the current GPU's memory, enqueued on `stream` without
// waiting, under the rules of the ML-KEM device calls (zkgpu/mlkem.hpp; docs/pq-gpu.md): the host
// calls' kernels on the caller's buffers, the host calls' bytes, the same constant-time
// properties, every check made before anything is enqueued. Fixed-size parts are packed (item i
// at i * size); messages and contexts are packed with offsets, which live on the device too.

// The messages and contexts of n items: item i's message is messages[message_offsets[i],
// message_offsets[i + 1]), its context contexts[context_offsets[i], context_offsets[i + 1]).
// The host checks the counts (n + 1 offsets each) and the buffers but cannot read the offsets
// cheaply, so the device checks each item's: an item whose message or context range runs
// backwards or leaves its buffer, whose context exceeds 255 bytes or (external mu) whose message is
// not 64 bytes is rejected alone (verdict 0, or InvalidInput with a zeroed signature), as the host
// calls reject a bad item; no kernel reads outside the buffers. Bytes outside every item's range
// are never read, so offsets need not start at 0 nor end at the buffer's size.
struct MlDsaPackedMessages {
  std::span<const uint8_t> messages;
  std::span<const uint64_t> message_offsets;  // n + 1 entries (none when n = 0)
  std::span<const uint8_t> contexts;          // unread without context_offsets
  std::span<const uint64_t> context_offsets;  // n + 1 entries, or none: every context empty
  bool external_mu = false;                   // every message is mu itself (contexts ignored)
};
struct MlDsaPackedSignBatch {
  std::span<const uint8_t> secret_keys;  // n expanded keys: n = secret_keys.size() / sk
  std::span<const uint8_t> rnds;         // n * 32 bytes for hedged signing, or none: deterministic
  MlDsaPackedMessages messages;
};
struct MlDsaPackedVerifyBatch {
  std::span<const uint8_t> public_keys;  // n keys: n = public_keys.size() / pk
  std::span<const uint8_t> signatures;   // n * sig bytes
  MlDsaPackedMessages messages;
};

// seeds: 32 * n bytes; pk, sk: n keys each.
void mldsa_keygen_batch_device(MlDsaSet set, const uint8_t* seeds, uint8_t* pk, uint8_t* sk, size_t n, GpuStream stream,
                               const PqBatchOptions& options = {});
// signatures: n * sig bytes, status: n (InvalidInput as in mldsa_sign_batch, or for an item the
// device rejects, see MlDsaPackedMessages).
void mldsa_sign_batch_device(MlDsaSet set, const MlDsaPackedSignBatch& on_device, uint8_t* signatures, PqStatus* status,
                             GpuStream stream, const PqBatchOptions& options = {});
// verdicts: n bytes, 1 iff item i's signature is valid.
void mldsa_verify_batch_device(MlDsaSet set, const MlDsaPackedVerifyBatch& on_device, uint8_t* verdicts,
                               GpuStream stream, const PqBatchOptions& options = {});

}  // namespace zkgpu
