#include "ed25519/cpu.hpp"

#include <array>

namespace zkgpu::ed25519::cpu {

const GePrecomp<HostFe>* base_table() {
  static const std::array<GePrecomp<HostFe>, BASE_TABLE_SIZE> table = [] {
    std::array<GePrecomp<HostFe>, BASE_TABLE_SIZE> t{};
    ed25519_base_table(t.data());
    return t;
  }();
  return table.data();
}

void verify_items(std::span<const Ed25519Item> items, std::span<uint8_t> out, VerifyMode mode) {
  const GePrecomp<HostFe>* table = base_table();
  const auto n = static_cast<int64_t>(items.size());
  // One verification is ~0.1 ms, so threads pay off from a handful of items; dynamic chunks
  // because message lengths (hashing time) can differ widely.
#pragma omp parallel for schedule(dynamic, 4) if (n >= 8)
  for (int64_t i = 0; i < n; ++i) {
    const Ed25519Item& it = items[static_cast<size_t>(i)];
    out[static_cast<size_t>(i)] =
        ed25519_verify(mode, it.public_key.data(), it.signature.data(), it.message.data(), it.message.size(), table) ? 1 : 0;
  }
}

}  // namespace zkgpu::ed25519::cpu
