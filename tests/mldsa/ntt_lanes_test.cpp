// The ML-DSA NTTs split over 32 workers (core/mldsa/ntt_lanes.hpp, what a CUDA warp runs with its
// registers and a shared exchange buffer) run here worker by worker, stage by stage, with the
// exchanges through an array laid out by the same swizzle, and must equal mldsa::ntt and
// invntt_tomont bit for bit. The layouts and the swizzle are also checked to be permutations and
// the exchanges free of bank conflicts (distinct banks across a warp for each register, or for
// each group of 4 words for RUNS, 8 lanes at a time as 16-byte accesses are served).
#include <gtest/gtest.h>

#include <array>
#include <set>

#include "zkgpu/core/mldsa/ntt_lanes.hpp"
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

using mldsa::N;
using Regs = std::array<std::array<int32_t, 8>, 32>;
namespace ml = mldsa::lanes;

Regs deal(const int32_t* a, ml::Layout layout) {
  Regs r{};
  for (int lane = 0; lane < 32; ++lane)
    for (int t = 0; t < 8; ++t) r[size_t(lane)][size_t(t)] = a[ml::coeff(layout, lane, t)];
  return r;
}
// Every worker writes its registers to the buffer in layout `from`, then reads them in `to`.
void exchange(Regs& r, ml::Layout from, ml::Layout to) {
  std::array<int32_t, N> buf{};
  for (int lane = 0; lane < 32; ++lane)
    for (int t = 0; t < 8; ++t) buf[size_t(ml::swizzle(ml::coeff(from, lane, t)))] = r[size_t(lane)][size_t(t)];
  for (int lane = 0; lane < 32; ++lane)
    for (int t = 0; t < 8; ++t) r[size_t(lane)][size_t(t)] = buf[size_t(ml::swizzle(ml::coeff(to, lane, t)))];
}
template <class F>
void stage(Regs& r, F&& f) {
  for (int lane = 0; lane < 32; ++lane) f(r[size_t(lane)].data(), lane);
}

TEST(MlDsaNttLanes, LayoutsArePermutationsAndConflictFree) {
  for (ml::Layout layout : {ml::ROWS, ml::MID, ml::MID_INV, ml::RUNS}) {
    std::set<int> seen;
    for (int lane = 0; lane < 32; ++lane)
      for (int t = 0; t < 8; ++t) seen.insert(ml::swizzle(ml::coeff(layout, lane, t)));
    EXPECT_EQ(seen.size(), size_t(N)) << "layout " << int(layout);
    if (layout == ml::RUNS) {  // 16-byte accesses: 8 lanes at a time, 4 banks each
      for (int q = 0; q < 2; ++q)
        for (int group = 0; group < 4; ++group) {
          std::set<int> banks;
          for (int lane = 8 * group; lane < 8 * group + 8; ++lane) {
            const int p = ml::swizzle(ml::coeff(layout, lane, 4 * q));
            EXPECT_EQ(p % 4, 0);
            for (int w = 0; w < 4; ++w) {
              EXPECT_EQ(ml::swizzle(ml::coeff(layout, lane, 4 * q + w)), p + w);
              banks.insert((p + w) % 32);
            }
          }
          EXPECT_EQ(banks.size(), 32u) << "RUNS group " << group;
        }
    } else {
      for (int t = 0; t < 8; ++t) {
        std::set<int> banks;
        for (int lane = 0; lane < 32; ++lane) banks.insert(ml::swizzle(ml::coeff(layout, lane, t)) % 32);
        EXPECT_EQ(banks.size(), 32u) << "layout " << int(layout) << " register " << t;
      }
    }
  }
}

// Both twiddle sources: the core's accessors, and a table (what a kernel copies to shared memory).
template <class Z>
void check_transforms(Z zetas) {
  Rng rng(31);
  for (int trial = 0; trial < 50; ++trial) {
    mldsa::Poly a;
    for (auto& c : a.c) c = int32_t(rng.u32() % (2 * mldsa::Q - 1)) - (mldsa::Q - 1);  // |a| < q
    mldsa::Poly ref = a;
    mldsa::ntt(ref);
    Regs r = deal(a.c, ml::ROWS);
    stage(r, [&](int32_t* x, int lane) { ml::ntt_stage1(x, lane, zetas); });
    exchange(r, ml::ROWS, ml::MID);
    stage(r, [&](int32_t* x, int lane) { ml::ntt_stage2(x, lane, zetas); });
    exchange(r, ml::MID, ml::RUNS);
    stage(r, [&](int32_t* x, int lane) { ml::ntt_stage3(x, lane, zetas); });
    ASSERT_EQ(deal(ref.c, ml::RUNS), r) << "forward, trial " << trial;

    mldsa::Poly inv = ref;
    mldsa::invntt_tomont(inv);
    r = deal(ref.c, ml::RUNS);
    stage(r, [&](int32_t* x, int lane) { ml::invntt_stage1(x, lane, zetas); });
    exchange(r, ml::RUNS, ml::MID_INV);
    stage(r, [&](int32_t* x, int lane) { ml::invntt_stage2(x, lane, zetas); });
    exchange(r, ml::MID_INV, ml::ROWS);
    stage(r, [&](int32_t* x, int lane) { ml::invntt_stage3(x, lane, zetas); });
    ASSERT_EQ(deal(inv.c, ml::ROWS), r) << "inverse, trial " << trial;
  }
}

TEST(MlDsaNttLanes, EqualCoreTransforms) { check_transforms(ml::CoreZetas{}); }
TEST(MlDsaNttLanes, EqualCoreTransformsWithTwiddleTable) { check_transforms(ml::TableZetas{mldsa::ZETAS.z}); }

}  // namespace
}  // namespace zkgpu::test
