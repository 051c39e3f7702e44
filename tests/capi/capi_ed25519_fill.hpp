// zkgpu_ed25519_verify_batch_fill over PackedCases, with a callback that copies the asked items
// from the cases and records each range it was asked for (the library calls it from several
// threads at once), so a test can check that the pieces cover the batch once.
#pragma once
#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "ed25519/ed25519_packed_support.hpp"

namespace zkgpu::test {

struct FillSource {
  const PackedCases* cases;
  std::vector<std::pair<size_t, size_t>> asked;  // (first, count) of each callback
  std::mutex asking;                             // guards asked

  static void fill(void* ctx, size_t first, size_t count, uint8_t* keys, uint8_t* sigs, uint8_t* msgs) {
    auto* self = static_cast<FillSource*>(ctx);
    const PackedCases& p = *self->cases;
    {
      const std::lock_guard lock(self->asking);
      self->asked.emplace_back(first, count);
    }
    std::memcpy(keys, p.keys.data() + 32 * first, 32 * count);
    std::memcpy(sigs, p.sigs.data() + 64 * first, 64 * count);
    const size_t lo = p.offsets[first], hi = p.offsets[first + count];
    if (hi > lo) std::memcpy(msgs, p.msgs.data() + lo, hi - lo);
  }

  // Whether the ranges asked for are [0, n) cut into pieces, each asked once.
  bool covered_once(size_t n) const {
    std::vector<std::pair<size_t, size_t>> sorted = asked;
    std::sort(sorted.begin(), sorted.end());
    size_t next = 0;
    for (const auto& [first, count] : sorted) {
      if (first != next || count == 0) return false;
      next += count;
    }
    return next == n;
  }
};

// The verdicts of the fill call on b (poisoned with 0xCD first); `source` keeps the ranges asked.
inline std::vector<uint8_t> fill_capi(const PackedCases& p, zkgpu_ed25519_mode m, zkgpu_backend b,
                                      FillSource* source = nullptr) {
  FillSource own{&p, {}};
  FillSource& src = source ? *source : own;
  src.cases = &p;
  std::vector<uint8_t> out(p.size(), 0xCD);
  EXPECT_CAPI_OK(
      zkgpu_ed25519_verify_batch_fill(p.offsets.data(), p.size(), &FillSource::fill, &src, m, b, out.data()));
  return out;
}

}  // namespace zkgpu::test
