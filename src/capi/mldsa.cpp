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
  switch (raw_enum(s)) {
    case ZKGPU_MLDSA_44: return MlDsaSet::MlDsa44;
    case ZKGPU_MLDSA_65: return MlDsaSet::MlDsa65;
    case ZKGPU_MLDSA_87: return MlDsaSet::MlDsa87;
  }
  throw_invalid("set " + std::to_string(raw_enum(s)) +
                " is not a zkgpu_mldsa_set (0 ML-DSA-44, 1 ML-DSA-65, 2 ML-DSA-87)");
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

}  // extern "C"
