// CPU backend of the ML-DSA batches: OpenMP over items (dynamic schedule: signing time varies
// with the number of rejected attempts), each item one call into core/mldsa.
#include <cstring>

#include "core/mldsa/dsa.hpp"
#include "pq/pq_common.hpp"
#include "zkgpu/mldsa.hpp"

namespace zkgpu {

namespace {
template <class F>
void with_params(MlDsaSet set, F&& f) {
  switch (set) {
    case MlDsaSet::MlDsa44: f.template operator()<mldsa::P44>(); return;
    case MlDsaSet::MlDsa65: f.template operator()<mldsa::P65>(); return;
    case MlDsaSet::MlDsa87: f.template operator()<mldsa::P87>(); return;
  }
  throw_invalid("unknown ML-DSA parameter set");
}
}  // namespace

MlDsaSizes mldsa_sizes(MlDsaSet set) {
  MlDsaSizes s{};
  with_params(set, [&]<class P>() { s = {P::PK_BYTES, P::SK_BYTES, P::SIG_BYTES}; });
  return s;
}

std::optional<MlDsaSet> parse_mldsa_set(std::string_view s) {
  if (s == "44" || s == "ML-DSA-44") return MlDsaSet::MlDsa44;
  if (s == "65" || s == "ML-DSA-65") return MlDsaSet::MlDsa65;
  if (s == "87" || s == "ML-DSA-87") return MlDsaSet::MlDsa87;
  return std::nullopt;
}

const char* to_string(MlDsaSet set) {
  switch (set) {
    case MlDsaSet::MlDsa44: return "ML-DSA-44";
    case MlDsaSet::MlDsa65: return "ML-DSA-65";
    case MlDsaSet::MlDsa87: return "ML-DSA-87";
  }
  return "?";
}

void mldsa_keygen_batch(MlDsaSet set, std::span<const uint8_t> seeds, std::span<uint8_t> pk, std::span<uint8_t> sk,
                        Backend backend) {
  pq::require_cpu_backend(backend, "mldsa keygen");
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = seeds.size() / MlDsaSizes::seed;
  pq::check_items(seeds, n, MlDsaSizes::seed, "mldsa keygen", "seeds");
  pq::check_items(pk, n, sz.pk, "mldsa keygen", "pk");
  pq::check_items(sk, n, sz.sk, "mldsa keygen", "sk");
  with_params(set, [&]<class P>() {
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) mldsa::keygen<P>(pk.data() + i * sz.pk, sk.data() + i * sz.sk, seeds.data() + i * 32);
  });
}

void mldsa_sign_batch(MlDsaSet set, std::span<const MlDsaSignItem> items, std::span<uint8_t> sigs,
                      std::span<PqStatus> status, Backend backend) {
  pq::require_cpu_backend(backend, "mldsa sign");
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = items.size();
  pq::check_items(sigs, n, sz.sig, "mldsa sign", "signatures");
  pq::check_items(status, n, 1, "mldsa sign", "status");
  with_params(set, [&]<class P>() {
#pragma omp parallel for schedule(dynamic, 4) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      const MlDsaSignItem& it = items[i];
      uint8_t* sig = sigs.data() + i * sz.sig;
      bool ok = it.sk.size() == P::SK_BYTES && (it.rnd.empty() || it.rnd.size() == 32) &&
                (it.external_mu ? it.msg.size() == 64 : it.ctx.size() <= MlDsaSizes::max_ctx);
      if (ok) {
        uint8_t mu[64];
        const uint8_t zero[32] = {};
        if (it.external_mu)
          std::memcpy(mu, it.msg.data(), 64);
        else
          mldsa::compute_mu(mu, it.sk.data() + mldsa::SkLayout<P>::TR, it.ctx.data(), uint8_t(it.ctx.size()),
                            it.msg.data(), it.msg.size());
        ok = mldsa::sign_mu<P>(sig, it.sk.data(), mu, it.rnd.empty() ? zero : it.rnd.data());
      }
      if (!ok) std::memset(sig, 0, sz.sig);
      status[i] = ok ? PqStatus::Ok : PqStatus::InvalidInput;
    }
  });
}

void mldsa_verify_batch(MlDsaSet set, std::span<const MlDsaVerifyItem> items, std::span<uint8_t> ok,
                        Backend backend) {
  pq::require_cpu_backend(backend, "mldsa verify");
  const size_t n = items.size();
  pq::check_items(ok, n, 1, "mldsa verify", "results");
  with_params(set, [&]<class P>() {
#pragma omp parallel for schedule(static) if (n > 1)
    for (size_t i = 0; i < n; ++i) {
      const MlDsaVerifyItem& it = items[i];
      bool good = it.pk.size() == P::PK_BYTES && it.sig.size() == P::SIG_BYTES &&
                  (it.external_mu ? it.msg.size() == 64 : it.ctx.size() <= MlDsaSizes::max_ctx);
      if (good) {
        uint8_t mu[64];
        if (it.external_mu) {
          std::memcpy(mu, it.msg.data(), 64);
        } else {
          uint8_t tr[64];
          keccak::shake256(tr, 64, it.pk.data(), P::PK_BYTES);
          mldsa::compute_mu(mu, tr, it.ctx.data(), uint8_t(it.ctx.size()), it.msg.data(), it.msg.size());
        }
        good = mldsa::verify_mu<P>(it.pk.data(), mu, it.sig.data());
      }
      ok[i] = good ? 1 : 0;
    }
  });
}

}  // namespace zkgpu
