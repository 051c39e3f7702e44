// ML-DSA (FIPS 204) batches (zkgpu/mldsa.hpp): keygen over (n, 32) seeds; signing and
// verification over per-item byte strings (arrays or sequences, ByteItems), because messages and
// contexts have their own lengths. Wrong lengths are per-item rejections, never errors.
#include <string>

#include "common.hpp"
#include "pq.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {

MlDsaSet set_arg(std::string_view s) {
  if (const auto k = parse_mldsa_set(s)) return *k;
  throw_invalid("ML-DSA parameter set \"" + std::string(s) + "\" is not one of 44, 65, 87");
}

// Optional per-item inputs (contexts, rnd): None is every item empty.
struct OptionalItems {
  OptionalItems(nb::handle h, const char* what) {
    if (!h.is_none()) items.emplace(h, what);
  }
  std::span<const uint8_t> operator[](size_t i) const { return items ? (*items)[i] : std::span<const uint8_t>{}; }
  size_t size_or(size_t n) const { return items ? items->size() : n; }
  std::optional<ByteItems> items;
};

void require_count(size_t have, size_t n, const char* what) {
  if (have != n)
    throw_invalid(std::string(what) + " has " + std::to_string(have) + " entries for " + std::to_string(n) + " items");
}

void sign_into(std::string_view set, nb::handle sks, nb::handle msgs, nb::handle ctxs, nb::handle rnds,
               bool external_mu, U8Out sigs, U8Out status, std::string_view backend) {
  const MlDsaSet s = set_arg(set);
  const Backend b = backend_arg(backend);
  const ByteItems sk(sks, "secret_keys"), msg(msgs, "messages");
  const OptionalItems ctx(ctxs, "contexts"), rnd(rnds, "rnd");
  const size_t n = sk.size();
  require_count(msg.size(), n, "messages");
  require_count(ctx.size_or(n), n, "contexts");
  require_count(rnd.size_or(n), n, "rnd");
  nb::gil_scoped_release unlocked;
  std::vector<MlDsaSignItem> items(n);
  for (size_t i = 0; i < n; ++i) items[i] = {sk[i], msg[i], ctx[i], rnd[i], external_mu};
  mldsa_sign_batch(s, items, span_of(sigs), {reinterpret_cast<PqStatus*>(status.data()), status.size()}, b);
}

void verify_into(std::string_view set, nb::handle pks, nb::handle msgs, nb::handle ctxs, nb::handle sigs,
                 bool external_mu, U8Out ok, std::string_view backend) {
  const MlDsaSet s = set_arg(set);
  const Backend b = backend_arg(backend);
  const ByteItems pk(pks, "public_keys"), msg(msgs, "messages"), sig(sigs, "signatures");
  const OptionalItems ctx(ctxs, "contexts");
  const size_t n = pk.size();
  require_count(msg.size(), n, "messages");
  require_count(sig.size(), n, "signatures");
  require_count(ctx.size_or(n), n, "contexts");
  nb::gil_scoped_release unlocked;
  std::vector<MlDsaVerifyItem> items(n);
  for (size_t i = 0; i < n; ++i) items[i] = {pk[i], msg[i], ctx[i], sig[i], external_mu};
  mldsa_verify_batch(s, items, span_of(ok), b);
}

}  // namespace

void bind_mldsa(nb::module_& m) {
  m.def("mldsa_sizes", [](std::string_view set) {
    const MlDsaSizes s = mldsa_sizes(set_arg(set));
    nb::dict d;
    d["public_key"] = s.pk;
    d["secret_key"] = s.sk;
    d["signature"] = s.sig;
    d["seed"] = MlDsaSizes::seed;
    d["rnd"] = MlDsaSizes::rnd;
    d["mu"] = MlDsaSizes::mu;
    d["max_context"] = MlDsaSizes::max_ctx;
    return d;
  });
  def_keygen<MlDsaSet>(
      m, "mldsa_keygen_into", &set_arg,
      static_cast<void (*)(MlDsaSet, std::span<const uint8_t>, std::span<uint8_t>, std::span<uint8_t>, Backend)>(
          &mldsa_keygen_batch));
  m.def("mldsa_sign_into", &sign_into, nb::arg("set"), nb::arg("secret_keys"), nb::arg("messages"),
        nb::arg("contexts").none(), nb::arg("rnd").none(), nb::arg("external_mu"), nb::arg("signatures").noconvert(),
        nb::arg("status").noconvert(), nb::arg("backend"));
  m.def("mldsa_verify_into", &verify_into, nb::arg("set"), nb::arg("public_keys"), nb::arg("messages"),
        nb::arg("contexts").none(), nb::arg("signatures"), nb::arg("external_mu"), nb::arg("ok").noconvert(),
        nb::arg("backend"));
}

}  // namespace zkgpu::python
