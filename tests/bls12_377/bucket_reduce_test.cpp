// The GPU MSM's window reduction (core/bls12_377/bucket_reduce.hpp) run on the CPU in the kernels'
// schedule (parts of len buckets, then block folds of up to g pairs), against the plain running sum
// sum_j (j+1) B_j, for several windows, part lengths and fold widths.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/bls12_377/bucket_reduce.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

// bucket_parts_kernel then weighted_fold_kernel launches, as msm.cu sequences them.
std::vector<TeExtended> reduce_like_gpu(const std::vector<TeExtended>& buckets, const std::vector<TeExtended>* more,
                                        uint32_t windows, uint32_t per_window, uint32_t len, uint32_t max_fold) {
  const size_t parts = buckets.size() / len;
  std::vector<TeExtended> x(parts), y(parts);
  for (size_t t = 0; t < parts; ++t)
    reduce_part(buckets.data() + t * len, more ? more->data() + t * len : nullptr, len, x[t], y[t]);
  size_t remaining = parts;
  for (uint32_t pw = per_window / len; pw > 1;) {
    const uint32_t g = std::min(pw, max_fold);
    const size_t blocks = remaining / g;
    std::vector<TeExtended> xo(blocks), yo(blocks);
    for (size_t blk = 0; blk < blocks; ++blk) {
      const size_t base = blk * g;
      for (uint32_t s = 1; s < g; s *= 2)
        for (uint32_t a = 0; a < g; a += 2 * s) fold_pair(x[base + a], y[base + a], x[base + a + s], y[base + a + s]);
      xo[blk] = x[base];
      yo[blk] = y[base];
    }
    x.swap(xo);
    y.swap(yo);
    remaining = blocks;
    pw /= g;
  }
  EXPECT_EQ(remaining, windows);
  return y;
}

TEST(Bls12377BucketReduce, GpuScheduleMatchesRunningSums) {
  const G1Affine gen = G1Affine::generator();
  TePrecomputed g;
  Fp prefix[1];
  ASSERT_EQ(sw_to_te_batch(&gen, &g, 1, prefix), 1u);
  struct Case {
    uint32_t windows, per_window, len, fold;
  };
  for (const Case& cs : {Case{1, 1024, 4, 256}, Case{1, 1024, 1, 16}, Case{3, 64, 8, 4}, Case{5, 2, 1, 2},
                         Case{2, 512, 512, 256}, Case{4, 128, 2, 256}}) {
    std::vector<TeExtended> buckets(size_t{cs.windows} * cs.per_window);
    TeExtended p = te_add_precomputed(TeExtended::identity(), g);
    for (size_t j = 0; j < buckets.size(); ++j) {
      p = te_add_precomputed(te_double(p), g);  // distinct points with Z != 1
      buckets[j] = j % 7 == 3 ? TeExtended::identity() : p;  // some empty buckets
    }
    // A second bucket set (a later slice's): the same as reducing the sums B_j + B'_j.
    std::vector<TeExtended> more(buckets.size());
    for (size_t j = 0; j < more.size(); ++j) more[j] = j % 5 == 1 ? TeExtended::identity() : te_double(buckets[j]);
    for (const bool two : {false, true}) {
      std::vector<TeExtended> got = reduce_like_gpu(buckets, two ? &more : nullptr, cs.windows, cs.per_window, cs.len,
                                                    cs.fold);
      ASSERT_EQ(got.size(), cs.windows);
      for (uint32_t w = 0; w < cs.windows; ++w) {
        TeExtended run = TeExtended::identity(), acc = TeExtended::identity();
        for (uint32_t j = cs.per_window; j-- > 0;) {
          const size_t k = size_t{w} * cs.per_window + j;
          run = te_add(run, two ? te_add(buckets[k], more[k]) : buckets[k]);
          acc = te_add(acc, run);
        }
        EXPECT_EQ(te_to_sw(got[w]), te_to_sw(acc))
            << "window " << w << " of " << cs.windows << ", " << cs.per_window << " buckets, len " << cs.len
            << ", folds of " << cs.fold << (two ? ", two bucket sets" : "");
      }
    }
  }
}

}  // namespace
}  // namespace zkgpu::test
