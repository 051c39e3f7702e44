// Ed25519 signature verification (RFC 8032 "pure" Ed25519), one signature or a batch, on the CPU
// or a CUDA GPU, with the verification rules of a named library family (docs/ed25519.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "zkgpu/backend.hpp"

namespace zkgpu {

inline constexpr size_t ED25519_PUBLIC_KEY_BYTES = 32;
inline constexpr size_t ED25519_SIGNATURE_BYTES = 64;

enum class Ed25519Mode : uint8_t {
  Openssl = 0,  // OpenSSL, Go crypto/ed25519, BoringSSL, ed25519-dalek verify(): the default
  Strict = 1,   // ed25519-dalek verify_strict(): also rejects small-order A and R
  Zip215 = 2,   // ZIP-215 (ed25519-zebra / ed25519-consensus): cofactored, lenient encodings
};

std::optional<Ed25519Mode> parse_ed25519_mode(std::string_view s);  // "openssl" | "strict" | "zip215"
const char* to_string(Ed25519Mode m);

// One signature to check: views of the caller's memory, valid for the duration of the call.
struct Ed25519Item {
  std::span<const uint8_t> public_key;  // 32 bytes
  std::span<const uint8_t> signature;   // 64 bytes: R || S
  std::span<const uint8_t> message;     // any length
};

// One verification on the calling thread. A key or signature of the wrong length is invalid.
[[nodiscard]] bool ed25519_verify(std::span<const uint8_t> public_key, std::span<const uint8_t> signature,
                                  std::span<const uint8_t> message, Ed25519Mode mode = Ed25519Mode::Openssl);

// Auto verifies a batch on the GPU from this many signatures up (per call:
// Ed25519BatchOptions::gpu_crossover). Measured on the H200 machine (16-thread Xeon host) on
// 2026-11-30: `zkgpu ed25519 bench` found the GPU faster from 128 signatures with the fixed-window
// kernels (256 before them; BENCHMARKS.md).
inline constexpr uint64_t ED25519_GPU_CROSSOVER_ITEMS = 128;

// What travels with one batch call.
struct Ed25519BatchOptions {
  Backend backend = Backend::Auto;
  // Backend::Auto uses the GPU from this many items up (0: always, when a GPU is usable). The
  // crossover depends on the host's cores and the GPU: `zkgpu ed25519 bench` measures it.
  uint64_t gpu_crossover = ED25519_GPU_CROSSOVER_ITEMS;
  // Bytes of device memory this call may use; 0: what the device has free. The GPU runs the batch
  // in chunks small enough that the chunks in flight fit (same verdicts); Error(OutOfMemory) when
  // not even one item does.
  uint64_t gpu_memory_budget = 0;
};

// Per-item verdicts: out[i] = 1 when items[i] is valid under `mode`, else 0. Every item is
// judged on its own: an invalid item never changes another's verdict, and CPU and CUDA give the
// same bytes. Throws Error(InvalidArgument) naming the first item whose key or signature has the
// wrong length, or when out.size() != items.size(); Error(Unavailable) for Backend::Cuda without
// a usable GPU. Auto uses the GPU from options.gpu_crossover items on. On the CPU, Zip215 batches
// of 32 or more go through ed25519_verify_batch_zip215_rlc (same verdicts).
void ed25519_verify_batch(std::span<const Ed25519Item> items, std::span<uint8_t> out, Ed25519Mode mode,
                          const Ed25519BatchOptions& options);
[[nodiscard]] std::vector<uint8_t> ed25519_verify_batch(std::span<const Ed25519Item> items, Ed25519Mode mode,
                                                        const Ed25519BatchOptions& options);
// The same with the default options and this backend.
void ed25519_verify_batch(std::span<const Ed25519Item> items, std::span<uint8_t> out,
                          Ed25519Mode mode = Ed25519Mode::Openssl, Backend backend = Backend::Auto);
[[nodiscard]] std::vector<uint8_t> ed25519_verify_batch(std::span<const Ed25519Item> items,
                                                        Ed25519Mode mode = Ed25519Mode::Openssl,
                                                        Backend backend = Backend::Auto);

// A batch in packed arrays, n items: keys 32*n bytes, signatures 64*n bytes, messages back to
// back, item i's message = messages[message_offsets[i], message_offsets[i+1]); message_offsets
// has n+1 nondecreasing entries, message_offsets[0] == 0 and message_offsets[n] ==
// messages.size() (for n = 0 it may also be empty). Views of the caller's memory, valid for the
// duration of the call. The layout Go and Rust callers fill, read in place: no per-item objects.
struct Ed25519PackedBatch {
  std::span<const uint8_t> public_keys, signatures, messages;
  std::span<const uint64_t> message_offsets;
};

// out[i] = verdict of item i, as ed25519_verify_batch over Ed25519Items gives it (same bytes on
// every backend). n = public_keys.size() / 32. Throws Error(InvalidArgument) when a size does
// not follow from n (public_keys not a multiple of 32 bytes, signatures, message_offsets or out
// of another size), when message_offsets breaks its rules (naming the first bad entry), or when
// out overlaps an input; Error(Unavailable) for Backend::Cuda without a usable GPU.
void ed25519_verify_batch(const Ed25519PackedBatch& batch, std::span<uint8_t> out, Ed25519Mode mode,
                          const Ed25519BatchOptions& options = {});

// The same on arrays already in device memory: every span's memory on the current CUDA device,
// n verdict bytes written to verdicts_on_device, the work enqueued on `stream` (the call returns
// without waiting; synchronise the stream before reading the verdicts, keep the arrays alive
// until then). Same verdict bytes as the CPU. Before anything is enqueued: the sizes as above,
// every array memory the current device can address and the verdicts overlapping no input, else
// Error(InvalidArgument); Error(Unavailable) without a usable GPU (n = 0 does nothing, anywhere).
// The offsets are in device memory, so the host cannot check them: the kernel checks each item's
// own range, and an item with message_offsets[i] > message_offsets[i+1] or message_offsets[i+1]
// > messages.size() gets verdict 0 (the other items are judged as usual; offsets[0] and
// offsets[n] are not required to be 0 and messages.size() here). options.backend must be Auto or
// Cuda (Cpu is Error(InvalidArgument)); the crossover and the memory budget do not apply (the
// kernels read the caller's arrays, nothing is allocated per call).
void ed25519_verify_batch_device(const Ed25519PackedBatch& on_device, uint8_t* verdicts_on_device, Ed25519Mode mode,
                                 GpuStream stream, const Ed25519BatchOptions& options = {});

// ZIP-215 random-linear-combination batch check (CPU): true iff
// [8]((sum z_i S_i) B - sum z_i R_i - sum (z_i k_i) A_i) = O for random 128-bit z_i, which holds
// for every batch whose items are all valid under Zip215 and fails (except with probability
// about 2^-125) otherwise. Items failing the per-item prechecks (lengths, S < L, decoding) make
// it return false. `seed` = nullopt draws the z_i from the OS CSPRNG; tests pass a seed.
[[nodiscard]] bool ed25519_batch_equation_zip215(std::span<const Ed25519Item> items,
                                                 std::optional<uint64_t> seed = std::nullopt);

// Zip215 verdicts through the batch equation: one check for the whole batch, and when it fails,
// bisection down to per-item checks, so the verdicts equal ed25519_verify_batch(..., Zip215).
void ed25519_verify_batch_zip215_rlc(std::span<const Ed25519Item> items, std::span<uint8_t> out,
                                     std::optional<uint64_t> seed = std::nullopt);

}  // namespace zkgpu
