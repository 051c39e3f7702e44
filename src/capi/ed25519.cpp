// The C ABI's Ed25519 batch verification (include/zkgpu.h), over include/zkgpu/ed25519.hpp.
// The C++ batch refuses a wrong-length key or signature as an error of the call; the C ABI makes
// it an invalid item (verdict 0), so such items never reach it.
#include <string>
#include <vector>

#include "capi/capi.hpp"
#include "zkgpu/ed25519.hpp"

using namespace zkgpu;
using namespace zkgpu::capi;

namespace {

Ed25519Mode mode_of(const zkgpu_ed25519_mode& m) {
  switch (raw_enum(m)) {
    case ZKGPU_ED25519_OPENSSL: return Ed25519Mode::Openssl;
    case ZKGPU_ED25519_STRICT: return Ed25519Mode::Strict;
    case ZKGPU_ED25519_ZIP215: return Ed25519Mode::Zip215;
  }
  throw_invalid("mode " + std::to_string(raw_enum(m)) + " is not a zkgpu_ed25519_mode (0 OPENSSL, 1 STRICT, 2 ZIP215)");
}

// A NULL byte pointer is the caller's mistake unless its length is 0.
void require_item_bytes(const uint8_t* p, size_t len, const char* what, size_t i) {
  if (p == nullptr && len > 0)
    throw_invalid(std::string(what) + "[" + std::to_string(i) + "] is NULL with length " + std::to_string(len));
}

}  // namespace

extern "C" {

zkgpu_status zkgpu_ed25519_verify_batch(const uint8_t* const* public_keys, const size_t* public_key_lens,
                                        const uint8_t* const* signatures, const size_t* signature_lens,
                                        const uint8_t* const* messages, const size_t* message_lens, size_t n,
                                        zkgpu_ed25519_mode mode, zkgpu_backend backend, uint8_t* verdicts) {
  return guarded([&] {
    const Ed25519Mode m = mode_of(mode);
    const Backend b = backend_of(backend);
    require(public_keys, n, "public_keys");
    require(public_key_lens, n, "public_key_lens");
    require(signatures, n, "signatures");
    require(signature_lens, n, "signature_lens");
    require(messages, n, "messages");
    require(message_lens, n, "message_lens");
    require(verdicts, n, "verdicts");
    std::vector<Ed25519Item> items;
    std::vector<size_t> where;  // items[k] is input item where[k]
    items.reserve(n);
    where.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      require_item_bytes(public_keys[i], public_key_lens[i], "public_keys", i);
      require_item_bytes(signatures[i], signature_lens[i], "signatures", i);
      require_item_bytes(messages[i], message_lens[i], "messages", i);
      if (public_key_lens[i] != ED25519_PUBLIC_KEY_BYTES || signature_lens[i] != ED25519_SIGNATURE_BYTES) continue;
      items.push_back(
          {{public_keys[i], public_key_lens[i]}, {signatures[i], signature_lens[i]}, {messages[i], message_lens[i]}});
      where.push_back(i);
    }
    // Verdicts land in a vector first: the caller's array may alias an input it also passed.
    const std::vector<uint8_t> ok = ed25519_verify_batch(items, m, b);
    for (size_t i = 0; i < n; ++i) verdicts[i] = 0;
    for (size_t k = 0; k < where.size(); ++k) verdicts[where[k]] = ok[k];
  });
}

}  // extern "C"
