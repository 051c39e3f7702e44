#include "ed25519/cpu/verify_cpu.hpp"

#include <algorithm>
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

namespace {

// Items are verified in groups so the cofactorless modes share one field inversion per group
// (Montgomery's trick) for the final encodings: most of the ~8% one inversion costs is saved.
constexpr size_t MAX_GROUP = 32;

template <class Src>
void verify_group(const Src& items, uint8_t* out, VerifyMode mode, const GePrecomp<HostFe>* table) {
  GeP3<HostFe> q[MAX_GROUP];
  HostFe prefix[MAX_GROUP];   // prefix[m] = product of the Z of pending items 0..m
  size_t pending[MAX_GROUP];  // items waiting for their encoding check, in order
  size_t n = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    out[i] = 0;
    if (!items.well_formed(i)) continue;
    const uint8_t* pk = items.public_key(i);
    const uint8_t* sig = items.signature(i);
    const std::span<const uint8_t> msg = items.message(i);
    GeP3<HostFe> a, r;
    if (!ed25519_precheck(mode, pk, sig, a, r)) continue;
    const Scalar k = ed25519_challenge(sig, pk, msg.data(), msg.size());
    const GeP3<HostFe> qi = ed25519_sb_minus_ka(sig, a, k, table);
    if (mode == VerifyMode::Zip215) {
      out[i] = ed25519_cofactored_matches(qi, r) ? 1 : 0;
      continue;
    }
    q[n] = qi;
    prefix[n] = n ? fe_mul(prefix[n - 1], qi.Z) : qi.Z;
    pending[n++] = i;
  }
  if (n == 0) return;
  HostFe inv = fe_invert(prefix[n - 1]);  // 1 / (Z_0 ... Z_{n-1}); every Z of a point is nonzero
  for (size_t m = n; m-- > 0;) {
    const HostFe z_inv = m ? fe_mul(inv, prefix[m - 1]) : inv;
    if (m) inv = fe_mul(inv, q[m].Z);
    out[pending[m]] = ed25519_encoding_matches(q[m], z_inv, items.signature(pending[m])) ? 1 : 0;
  }
}

template <class Src>
void verify_all(const Src& items, std::span<uint8_t> out, VerifyMode mode) {
  const GePrecomp<HostFe>* table = base_table();
  // Groups of up to MAX_GROUP items, but small enough that small batches still spread over all
  // threads (one verification is ~0.1 ms); dynamic because message lengths can differ.
  const size_t group = std::clamp<size_t>(items.size() / 64, 1, MAX_GROUP);
  const auto n_groups = static_cast<int64_t>((items.size() + group - 1) / group);
#pragma omp parallel for schedule(dynamic, 1) if (items.size() >= 8)
  for (int64_t g = 0; g < n_groups; ++g) {
    const size_t first = static_cast<size_t>(g) * group;
    verify_group(items.slice(first, std::min(group, items.size() - first)), out.data() + first, mode, table);
  }
}

}  // namespace

void verify_items(const ItemSource& items, std::span<uint8_t> out, VerifyMode mode) {
  items.visit([&](const auto& src) { verify_all(src, out, mode); });
}

}  // namespace zkgpu::ed25519::cpu
