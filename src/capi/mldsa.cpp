// The C ABI's ML-DSA batches (include/zkgpu.h), over include/zkgpu/mldsa.hpp. Items are parallel
// arrays of (pointer, length), as for Ed25519: a wrong length is the item's problem (a status or a
// verdict), a NULL pointer with a nonzero length the caller's (an error).
#include <string>
#include <vector>

#include "capi/capi.hpp"
#include "capi/pq.hpp"
#include "zkgpu/mldsa.hpp"

using namespace zkgpu;
using namespace zkgpu::capi;

namespace {

MlDsaSet set_of(const zkgpu_mldsa_set& s) {
  static_assert(ZKGPU_MLDSA_44 == 0 && ZKGPU_MLDSA_65 == 1 && ZKGPU_MLDSA_87 == 2);
  constexpr MlDsaSet values[] = {MlDsaSet::MlDsa44, MlDsaSet::MlDsa65, MlDsaSet::MlDsa87};
  return enum_of(s, values, "set", "zkgpu_mldsa_set", "0 ML-DSA-44, 1 ML-DSA-65, 2 ML-DSA-87");
}

// One per-item byte string of a batch: the arrays of pointers and lengths, both NULL for an
// optional field that every item leaves empty.
struct Field {
  const uint8_t* const* ptrs;
  const size_t* lens;
  const char* name;
  bool optional;

  void check(size_t n) const {
    if (optional && ptrs == nullptr && lens == nullptr) return;
    require(ptrs, n, name);
    require(lens, n, (std::string(name) + " lengths").c_str());
  }
  std::span<const uint8_t> at(size_t i) const {
    if (ptrs == nullptr) return {};
    if (ptrs[i] == nullptr && lens[i] > 0)
      throw_invalid(std::string(name) + "[" + std::to_string(i) + "] is NULL with length " + std::to_string(lens[i]));
    return {ptrs[i], lens[i]};
  }
};

// The packed messages and contexts of a device call: n + 1 offsets each (context_offsets NULL:
// every context empty), the byte buffers as long as the caller says, external_mu 0 or 1.
MlDsaPackedMessages device_messages(const uint8_t* messages, const uint64_t* message_offsets, size_t message_bytes,
                                    const uint8_t* contexts, const uint64_t* context_offsets, size_t context_bytes,
                                    size_t n, int external_mu) {
  const bool mu = flag_of(external_mu, "external_mu");
  if (n == SIZE_MAX) throw_invalid("n + 1 offsets overflow size_t");
  checked_mul(n + 1, sizeof(uint64_t), "message_offsets");
  MlDsaPackedMessages m;
  m.messages = packed(messages, message_bytes, 1, "messages");
  if (n > 0 || message_offsets != nullptr) m.message_offsets = packed(message_offsets, n + 1, 1, "message_offsets");
  if (context_offsets != nullptr) m.context_offsets = packed(context_offsets, n + 1, 1, "context_offsets");
  m.contexts = packed(contexts, context_bytes, 1, "contexts");
  m.external_mu = mu;
  return m;
}

}  // namespace

extern "C" {

zkgpu_status zkgpu_mldsa_sizes_of(zkgpu_mldsa_set set, zkgpu_mldsa_sizes* sizes) {
  return guarded([&] {
    require(sizes, "sizes");
    const MlDsaSizes sz = mldsa_sizes(set_of(set));
    *sizes = {sz.pk, sz.sk, sz.sig, MlDsaSizes::seed, MlDsaSizes::rnd, MlDsaSizes::mu, MlDsaSizes::max_ctx};
  });
}

zkgpu_status zkgpu_mldsa_keygen_batch(zkgpu_mldsa_set set, const uint8_t* seeds, size_t n, zkgpu_backend backend,
                                      uint8_t* pk, uint8_t* sk) {
  return guarded([&] {
    const MlDsaSet s = set_of(set);
    const Backend b = backend_of(backend);
    const MlDsaSizes sz = mldsa_sizes(s);
    const KeyGenBuffers k = keygen_buffers(n, seeds, MlDsaSizes::seed, {pk, sz.pk, "pk"}, {sk, sz.sk, "sk"});
    mldsa_keygen_batch(s, k.seeds, k.first, k.second, b);
  });
}

zkgpu_status zkgpu_mldsa_sign_batch(zkgpu_mldsa_set set, const uint8_t* const* secret_keys,
                                    const size_t* secret_key_lens, const uint8_t* const* messages,
                                    const size_t* message_lens, const uint8_t* const* contexts,
                                    const size_t* context_lens, const uint8_t* const* rnds, const size_t* rnd_lens,
                                    size_t n, int external_mu, zkgpu_backend backend, uint8_t* signatures,
                                    uint8_t* status) {
  return guarded([&] {
    const MlDsaSet s = set_of(set);
    const Backend b = backend_of(backend);
    const bool mu = flag_of(external_mu, "external_mu");
    const Field sk{secret_keys, secret_key_lens, "secret_keys", false}, msg{messages, message_lens, "messages", false},
        ctx{contexts, context_lens, "contexts", true}, rnd{rnds, rnd_lens, "rnds", true};
    for (const Field* f : {&sk, &msg, &ctx, &rnd}) f->check(n);
    const auto sigs = packed(signatures, n, mldsa_sizes(s).sig, "signatures");
    StatusOut st(status, n);
    require_no_aliasing({written_region(sigs, "signatures"), st.region()});
    std::vector<MlDsaSignItem> items(n);
    for (size_t i = 0; i < n; ++i) {
      items[i] = {sk.at(i), msg.at(i), ctx.at(i), rnd.at(i), mu};
      // The signer writes signature i while later items are still to be read.
      for (const auto& [in, name] : {std::pair{items[i].sk, "secret_keys"}, std::pair{items[i].msg, "messages"},
                                     std::pair{items[i].ctx, "contexts"}, std::pair{items[i].rnd, "rnds"}})
        require_disjoint(sigs.data(), sigs.size(), "signatures", in.data(), in.size(), name);
    }
    mldsa_sign_batch(s, items, sigs, st.span(), b);
    st.commit();
  });
}

zkgpu_status zkgpu_mldsa_verify_batch(zkgpu_mldsa_set set, const uint8_t* const* public_keys,
                                      const size_t* public_key_lens, const uint8_t* const* messages,
                                      const size_t* message_lens, const uint8_t* const* contexts,
                                      const size_t* context_lens, const uint8_t* const* signatures,
                                      const size_t* signature_lens, size_t n, int external_mu, zkgpu_backend backend,
                                      uint8_t* verdicts) {
  return guarded([&] {
    const MlDsaSet s = set_of(set);
    const Backend b = backend_of(backend);
    const bool mu = flag_of(external_mu, "external_mu");
    const Field pk{public_keys, public_key_lens, "public_keys", false}, msg{messages, message_lens, "messages", false},
        ctx{contexts, context_lens, "contexts", true}, sig{signatures, signature_lens, "signatures", false};
    for (const Field* f : {&pk, &msg, &ctx, &sig}) f->check(n);
    require(verdicts, n, "verdicts");
    std::vector<MlDsaVerifyItem> items(n);
    for (size_t i = 0; i < n; ++i) items[i] = {pk.at(i), msg.at(i), ctx.at(i), sig.at(i), mu};
    // Verdicts land in a vector first: the caller's array may alias an input.
    std::vector<uint8_t> ok(n);
    mldsa_verify_batch(s, items, ok, b);
    for (size_t i = 0; i < n; ++i) verdicts[i] = ok[i];
  });
}

// Device buffers: the C++ *_device calls check the rest (device memory, alignment, overlaps; the
// offsets themselves on the device).
zkgpu_status zkgpu_mldsa_keygen_batch_device(zkgpu_mldsa_set set, const uint8_t* seeds, size_t n, uint8_t* pk,
                                             uint8_t* sk, void* stream) {
  return guarded([&] {
    const MlDsaSet s = set_of(set);
    const MlDsaSizes sz = mldsa_sizes(s);
    const KeyGenBuffers k = keygen_buffers(n, seeds, MlDsaSizes::seed, {pk, sz.pk, "pk"}, {sk, sz.sk, "sk"});
    mldsa_keygen_batch_device(s, k.seeds.data(), k.first.data(), k.second.data(), n, GpuStream{stream});
  });
}

zkgpu_status zkgpu_mldsa_sign_batch_device(zkgpu_mldsa_set set, const uint8_t* secret_keys, const uint8_t* messages,
                                           const uint64_t* message_offsets, size_t message_bytes,
                                           const uint8_t* contexts, const uint64_t* context_offsets,
                                           size_t context_bytes, const uint8_t* rnds, size_t n, int external_mu,
                                           uint8_t* signatures, uint8_t* status, void* stream) {
  return guarded([&] {
    const MlDsaSet s = set_of(set);
    const MlDsaSizes sz = mldsa_sizes(s);
    const MlDsaPackedSignBatch b{.secret_keys = packed(secret_keys, n, sz.sk, "secret_keys"),
                                 .rnds = rnds ? packed(rnds, n, MlDsaSizes::rnd, "rnds") : std::span<const uint8_t>{},
                                 .messages = device_messages(messages, message_offsets, message_bytes, contexts,
                                                             context_offsets, context_bytes, n, external_mu)};
    const auto sigs = packed(signatures, n, sz.sig, "signatures");
    mldsa_sign_batch_device(s, b, sigs.data(), device_status(status, n), GpuStream{stream});
  });
}

zkgpu_status zkgpu_mldsa_verify_batch_device(zkgpu_mldsa_set set, const uint8_t* public_keys, const uint8_t* signatures,
                                             const uint8_t* messages, const uint64_t* message_offsets,
                                             size_t message_bytes, const uint8_t* contexts,
                                             const uint64_t* context_offsets, size_t context_bytes, size_t n,
                                             int external_mu, uint8_t* verdicts, void* stream) {
  return guarded([&] {
    const MlDsaSet s = set_of(set);
    const MlDsaSizes sz = mldsa_sizes(s);
    const MlDsaPackedVerifyBatch b{packed(public_keys, n, sz.pk, "public_keys"),
                                   packed(signatures, n, sz.sig, "signatures"),
                                   device_messages(messages, message_offsets, message_bytes, contexts, context_offsets,
                                                   context_bytes, n, external_mu)};
    require(verdicts, n, "verdicts");
    mldsa_verify_batch_device(s, b, verdicts, GpuStream{stream});
  });
}

}  // extern "C"
