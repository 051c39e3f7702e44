// ML-DSA (FIPS 204) batches. Keys and signatures are the standard byte encodings (pk, the
// expanded sk, or the 32-byte seed xi). Signing and verification take per-item views because
// messages and contexts have their own lengths; every output slot is written.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

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

// KeyGen_internal(xi) for each 32-byte seed.
void mldsa_keygen_batch(MlDsaSet set, std::span<const uint8_t> seeds, std::span<uint8_t> pk, std::span<uint8_t> sk,
                        Backend backend = Backend::Auto);

struct MlDsaSignItem {
  std::span<const uint8_t> sk;   // expanded secret key
  std::span<const uint8_t> msg;  // the message M, or mu itself when external_mu
  std::span<const uint8_t> ctx;  // context string, at most 255 bytes (ignored when external_mu)
  std::span<const uint8_t> rnd;  // 32 bytes for hedged signing; empty = deterministic (rnd = 0^32)
  bool external_mu = false;      // msg is the 64-byte mu (the "external mu" interface)
};
// InvalidInput for: wrong sk/rnd/mu length, ctx over 255 bytes, sk with s1/s2 out of range.
// Rejected items get a zeroed signature.
void mldsa_sign_batch(MlDsaSet set, std::span<const MlDsaSignItem> items, std::span<uint8_t> sigs,
                      std::span<PqStatus> status, Backend backend = Backend::Auto);

struct MlDsaVerifyItem {
  std::span<const uint8_t> pk, msg, ctx, sig;
  bool external_mu = false;  // msg is mu
};
// ok[i] = 1 iff the signature is valid; wrong lengths and contexts over 255 bytes give 0.
void mldsa_verify_batch(MlDsaSet set, std::span<const MlDsaVerifyItem> items, std::span<uint8_t> ok,
                        Backend backend = Backend::Auto);

}  // namespace zkgpu
