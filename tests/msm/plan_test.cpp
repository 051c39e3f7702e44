// The GPU MSM's plan (src/msm/plan.hpp) on the CPU: the window sizes, slices, chunk sizes and
// reduction shapes it picks for given sizes, pinned, and the invariants the kernels rely on (the
// slices tile the points, the chunk buffers hold every level, the folds end at the host's pairs).
#include <gtest/gtest.h>

#include <vector>

#include "msm/plan.hpp"
#include "msm/signed_digits.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;
using gpu_plan::Inputs;
using gpu_plan::MsmPlan;
using gpu_plan::Slice;
using MsmGpuOptions = bls12_377::cuda::MsmGpuOptions;

// Threads of the level-0 bucket-sum kernel an H200 holds at once (132 SMs x 3 blocks of 128).
constexpr size_t H200_RESIDENT = 50688;

void expect_tiles(const std::vector<Slice>& slices, uint32_t n) {
  uint32_t next = 0;
  for (const Slice& s : slices) {
    EXPECT_EQ(s.first, next);
    EXPECT_GT(s.count, 0u);
    next = s.first + s.count;
  }
  EXPECT_EQ(next, n);
}

TEST(Bls12377MsmPlan, DefaultWindowPerSize) {
  struct Case {
    size_t n;
    unsigned c;
  };
  for (const Case k : {Case{1, 6}, Case{2, 6}, Case{17, 6}, Case{size_t{1} << 12, 8}, Case{size_t{1} << 16, 12},
                       Case{size_t{1} << 20, 16}, Case{(size_t{1} << 20) + 1, 17}, Case{size_t{1} << 22, 18},
                       Case{size_t{1} << 24, 18}, Case{size_t{1} << 26, 18}})
    EXPECT_EQ(gpu_plan::default_window_bits(k.n), k.c) << "n = " << k.n;
}

TEST(Bls12377MsmPlan, TableWindowPerSize) {
  struct Case {
    size_t n;
    unsigned c;
  };
  for (const Case k : {Case{1, 8}, Case{size_t{1} << 10, 11}, Case{size_t{1} << 12, 13}, Case{size_t{1} << 16, 16},
                       Case{size_t{1} << 20, 20}, Case{size_t{1} << 22, 22}, Case{size_t{1} << 23, 23},
                       Case{size_t{1} << 26, gpu_plan::TABLE_MAX_WINDOW}})
    EXPECT_EQ(gpu_plan::table_window_bits(k.n), k.c) << "n = " << k.n;
}

// The slice plans msm_gpu_test.cpp's sliced tests rely on, and the defaults at large sizes.
TEST(Bls12377MsmPlan, SlicesOfKnownSizes) {
  const gpu_plan::SliceRatios r{};
  using V = std::vector<Slice>;
  EXPECT_EQ(gpu_plan::plan_slices(50003, 1000, r.div_resident, r.ratio_resident),
            (V{{0, 4545}, {4545, 13635}, {18180, 31823}}));
  EXPECT_EQ(gpu_plan::plan_slices(50003, 1000, r.div_from_host, r.ratio_from_host),
            (V{{0, 6250}, {6250, 12500}, {18750, 31253}}));
  EXPECT_EQ(gpu_plan::plan_slices(5003, 100, r.div_resident, r.ratio_resident),
            (V{{0, 454}, {454, 1362}, {1816, 3187}}));
  EXPECT_EQ(gpu_plan::plan_slices(5003, 100, r.div_from_host, r.ratio_from_host),
            (V{{0, 625}, {625, 1250}, {1875, 3128}}));
  EXPECT_EQ(gpu_plan::plan_slices(20011, 1000, r.div_resident, r.ratio_resident),
            (V{{0, 1819}, {1819, 5457}, {7276, 12735}}));
  EXPECT_EQ(gpu_plan::plan_slices(1u << 24, 1u << 16, r.div_resident, r.ratio_resident),
            (V{{0, 1525201}, {1525201, 4575603}, {6100804, 10676412}}));
  EXPECT_EQ(gpu_plan::plan_slices(1u << 26, 1u << 16, r.div_from_host, r.ratio_from_host),
            (V{{0, 1u << 23}, {1u << 23, 1u << 24}, {3u << 23, 5u << 23}}));
}

TEST(Bls12377MsmPlan, SliceEdgeCases) {
  const gpu_plan::SliceRatios r{};
  using V = std::vector<Slice>;
  EXPECT_EQ(gpu_plan::plan_slices(1, 1u << 16, r.div_from_host, r.ratio_from_host), (V{{0, 1}}));
  EXPECT_EQ(gpu_plan::plan_slices(1, 1, r.div_from_host, r.ratio_from_host), (V{{0, 1}}));
  EXPECT_EQ(gpu_plan::plan_slices(7, 1, r.div_resident, r.ratio_resident), (V{{0, 1}, {1, 3}, {4, 3}}));
  EXPECT_EQ(gpu_plan::plan_slices(1000, 5, 1, 3), (V{{0, 1000}}));  // div 1: one slice
  // The first slice is at least min_first; what is left is a slice of its own from min_first/2 on.
  EXPECT_EQ(gpu_plan::plan_slices(100000, 1u << 16, r.div_from_host, r.ratio_from_host),
            (V{{0, 65536}, {65536, 34464}}));
  EXPECT_EQ(gpu_plan::plan_slices(65536 + 32767, 1u << 16, r.div_from_host, r.ratio_from_host),
            (V{{0, 65536 + 32767}}));
  for (uint32_t n : {1u, 2u, 3u, 10u, 999u, 4097u, 50003u, 1u << 20, (1u << 24) - 1, 1u << 26})
    for (uint32_t min_first : {1u, 100u, 1u << 16})
      for (unsigned div : {1u, 8u, 11u}) {
        const std::vector<Slice> s = gpu_plan::plan_slices(n, min_first, div, div == 11 ? 3 : 2);
        expect_tiles(s, n);
        EXPECT_GE(s.back().count, std::min(n, min_first / 2)) << "n = " << n << ", sliver at the end";
      }
}

TEST(Bls12377MsmPlan, ScalarChunksAreAQuarterOfASliceWithin1To32MiB) {
  EXPECT_EQ(gpu_plan::scalar_chunk_bytes(32), size_t{1} << 20);
  EXPECT_EQ(gpu_plan::scalar_chunk_bytes(size_t{16} << 20), size_t{4} << 20);
  EXPECT_EQ(gpu_plan::scalar_chunk_bytes(size_t{1} << 31), size_t{32} << 20);
}

TEST(Bls12377MsmPlan, ChunkSizesFillWholeWaves) {
  struct Case {
    size_t L;
    uint32_t S;
    size_t chunks;
  };
  for (const Case k :
       {Case{1, 4, 1}, Case{100, 4, 25}, Case{4 * H200_RESIDENT, 4, H200_RESIDENT}, Case{5 * H200_RESIDENT, 6, 42240},
        Case{64 * H200_RESIDENT, 64, H200_RESIDENT}, Case{64 * H200_RESIDENT + 1, 34, 95413},
        Case{size_t{1} << 24, 56, 299594}, Case{size_t{15} << 20, 64, 245760}}) {
    EXPECT_EQ(gpu_plan::chunk_entries(k.L, H200_RESIDENT), k.S) << "L = " << k.L;
    EXPECT_EQ(gpu_plan::chunks_for(k.L, H200_RESIDENT), k.chunks) << "L = " << k.L;
  }
}

// Every level's chunks fit the buffers sized by chunk_capacity(entries): the first level (L <=
// entries) and the later ones (at most two partial sums per chunk of the level before).
TEST(Bls12377MsmPlan, ChunkCapacityHoldsEveryLevel) {
  for (size_t resident : {size_t{1}, size_t{4096}, H200_RESIDENT, size_t{1} << 20})
    for (size_t entries : {size_t{1}, size_t{13}, size_t{4097} * 16, size_t{15} << 20, size_t{11} << 26}) {
      const size_t cap = gpu_plan::chunk_capacity(entries, resident);
      for (size_t L = entries; L > 0; L = L * 3 / 4) {
        const size_t chunks = gpu_plan::chunks_for(L, resident);
        ASSERT_LE(chunks, cap) << "entries = " << entries << ", L = " << L << ", resident = " << resident;
        const uint32_t S = gpu_plan::chunk_entries(L, resident);
        EXPECT_TRUE(S % 2 == 0 && S >= 4 && S <= gpu_plan::MAX_CHUNK) << "S = " << S;
        EXPECT_GE(size_t{S} * chunks, L);
        if (2 * chunks < L) {  // the next level's entries
          EXPECT_LE(gpu_plan::chunks_for(2 * chunks, resident), cap);
        }
      }
    }
}

TEST(Bls12377MsmPlan, ReductionShapes) {
  // Per-window buckets at 2^20 (c = 16): 16 windows of 2^15 buckets, 2^14 parts of 32, one GPU fold
  // level of 32 pairs per block, one pair per window for the host.
  const MsmPlan a = gpu_plan::plan_msm(1u << 20, 16, 0, Inputs::HostScalars, {}, H200_RESIDENT);
  EXPECT_EQ(a.windows, 16u);
  EXPECT_EQ(a.bucket_sets, 16u);
  EXPECT_EQ(a.reduce_len, 32u);
  EXPECT_EQ(a.parts, 1u << 14);
  EXPECT_EQ(a.parts_per_window, 1024u);
  EXPECT_EQ(a.group, 32u);
  EXPECT_EQ(a.lane_pairs, 512u);
  EXPECT_EQ(a.fold_groups, (std::vector<uint32_t>{32}));
  EXPECT_EQ(a.host_pairs, 16u);
  EXPECT_EQ(a.host_pairs_per_window, 1u);
  // The window table at 2^24 (c = 23): one set of 2^22 buckets, 2^14 parts of 256, 16 pairs for the
  // host.
  const MsmPlan b = gpu_plan::plan_msm(1u << 24, 23, msm_window_count_half(23), Inputs::HostScalars, {}, H200_RESIDENT);
  EXPECT_TRUE(b.shared);
  EXPECT_EQ(b.windows, 11u);
  EXPECT_EQ(b.bucket_sets, 1u);
  EXPECT_EQ(b.reduce_len, gpu_plan::MAX_REDUCE_LEN);
  EXPECT_EQ(b.parts_per_window, 1u << 14);
  EXPECT_EQ(b.fold_groups, (std::vector<uint32_t>{32}));
  EXPECT_EQ(b.host_pairs, 16u);
  EXPECT_EQ(b.host_pairs_per_window, 16u);
  // The shapes the GPU test forces (2^4 parts, one host pair; 2^20 parts, 4096 pairs) on c = 13.
  MsmGpuOptions few;
  few.reduce_parts = size_t{1} << 4;
  few.host_fold_pairs = 1;
  const MsmPlan c = gpu_plan::plan_msm(20011, 13, msm_window_count_half(13), Inputs::HostScalars, few, H200_RESIDENT);
  EXPECT_EQ(c.reduce_len, gpu_plan::MAX_REDUCE_LEN);
  EXPECT_EQ(c.parts_per_window, 16u);
  EXPECT_EQ(c.group, 16u);
  EXPECT_TRUE(c.fold_groups.empty());
  EXPECT_EQ(c.host_pairs, 1u);
  MsmGpuOptions many;
  many.reduce_parts = size_t{1} << 20;
  many.host_fold_pairs = 4096;
  const MsmPlan d = gpu_plan::plan_msm(20011, 13, 0, Inputs::HostScalars, many, H200_RESIDENT);
  EXPECT_EQ(d.reduce_len, 1u);
  EXPECT_TRUE(d.fold_groups.empty());
  EXPECT_EQ(d.host_pairs_per_window, 128u);
  EXPECT_EQ(d.host_pairs, size_t{128} * d.windows);
  // Whatever the shape: the folds divide the pairs down to the host's, per window and in all.
  for (const MsmPlan* p : {&a, &b, &c, &d}) {
    size_t pairs = p->lane_pairs, per_window = p->parts_per_window / p->group;
    for (uint32_t g : p->fold_groups) {
      EXPECT_EQ(per_window % g, 0u);
      pairs /= g, per_window /= g;
    }
    EXPECT_EQ(pairs, p->host_pairs);
    EXPECT_EQ(per_window, p->host_pairs_per_window);
    EXPECT_EQ(pairs, size_t{p->bucket_sets} * per_window);
  }
}

TEST(Bls12377MsmPlan, OnePoint) {
  const MsmPlan p = gpu_plan::plan_msm(1, gpu_plan::default_window_bits(1), 0, Inputs::FromHost, {}, H200_RESIDENT);
  EXPECT_EQ(p.c, 6u);
  EXPECT_EQ(p.windows, msm_window_count(6));
  EXPECT_EQ(p.entries, p.windows);
  EXPECT_EQ(p.slices, (std::vector<Slice>{{0, 1}}));
  EXPECT_EQ(p.max_slice, 1u);
  EXPECT_EQ(p.sentinel, p.windows << 5);
  EXPECT_EQ(p.max_chunks, 11u);  // (43 entries + 3) / 4
  EXPECT_GT(uint64_t{1} << p.end_bit, p.sentinel);
  EXPECT_LE(uint64_t{1} << (p.end_bit - 1), p.sentinel);
}

TEST(Bls12377MsmPlan, LargestInput) {
  const uint32_t n = 1u << 26;
  const unsigned c = gpu_plan::default_window_bits(n);
  const MsmPlan host = gpu_plan::plan_msm(n, c, 0, Inputs::FromHost, {}, H200_RESIDENT);
  EXPECT_EQ(host.windows, 15u);
  EXPECT_EQ(host.entries, size_t{15} << 26);
  EXPECT_EQ(host.slices, (std::vector<Slice>{{0, 1u << 23}, {1u << 23, 1u << 24}, {3u << 23, 5u << 23}}));
  EXPECT_EQ(host.max_slice, 5u << 23);
  EXPECT_EQ(host.end_bit, 21);  // 15 windows of 2^17 buckets and the sentinel 15 * 2^17 < 2^21
  const unsigned t = gpu_plan::table_window_bits(n);
  const MsmPlan table = gpu_plan::plan_msm(n, t, msm_window_count_half(t), Inputs::HostScalars, {}, H200_RESIDENT);
  EXPECT_EQ(table.entries, size_t{11} << 26);
  EXPECT_EQ(table.slices.size(), 3u);
  expect_tiles(table.slices, n);
  EXPECT_EQ(table.end_bit, 23);  // the sentinel is 2^22
  // Scalars from host memory add their device copy to the workspace.
  const MsmPlan dev = gpu_plan::plan_msm(n, c, 0, Inputs::Device, {}, H200_RESIDENT);
  EXPECT_EQ(host.workspace_bytes - dev.workspace_bytes, size_t{n} * sizeof(Scalar));
  EXPECT_EQ(dev.slices, (std::vector<Slice>{{0, n}}));
  // A narrow window overflows the 32-bit entry indices.
  EXPECT_THROW((void)gpu_plan::plan_msm(n, 4, 0, Inputs::Device, {}, H200_RESIDENT), Error);
}

// The workspace sizes a budget is checked against: the buffers the MSM always uses with at least
// one element, the scalars only for inputs from host memory, the bases only from host, and the
// bytes growing with n (what lets a budget pick the points per part).
TEST(Bls12377MsmPlan, WorkspaceSizesForTheBudget) {
  const uint32_t n = 5000;
  const unsigned c = gpu_plan::default_window_bits(n);
  const MsmPlan dev = gpu_plan::plan_msm(n, c, 0, Inputs::Device, {}, H200_RESIDENT);
  const gpu_plan::WorkspaceSizes d = gpu_plan::workspace_sizes(dev, Inputs::Device, n, 777);
  EXPECT_EQ(d.entries, dev.entries);
  EXPECT_EQ(d.max_parts, dev.max_parts);
  EXPECT_EQ(d.pairs, 3 * size_t{dev.parts});
  EXPECT_EQ(d.max_chunks, dev.max_chunks);
  EXPECT_EQ(d.buckets, dev.buckets);
  EXPECT_EQ(d.scalars, 0u);
  EXPECT_EQ(d.bases, 0u);
  const size_t te = sizeof(TeExtended);
  EXPECT_EQ(d.bytes(), 16 * dev.entries + 2 * dev.max_parts * (4 + te) + 6 * size_t{dev.parts} * te +
                           4 * dev.max_chunks + 8 + dev.buckets * te + 777 + 8);  // + the two bad-input indices
  const MsmPlan res = gpu_plan::plan_msm(n, c, 0, Inputs::HostScalars, {}, H200_RESIDENT);
  const gpu_plan::WorkspaceSizes r = gpu_plan::workspace_sizes(res, Inputs::HostScalars, n, 777);
  EXPECT_EQ(r.bytes() - d.bytes(), size_t{n} * sizeof(Scalar));
  const MsmPlan host = gpu_plan::plan_msm(n, c, 0, Inputs::FromHost, {}, H200_RESIDENT);
  const gpu_plan::WorkspaceSizes h = gpu_plan::workspace_sizes(host, Inputs::FromHost, n, 777);
  EXPECT_EQ(h.bytes() - r.bytes(), size_t{n} * (sizeof(G1Affine) + sizeof(TePrecomputed)));
  // A zero temp (nothing to sort) still holds one byte.
  EXPECT_EQ(gpu_plan::workspace_sizes(dev, Inputs::Device, n, 0).bytes(), d.bytes() - 776);
  size_t last = 0;
  for (uint32_t m : {1u, 2u, 100u, 1000u, 5000u}) {
    const size_t b = gpu_plan::workspace_sizes(gpu_plan::plan_msm(m, c, 0, Inputs::FromHost, {}, H200_RESIDENT),
                                               Inputs::FromHost, m, 0)
                         .bytes();
    EXPECT_GT(b, last) << m;
    last = b;
  }
}

// Resident bases slice scalars from host memory from 2^20 points on, or from the size the options give.
TEST(Bls12377MsmPlan, ResidentSlicingThreshold) {
  const unsigned c = 16;
  EXPECT_EQ(gpu_plan::plan_msm((1u << 20) - 1, c, 0, Inputs::HostScalars, {}, H200_RESIDENT).slices.size(), 1u);
  EXPECT_EQ(gpu_plan::plan_msm(1u << 20, c, 0, Inputs::HostScalars, {}, H200_RESIDENT).slices,
            (std::vector<Slice>{{0, 95325}, {95325, 285975}, {381300, 667276}}));
  EXPECT_EQ(gpu_plan::plan_msm(1u << 20, c, 0, Inputs::Device, {}, H200_RESIDENT).slices.size(), 1u);
  MsmGpuOptions small;
  small.min_slice = 1000;
  small.resident_slice_min_n = 0;
  EXPECT_EQ(gpu_plan::plan_msm(50003, c, 0, Inputs::HostScalars, small, H200_RESIDENT).slices,
            (std::vector<Slice>{{0, 4545}, {4545, 13635}, {18180, 31823}}));
  // Bases from host memory always run in slices (one when n is below the first slice's minimum).
  EXPECT_EQ(gpu_plan::plan_msm(50003, c, 0, Inputs::FromHost, {}, H200_RESIDENT).slices.size(), 1u);
  EXPECT_EQ(gpu_plan::plan_msm(50003, c, 0, Inputs::FromHost, small, H200_RESIDENT).slices.size(), 3u);
}

TEST(Bls12377MsmPlan, RejectsBadTablesAndOptions) {
  // A table built for c = 13 (20 windows) used with c = 12.
  EXPECT_THROW((void)gpu_plan::plan_msm(100, 12, msm_window_count_half(13), Inputs::Device, {}, H200_RESIDENT), Error);
  MsmGpuOptions o;
  o.min_slice = 0;
  EXPECT_THROW(gpu_plan::check_options(o), Error);
  EXPECT_THROW((void)gpu_plan::plan_msm(100, 8, 0, Inputs::FromHost, o, H200_RESIDENT), Error);
  for (unsigned bad : {1u, 24u}) {
    MsmGpuOptions t;
    t.table_window = bad;
    EXPECT_THROW(gpu_plan::check_options(t), Error) << bad;
  }
  for (unsigned good : {0u, 2u, 23u}) {
    MsmGpuOptions t;
    t.table_window = good;
    EXPECT_NO_THROW(gpu_plan::check_options(t)) << good;
  }
}

}  // namespace
}  // namespace zkgpu::test
