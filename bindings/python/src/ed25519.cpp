// Ed25519 batch verification (zkgpu/ed25519.hpp). Keys, signatures and messages come as 2-D
// uint8 arrays (used in place) or sequences of bytes-like objects (held, not copied). A key or
// signature of the wrong length is an invalid item (False), as in the C ABI: such items never
// reach the C++ batch, which would refuse the whole call.
#include <string>

#include "common.hpp"
#include "zkgpu/ed25519.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {

Ed25519Mode mode_arg(std::string_view name) {
  if (const auto m = parse_ed25519_mode(name)) return *m;
  throw_invalid("mode \"" + std::string(name) + "\" is not one of \"openssl\", \"strict\", \"zip215\"");
}

void verify_into(nb::handle public_keys, nb::handle signatures, nb::handle messages, U8Out out, std::string_view mode,
                 std::string_view backend) {
  const Ed25519Mode md = mode_arg(mode);
  const Backend b = backend_arg(backend);
  const ByteItems pk(public_keys, "public_keys"), sig(signatures, "signatures"), msg(messages, "messages");
  const size_t n = pk.size();
  if (sig.size() != n || msg.size() != n)
    throw_invalid(std::to_string(n) + " public keys, " + std::to_string(sig.size()) + " signatures and " +
                  std::to_string(msg.size()) + " messages: the three must have one entry per item");
  if (out.size() != n) throw_invalid("out must hold one verdict per item");
  nb::gil_scoped_release unlocked;
  const auto well_formed = [&](size_t i) {
    return pk[i].size() == ED25519_PUBLIC_KEY_BYTES && sig[i].size() == ED25519_SIGNATURE_BYTES;
  };
  size_t good = 0;
  for (size_t i = 0; i < n; ++i) good += well_formed(i);
  uint8_t* v = out.data();
  std::vector<Ed25519Item> items(good);
  if (good == n) {  // every item well-formed (the common case): built in parallel, verdicts straight into out
#pragma omp parallel for schedule(static) if (n >= 65536)
    for (size_t i = 0; i < n; ++i) items[i] = {pk[i], sig[i], msg[i]};
    ed25519_verify_batch(items, {v, n}, md, b);
    return;
  }
  std::vector<size_t> where;  // items[k] is input item where[k]
  where.reserve(good);
  for (size_t i = 0; i < n; ++i)
    if (well_formed(i)) {
      items[where.size()] = {pk[i], sig[i], msg[i]};
      where.push_back(i);
    }
  const std::vector<uint8_t> ok = ed25519_verify_batch(items, md, b);
  for (size_t i = 0; i < n; ++i) v[i] = 0;
  for (size_t k = 0; k < where.size(); ++k) v[where[k]] = ok[k];
}

}  // namespace

void bind_ed25519(nb::module_& m) {
  m.def("ed25519_verify_into", &verify_into, nb::arg("public_keys"), nb::arg("signatures"), nb::arg("messages"),
        nb::arg("out").noconvert(), nb::arg("mode"), nb::arg("backend"));
  m.def(
      "ed25519_verify",
      [](nb::bytes pk, nb::bytes sig, nb::bytes msg, std::string_view mode) {
        const Ed25519Mode md = mode_arg(mode);
        const auto bytes = [](const nb::bytes& b) {
          return std::span<const uint8_t>(static_cast<const uint8_t*>(b.data()), b.size());
        };
        nb::gil_scoped_release unlocked;
        return ed25519_verify(bytes(pk), bytes(sig), bytes(msg), md);
      },
      nb::arg("public_key"), nb::arg("signature"), nb::arg("message"), nb::arg("mode"));
}

}  // namespace zkgpu::python
