// The GPU MSM's window reduction (core/bls12_377/bucket_reduce.hpp) run on the CPU in the kernels'
// schedule (interleaved parts of len buckets on two lanes, block folds, the host's last
// folds),
// against the plain running sum sum_j (j+1) B_j, for several windows, part lengths and fold widths.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "msm/bucket_reduce.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

// Pairs folded in place in groups of `group` (a power of two) as the kernels do (fold_block): per
// level, every lane of every step from the level's inputs.
void fold_groups(std::vector<FoldPair>& pairs, uint32_t group) {
  for (uint32_t s = 1; s < group; s *= 2)
    for (size_t a = 0; a < pairs.size(); a += 2 * s) {
      const FoldPair pa = pairs[a], pb = pairs[a + s];
      pairs[a].x = fold_lane(FOLD_X, pa.x, pa.y, pa.u, pb.x, pb.y, pb.u);
      pairs[a].y = fold_lane(FOLD_Y, pa.x, pa.y, pa.u, pb.x, pb.y, pb.u);
      pairs[a].u = fold_lane(FOLD_U, pa.x, pa.y, pa.u, pb.x, pb.y, pb.u);
    }
}

// bucket_lanes_kernel, weighted_fold_kernel launches and the host's last folds, as msm.cu
// sequences them: interleaved parts of len buckets on lanes (every lane's step t from the states
// after step t - 1), folds in groups of min(lane_parts, parts per window), then of up to max_fold
// pairs until host_pairs per window are left, then fold_pair and window_sum.
std::vector<TeExtended> reduce_like_gpu(const std::vector<TeExtended>& buckets, uint32_t windows, uint32_t per_window,
                                        uint32_t len, uint32_t lane_parts, uint32_t max_fold, uint32_t host_pairs) {
  const uint32_t P = per_window / len;  // parts per window
  std::vector<FoldPair> pairs(size_t{windows} * P);
  for (size_t g = 0; g < pairs.size(); ++g) {
    const size_t first = g / P * per_window + g % P;  // bucket r of the part: first + r * P
    const TeExtended* b = buckets.data() + first;
    TeExtended state[PART_LANES] = {TeExtended::identity(), TeExtended::identity()};
    for (uint32_t t = 0; t < part_steps(len); ++t) {
      const TeExtended r = state[0];  // lane 0 after step t - 1
      for (unsigned l = 0; l < PART_LANES; ++l) part_lane_step(l, t, len, P, b, &r, state[l]);
    }
    pairs[g].x = pairs[g].y = state[0];
    pairs[g].u = state[1];
  }
  uint32_t pw = P;
  const auto compact = [&](uint32_t g) {  // one pair per group of g to the front
    fold_groups(pairs, g);
    std::vector<FoldPair> out;
    for (size_t a = 0; a < pairs.size(); a += g) out.push_back(pairs[a]);
    pairs.swap(out);
    pw /= g;
  };
  compact(std::min(lane_parts, pw));
  while (pw > host_pairs) compact(std::min(pw / host_pairs, max_fold));
  EXPECT_EQ(pairs.size(), size_t{windows} * pw);
  std::vector<TeExtended> sums(windows);
  for (uint32_t w = 0; w < windows; ++w) {
    FoldPair* pw_pairs = pairs.data() + size_t{w} * pw;
    for (uint32_t s = 1; s < pw; s *= 2)
      for (uint32_t a = 0; a < pw; a += 2 * s) fold_pair(pw_pairs[a], pw_pairs[a + s]);
    sums[w] = window_sum(pw_pairs[0], P);
  }
  return sums;
}

TEST(Bls12377BucketReduce, GpuScheduleMatchesRunningSums) {
  const G1Affine gen = G1Affine::generator();
  TePrecomputed g;
  Fp prefix[1];
  ASSERT_EQ(sw_to_te_batch(&gen, &g, 1, prefix), 1u);
  struct Case {
    uint32_t windows, per_window, len, lane_parts, fold, host;
  };
  // Windows with more and fewer parts than a block's 32, folds down to 1..16 host pairs, a part
  // per window, one bucket per part.
  for (const Case& cs :
       {Case{1, 2048, 4, 32, 128, 16}, Case{1, 1024, 1, 32, 16, 1}, Case{3, 64, 8, 32, 4, 1}, Case{5, 2, 1, 32, 2, 1},
        Case{2, 512, 512, 32, 256, 1}, Case{4, 128, 2, 4, 2, 4}, Case{1, 64, 2, 8, 2, 2}}) {
    std::vector<TeExtended> buckets(size_t{cs.windows} * cs.per_window);
    TeExtended p = te_add_precomputed(TeExtended::identity(), g);
    for (size_t j = 0; j < buckets.size(); ++j) {
      p = te_add_precomputed(te_double(p), g);               // distinct points with Z != 1
      buckets[j] = j % 7 == 3 ? TeExtended::identity() : p;  // some empty buckets
    }
    std::vector<TeExtended> got =
        reduce_like_gpu(buckets, cs.windows, cs.per_window, cs.len, cs.lane_parts, cs.fold, cs.host);
    ASSERT_EQ(got.size(), cs.windows);
    for (uint32_t w = 0; w < cs.windows; ++w) {
      TeExtended run = TeExtended::identity(), acc = TeExtended::identity();
      for (uint32_t j = cs.per_window; j-- > 0;) {
        run = te_add(run, buckets[size_t{w} * cs.per_window + j]);
        acc = te_add(acc, run);
      }
      EXPECT_EQ(te_to_sw(got[w]), te_to_sw(acc))
          << "window " << w << " of " << cs.windows << ", " << cs.per_window << " buckets, len " << cs.len << ", "
          << cs.lane_parts << " parts per block, folds of " << cs.fold << ", " << cs.host << " host pairs";
    }
  }
}

}  // namespace
}  // namespace zkgpu::test
