// Ed25519 batch verification. Three 2-D uint8 arrays of the right widths go to the packed batch
// (zkgpu/ed25519.hpp) in place. Any other mix (a sequence of bytes-like objects for some part, or
// keys/signatures of another width) goes to the C ABI's item call (zkgpu_ed25519_verify_batch_items)
// as one (pointer, length) record per item into the Python objects' own memory: the library
// copies each chunk once, straight into its pinned staging, while the GPU verifies the chunk
// before. A key or signature of the wrong length is an invalid item (False), as in the C ABI.
#include <algorithm>
#include <cstring>
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

// Fixed-width items as one contiguous buffer: an array of that width in place, else packed, with
// the items of another length zeroed and marked in `bad`.
std::span<const uint8_t> fixed_width(const ByteItems& items, size_t width, std::vector<uint8_t>& packed,
                                     std::vector<uint8_t>& bad) {
  const size_t n = items.size();
  if (items.is_array() && items.width() == width) return {items.data(), n * width};
  packed.assign(n * width, 0);
#pragma omp parallel for schedule(static) if (n >= 65536)
  for (size_t i = 0; i < n; ++i) {
    const auto b = items[i];
    if (b.size() == width)
      std::memcpy(packed.data() + i * width, b.data(), width);
    else
      bad[i] = 1;
  }
  return packed;
}

// An array's rows as packed messages: offsets i * width.
std::vector<uint64_t> row_offsets(const ByteItems& rows) {
  const size_t n = rows.size(), w = rows.width();
  std::vector<uint64_t> offsets(n + 1);
#pragma omp parallel for schedule(static) if (n >= 65536)
  for (size_t i = 0; i <= n; ++i) offsets[i] = uint64_t(i) * w;
  return offsets;
}

// The (pointer, length) records of the C ABI's item call. Kept per thread between calls: a fresh
// vector is fresh pages (48 MB at 2^20 items), whose faults cost more than filling them.
std::vector<zkgpu_ed25519_item>& item_records(size_t n) {
  thread_local std::vector<zkgpu_ed25519_item> records;
  records.resize(n);
  return records;
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
  if (pk.is_array() && pk.width() == ED25519_PUBLIC_KEY_BYTES && sig.is_array() &&
      sig.width() == ED25519_SIGNATURE_BYTES && msg.is_array()) {
    const std::vector<uint64_t> offsets = row_offsets(msg);
    const Ed25519PackedBatch batch{.public_keys = {pk.data(), n * ED25519_PUBLIC_KEY_BYTES},
                                   .signatures = {sig.data(), n * ED25519_SIGNATURE_BYTES},
                                   .messages = {msg.data(), n * msg.width()},
                                   .message_offsets = offsets};
    ed25519_verify_batch(batch, {out.data(), n}, md, Ed25519BatchOptions{.backend = b});
    return;
  }
  if (n == 0) return;
  static_assert(int(Ed25519Mode::Openssl) == ZKGPU_ED25519_OPENSSL &&
                int(Ed25519Mode::Strict) == ZKGPU_ED25519_STRICT && int(Ed25519Mode::Zip215) == ZKGPU_ED25519_ZIP215);
  std::vector<zkgpu_ed25519_item>& items = item_records(n);
#pragma omp parallel for schedule(static) if (n >= 65536)
  for (size_t i = 0; i < n; ++i) {
    const auto k = pk[i], s = sig[i], m = msg[i];
    items[i] = {k.data(), k.size(), s.data(), s.size(), m.data(), m.size()};
  }
  check_capi(zkgpu_ed25519_verify_batch_items(items.data(), n, static_cast<zkgpu_ed25519_mode>(md),
                                              capi_backend(backend), out.data()));
}

// messages given packed by the caller: data and its n + 1 offsets, both read in place.
void verify_packed_into(nb::handle public_keys, nb::handle signatures, U8In data,
                        nb::ndarray<const uint64_t, nb::c_contig, nb::device::cpu> offsets, U8Out out,
                        std::string_view mode, std::string_view backend) {
  const Ed25519Mode md = mode_arg(mode);
  const Backend b = backend_arg(backend);
  const ByteItems pk(public_keys, "public_keys"), sig(signatures, "signatures");
  const size_t n = pk.size();
  if (sig.size() != n || out.size() != n || offsets.size() != n + 1)
    throw_invalid(std::to_string(n) + " public keys, " + std::to_string(sig.size()) + " signatures, " +
                  std::to_string(offsets.size()) + " message offsets: expected n, n and n + 1");
  nb::gil_scoped_release unlocked;
  std::vector<uint8_t> bad(n, 0), pk_packed, sig_packed;
  Ed25519PackedBatch batch;
  batch.public_keys = fixed_width(pk, ED25519_PUBLIC_KEY_BYTES, pk_packed, bad);
  batch.signatures = fixed_width(sig, ED25519_SIGNATURE_BYTES, sig_packed, bad);
  batch.messages = {data.data(), data.size()};
  batch.message_offsets = {offsets.data(), offsets.size()};
  ed25519_verify_batch(batch, {out.data(), n}, md, Ed25519BatchOptions{.backend = b});
  for (size_t i = 0; i < n && (!pk_packed.empty() || !sig_packed.empty()); ++i)
    if (bad[i]) out.data()[i] = 0;
}

}  // namespace

void bind_ed25519(nb::module_& m) {
  m.def("ed25519_verify_packed_into", &verify_packed_into, nb::arg("public_keys"), nb::arg("signatures"),
        nb::arg("data").noconvert(), nb::arg("offsets").noconvert(), nb::arg("out").noconvert(), nb::arg("mode"),
        nb::arg("backend"));
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
