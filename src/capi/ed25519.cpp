// The C ABI's Ed25519 batch verification (include/zkgpu.h), over include/zkgpu/ed25519.hpp.
// The pointer-array call goes to the front end's dispatch over an item source (ed25519/batch.hpp)
// instead of the public span call: building Ed25519Items first cost ~10 ns an item (a fresh
// vector's pages, serial) before the backend read the items again. A wrong-length key or
// signature is an invalid item (verdict 0) there, not an error of the call as in the C++ batch.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "capi/capi.hpp"
#include "ed25519/batch.hpp"
#include "zkgpu/ed25519.hpp"

using namespace zkgpu;
using namespace zkgpu::capi;

namespace {

Ed25519Mode mode_of(const zkgpu_ed25519_mode& m) {
  static_assert(ZKGPU_ED25519_OPENSSL == 0 && ZKGPU_ED25519_STRICT == 1 && ZKGPU_ED25519_ZIP215 == 2);
  constexpr Ed25519Mode values[] = {Ed25519Mode::Openssl, Ed25519Mode::Strict, Ed25519Mode::Zip215};
  return enum_of(m, values, "mode", "zkgpu_ed25519_mode", "0 OPENSSL, 1 STRICT, 2 ZIP215");
}

// A NULL byte pointer is the caller's mistake unless its length is 0.
void require_item_bytes(const uint8_t* p, size_t len, const char* what, size_t i) {
  if (p == nullptr && len > 0)
    throw_invalid(std::string(what) + "[" + std::to_string(i) + "] is NULL with length " + std::to_string(len));
}

bool overlaps(const void* a, size_t a_bytes, const void* b, size_t b_bytes) {
  const auto a0 = reinterpret_cast<uintptr_t>(a), b0 = reinterpret_cast<uintptr_t>(b);
  return a_bytes && b_bytes && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

struct Scan {
  size_t first_null;  // the first item with a NULL pointer of nonzero length (n: none)
  bool aliased;       // the verdicts share memory with an input
};

// One pass over the pointer-array calls' items, on threads for big batches (it reads tens of MB
// at 2^20 items): the NULL pointers, and whether the n verdict bytes overlap one of the six arrays
// (or the struct array) or an item's bytes. The calls accept such overlap, as they always have, by
// computing into a vector first.
Scan scan(const ed25519::PointerItems& it, const uint8_t* verdicts) {
  const size_t n = it.n, words = n == 0 ? 0 : ((n - 1) * it.stride + 1) * sizeof(size_t);
  int aliased = overlaps(verdicts, n, it.public_keys, words) || overlaps(verdicts, n, it.public_key_lens, words) ||
                overlaps(verdicts, n, it.signatures, words) || overlaps(verdicts, n, it.signature_lens, words) ||
                overlaps(verdicts, n, it.messages, words) || overlaps(verdicts, n, it.message_lens, words);
  size_t first = n;
  const auto m = static_cast<int64_t>(n);
#pragma omp parallel for schedule(static) reduction(min : first) reduction(| : aliased) if (m >= (int64_t{1} << 15))
  for (int64_t k = 0; k < m; ++k) {
    const auto i = static_cast<size_t>(k);
    const size_t pl = it.public_key_len(i), sl = it.signature_len(i), ml = it.message_len(i);
    const uint8_t *pk = it.public_key(i), *sig = it.signature(i), *msg = it.message_data(i);
    if ((pk == nullptr && pl) || (sig == nullptr && sl) || (msg == nullptr && ml)) first = std::min(first, i);
    aliased |= overlaps(verdicts, n, pk, pl) || overlaps(verdicts, n, sig, sl) || overlaps(verdicts, n, msg, ml);
  }
  return {first, aliased != 0};
}

// Both pointer calls after their NULL checks of the arrays themselves: every NULL item pointer
// with a nonzero length is found before anything is written.
void verify_pointer_items(const ed25519::PointerItems& items, uint8_t* verdicts, Ed25519Mode mode, Backend backend) {
  const size_t n = items.n;
  const Scan sc = scan(items, verdicts);
  if (const size_t i = sc.first_null; i < n) {
    require_item_bytes(items.public_key(i), items.public_key_len(i), "public_keys", i);
    require_item_bytes(items.signature(i), items.signature_len(i), "signatures", i);
    require_item_bytes(items.message_data(i), items.message_len(i), "messages", i);
  }
  const Ed25519BatchOptions options{.backend = backend};
  if (!sc.aliased) {
    ed25519::verify_batch(items, {verdicts, n}, mode, options);
    return;
  }
  std::vector<uint8_t> ok(n);
  ed25519::verify_batch(items, ok, mode, options);
  std::copy(ok.begin(), ok.end(), verdicts);
}

// The struct call views its array as the six pointer arrays with a stride of six words.
static_assert(sizeof(zkgpu_ed25519_item) == 6 * sizeof(size_t));
static_assert(offsetof(zkgpu_ed25519_item, public_key_len) == 1 * sizeof(size_t));
static_assert(offsetof(zkgpu_ed25519_item, signature) == 2 * sizeof(size_t));
static_assert(offsetof(zkgpu_ed25519_item, signature_len) == 3 * sizeof(size_t));
static_assert(offsetof(zkgpu_ed25519_item, message) == 4 * sizeof(size_t));
static_assert(offsetof(zkgpu_ed25519_item, message_len) == 5 * sizeof(size_t));

// The packed arrays of a C call (n > 0) as the C++ batch, after the NULL and size checks. The
// messages' length is message_bytes, or read from message_offsets[n] in host memory.
Ed25519PackedBatch packed_batch(const uint8_t* public_keys, const uint8_t* signatures, const uint8_t* messages,
                                const uint64_t* message_offsets, size_t n, const uint8_t* verdicts,
                                std::optional<size_t> message_bytes) {
  const size_t key_bytes = checked_mul(n, ED25519_PUBLIC_KEY_BYTES, "n public keys");
  const size_t sig_bytes = checked_mul(n, ED25519_SIGNATURE_BYTES, "n signatures");
  require(public_keys, n, "public_keys");
  require(signatures, n, "signatures");
  require(message_offsets, n, "message_offsets");
  require(verdicts, n, "verdicts");
  if (!message_bytes) {
    const uint64_t last = message_offsets[n];
    if (last > SIZE_MAX) throw_invalid("message_offsets[n] = " + std::to_string(last) + " bytes");
    message_bytes = static_cast<size_t>(last);
  }
  require(messages, *message_bytes, "messages");
  return {{public_keys, key_bytes}, {signatures, sig_bytes}, {messages, *message_bytes}, {message_offsets, n + 1}};
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
    const ed25519::PointerItems items{public_keys, public_key_lens, signatures, signature_lens,
                                      messages,    message_lens,    n};
    verify_pointer_items(items, verdicts, m, b);
  });
}

zkgpu_status zkgpu_ed25519_verify_batch_items(const zkgpu_ed25519_item* items, size_t n, zkgpu_ed25519_mode mode,
                                              zkgpu_backend backend, uint8_t* verdicts) {
  return guarded([&] {
    const Ed25519Mode m = mode_of(mode);
    const Backend b = backend_of(backend);
    require(items, n, "items");
    require(verdicts, n, "verdicts");
    if (n == 0) return;
    const ed25519::PointerItems view{&items->public_key,
                                     &items->public_key_len,
                                     &items->signature,
                                     &items->signature_len,
                                     &items->message,
                                     &items->message_len,
                                     n,
                                     6};
    verify_pointer_items(view, verdicts, m, b);
  });
}

zkgpu_status zkgpu_ed25519_verify_batch_packed(const uint8_t* public_keys, const uint8_t* signatures,
                                               const uint8_t* messages, const uint64_t* message_offsets, size_t n,
                                               zkgpu_ed25519_mode mode, zkgpu_backend backend, uint8_t* verdicts) {
  return guarded([&] {
    const Ed25519Mode m = mode_of(mode);
    const Backend b = backend_of(backend);
    if (n == 0) return;
    const Ed25519PackedBatch batch = packed_batch(public_keys, signatures, messages, message_offsets, n, verdicts, {});
    ed25519_verify_batch(batch, {verdicts, n}, m, Ed25519BatchOptions{.backend = b});
  });
}

zkgpu_status zkgpu_ed25519_verify_batch_fill(const uint64_t* message_offsets, size_t n, zkgpu_ed25519_fill_fn fill,
                                             void* ctx, zkgpu_ed25519_mode mode, zkgpu_backend backend,
                                             uint8_t* verdicts) {
  return guarded([&] {
    const Ed25519Mode m = mode_of(mode);
    const Backend b = backend_of(backend);
    if (n == 0) return;
    if (fill == nullptr) throw_invalid("fill is NULL with n = " + std::to_string(n));
    require(message_offsets, n, "message_offsets");
    require(verdicts, n, "verdicts");
    if (overlaps(verdicts, n, message_offsets, (n + 1) * sizeof(uint64_t)))
      throw_invalid("the verdicts overlap message_offsets");
    // The rest of the offsets' rules are checked by the backend: on the GPU chunk by chunk.
    ed25519::check_first_offset(message_offsets, "zkgpu_ed25519_verify_batch_fill");
    if (message_offsets[n] > SIZE_MAX / 2)
      throw_invalid("message_offsets[n] = " + std::to_string(message_offsets[n]) + " bytes");
    const ed25519::FilledItems items{message_offsets, n, 0, fill, ctx};
    ed25519::verify_batch(items, {verdicts, n}, m, Ed25519BatchOptions{.backend = b});
  });
}

zkgpu_status zkgpu_ed25519_verify_batch_device(const uint8_t* public_keys, const uint8_t* signatures,
                                               const uint8_t* messages, size_t message_bytes,
                                               const uint64_t* message_offsets, size_t n, zkgpu_ed25519_mode mode,
                                               uint8_t* verdicts, void* stream) {
  return guarded([&] {
    const Ed25519Mode m = mode_of(mode);
    if (n == 0) return;
    const Ed25519PackedBatch batch =
        packed_batch(public_keys, signatures, messages, message_offsets, n, verdicts, message_bytes);
    ed25519_verify_batch_device(batch, verdicts, m, GpuStream{stream});
  });
}

}  // extern "C"
