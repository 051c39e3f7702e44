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

}  // namespace zkgpu
