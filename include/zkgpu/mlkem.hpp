// ML-KEM (FIPS 203) batches. Keys, ciphertexts and messages are fixed-size items packed back to
// back (item i at offset i * size); every output slot is written, with a per-item status where an
// input can be rejected. Keys are the standard byte encodings (ek, the expanded dk, or the 64-byte
// seed d || z).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "zkgpu/backend.hpp"
#include "zkgpu/pq.hpp"

namespace zkgpu {

enum class MlKemSet { MlKem512 = 2, MlKem768 = 3, MlKem1024 = 4 };  // value = module rank k

struct MlKemSizes {
  size_t ek, dk, ct;
  static constexpr size_t seed = 64, msg = 32, key = 32;
};
MlKemSizes mlkem_sizes(MlKemSet set);
std::optional<MlKemSet> parse_mlkem_set(std::string_view s);  // "512" | "768" | "1024"
const char* to_string(MlKemSet set);                          // "ML-KEM-768"

// Backend::Auto runs a batch on the GPU from these many items up (per call:
// PqBatchOptions::gpu_crossover). The H200 runs of 2026-11-30 (BENCHMARKS.md: GPU kernels and the
// chunked pipeline against our SIMD CPU backend on 16 threads): the GPU wins 2.1-3.5x at 256 items
// and loses 5-10x at 1 (a call costs it ~0.1-0.2 ms), so the tie lies between; 256 keeps a margin.
inline constexpr uint64_t MLKEM_KEYGEN_GPU_CROSSOVER_ITEMS = 256;
inline constexpr uint64_t MLKEM_GPU_CROSSOVER_ITEMS = 256;  // encaps, decaps

// Each operation takes PqBatchOptions last, or a bare Backend (the default options otherwise).

// KeyGen_internal(d, z) for each 64-byte seed d || z.
void mlkem_keygen_batch(MlKemSet set, std::span<const uint8_t> seeds, std::span<uint8_t> ek, std::span<uint8_t> dk,
                        const PqBatchOptions& options);
void mlkem_keygen_batch(MlKemSet set, std::span<const uint8_t> seeds, std::span<uint8_t> ek, std::span<uint8_t> dk,
                        Backend backend = Backend::Auto);

// Encaps with an explicit message m per item (the deterministic Encaps_internal; tests and
// cross-checks). An ek that fails the modulus check gives InvalidInput and zeroed c and K.
void mlkem_encaps_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<const uint8_t> m, std::span<uint8_t> ct,
                        std::span<uint8_t> key, std::span<PqStatus> status, const PqBatchOptions& options);
void mlkem_encaps_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<const uint8_t> m, std::span<uint8_t> ct,
                        std::span<uint8_t> key, std::span<PqStatus> status, Backend backend = Backend::Auto);

// Encaps with fresh random m from the operating system, as FIPS 203 Algorithm 20 does.
void mlkem_encaps_random_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<uint8_t> ct, std::span<uint8_t> key,
                               std::span<PqStatus> status, const PqBatchOptions& options);
void mlkem_encaps_random_batch(MlKemSet set, std::span<const uint8_t> ek, std::span<uint8_t> ct, std::span<uint8_t> key,
                               std::span<PqStatus> status, Backend backend = Backend::Auto);

// Decaps with implicit rejection: a ciphertext that does not re-encrypt still gives a key (the
// pseudorandom J(z || c)) and Ok. InvalidInput only for a dk whose stored H(ek) does not match.
void mlkem_decaps_batch(MlKemSet set, std::span<const uint8_t> dk, std::span<const uint8_t> ct, std::span<uint8_t> key,
                        std::span<PqStatus> status, const PqBatchOptions& options);
void mlkem_decaps_batch(MlKemSet set, std::span<const uint8_t> dk, std::span<const uint8_t> ct, std::span<uint8_t> key,
                        std::span<PqStatus> status, Backend backend = Backend::Auto);

// The same batches on buffers already in the current GPU's memory (docs/api-conventions.md,
// "Device memory"), for pipelines that keep their keys and ciphertexts there: item i at offset
// i * size as above, every buffer 8-byte aligned (cudaMalloc's are 256-byte aligned), statuses
// written on the device. The kernels of the host calls run on the caller's buffers, enqueued on
// `stream` in chunks; the call returns without waiting (synchronise the stream before reading an
// output; a failure of the enqueued work shows there). Outputs equal the host calls' byte for byte,
// rejected items' outputs zeroed the same way, and the secret-dependent steps are the same kernels
// with the same constant-time properties (docs/pq-gpu.md). Checked before anything is enqueued:
// the sizes, options.backend not Cpu (the other options: gpu_memory_budget bounds the scratch this
// call allocates on the stream, gpu_crossover is unused, phase_times makes the call wait to read
// its events), then Error(Unavailable) without a usable GPU, then every buffer is memory the
// current device can address, aligned, and no output overlaps another buffer (Error(InvalidArgument)).
void mlkem_keygen_batch_device(MlKemSet set, const uint8_t* seeds, uint8_t* ek, uint8_t* dk, size_t n, GpuStream stream,
                               const PqBatchOptions& options = {});
void mlkem_encaps_batch_device(MlKemSet set, const uint8_t* ek, const uint8_t* m, uint8_t* ct, uint8_t* key,
                               PqStatus* status, size_t n, GpuStream stream, const PqBatchOptions& options = {});
// m drawn from the operating system on the host and copied to the device (32 bytes per item, the
// only host-to-device copy of these calls; the call returns once the copy has its bytes).
void mlkem_encaps_random_batch_device(MlKemSet set, const uint8_t* ek, uint8_t* ct, uint8_t* key, PqStatus* status,
                                      size_t n, GpuStream stream, const PqBatchOptions& options = {});
void mlkem_decaps_batch_device(MlKemSet set, const uint8_t* dk, const uint8_t* ct, uint8_t* key, PqStatus* status,
                               size_t n, GpuStream stream, const PqBatchOptions& options = {});

}  // namespace zkgpu
