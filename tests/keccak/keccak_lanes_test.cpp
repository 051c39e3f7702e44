// The 25-worker Keccak-f[1600] steps (core/keccak/keccak_lanes.hpp, what a CUDA warp runs with
// shuffles) run here over an array, one step for all workers at a time, and must equal
// keccak_f1600 on random states. The device twin of this emulation is the GPU signing test.
#include <gtest/gtest.h>

#include <array>

#include "zkgpu/core/keccak/keccak_lanes.hpp"
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

using State = std::array<uint64_t, 25>;

// One exchange step for every worker: out[i] = f(i, pull) where pull reads `from` (the values
// all workers held before the step, as a warp shuffle does).
template <class F>
State step(const State& from, F&& f) {
  State out{};
  for (int i = 0; i < 25; ++i) out[i] = f(i, [&](int src) { return from[size_t(src)]; });
  return out;
}

void permute_lanes(State& a) {
  for (int round = 0; round < 24; ++round) {
    const State c = step(a, [&](int i, auto pull) {
      return keccak::lanes::column_parity(a[size_t(i)], keccak::lanes::Sources(i), pull);
    });
    a = step(c, [&](int i, auto pull) { return keccak::lanes::theta(a[size_t(i)], keccak::lanes::Sources(i), pull); });
    a = step(a, [&](int i, auto pull) { return keccak::lanes::rho_pi(keccak::lanes::Sources(i), pull); });
    a = step(a, [&](int i, auto pull) {
      return keccak::lanes::chi_iota(a[size_t(i)], keccak::lanes::Sources(i), round, pull);
    });
  }
}

TEST(KeccakLanes, EqualsKeccakF1600) {
  Rng rng(77);
  for (int t = 0; t < 200; ++t) {
    State a{};
    if (t > 0)  // t = 0: the all-zero state
      for (auto& w : a) w = uint64_t(rng.u32()) << 32 | rng.u32();
    State ref = a;
    keccak::keccak_f1600(ref.data());
    permute_lanes(a);
    ASSERT_EQ(a, ref) << "state " << t;
  }
}

}  // namespace
}  // namespace zkgpu::test
