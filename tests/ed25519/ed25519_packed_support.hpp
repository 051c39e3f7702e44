// Helpers of the packed-batch tests: random valid and mutated batches, and the same cases as an
// Ed25519PackedBatch and as the C ABI's pointer arrays, each owning its bytes.
#pragma once
#include <cstdint>
#include <vector>

#include "ed25519/ed25519_test_support.hpp"
#include "ed25519/item_source.hpp"

namespace zkgpu::test {

// n signed cases, a third of them mutated, messages of 0 .. ~1000 bytes (a few empty).
inline std::vector<SigCase> random_cases(size_t n, Rng& rng) {
  Signer signer(rng.u32());
  std::vector<SigCase> cases;
  cases.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = rng.u32() % 16;
    SigCase c = signer.sign(r == 0 ? 0 : r < 3 ? rng.u32() % 1000 : rng.u32() % 150);
    if (rng.u32() % 3 == 0) c = mutate(std::move(c), rng);
    cases.push_back(std::move(c));
  }
  return cases;
}

// Cases with 32-byte keys and 64-byte signatures, packed.
struct PackedCases {
  std::vector<uint8_t> keys, sigs, msgs;
  std::vector<uint64_t> offsets{0};
  explicit PackedCases(const std::vector<SigCase>& cases) {
    for (const SigCase& c : cases) {
      keys.insert(keys.end(), c.pk.begin(), c.pk.end());
      sigs.insert(sigs.end(), c.sig.begin(), c.sig.end());
      msgs.insert(msgs.end(), c.msg.begin(), c.msg.end());
      offsets.push_back(msgs.size());
    }
  }
  size_t size() const { return offsets.size() - 1; }
  Ed25519PackedBatch batch() const { return {keys, sigs, msgs, offsets}; }
  ed25519::PackedItems source() const { return {keys.data(), sigs.data(), msgs.data(), offsets.data(), size()}; }
};

// The C ABI's six arrays over cases of any lengths (an empty field is a NULL pointer).
struct PointerCases {
  std::vector<const uint8_t*> pks, sigs, msgs;
  std::vector<size_t> pk_lens, sig_lens, msg_lens;
  explicit PointerCases(const std::vector<SigCase>& cases) {
    for (const SigCase& c : cases) {
      pks.push_back(c.pk.empty() ? nullptr : c.pk.data());
      sigs.push_back(c.sig.empty() ? nullptr : c.sig.data());
      msgs.push_back(c.msg.empty() ? nullptr : c.msg.data());
      pk_lens.push_back(c.pk.size());
      sig_lens.push_back(c.sig.size());
      msg_lens.push_back(c.msg.size());
    }
  }
  ed25519::PointerItems source() const {
    return {pks.data(), pk_lens.data(), sigs.data(), sig_lens.data(), msgs.data(), msg_lens.data(), pks.size()};
  }
};

}  // namespace zkgpu::test
