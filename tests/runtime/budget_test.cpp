// The host-side planning of the GPU host layer, on the CPU: the largest count that fits a budget,
// the budget's share per stream, the chunk choices of the batch pipeline under a budget, the one
// over-budget message, and the copy threads' exact bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/budget.hpp"
#include "runtime/parallel_memcpy.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/batch_pipeline.cuh"
#endif

namespace zkgpu {
namespace {

TEST(HostLayerBudget, LargestFittingFindsTheLastTrueOfAMonotonePredicate) {
  for (size_t hi : {size_t{1}, size_t{2}, size_t{3}, size_t{17}, size_t{1000}, size_t{1} << 26}) {
    for (size_t limit : {size_t{0}, size_t{1}, size_t{2}, size_t{16}, size_t{999}, size_t{1} << 26, SIZE_MAX}) {
      size_t calls = 0;
      const size_t got = runtime::largest_fitting(hi, [&](size_t m) {
        ++calls;
        EXPECT_GE(m, 1u);
        EXPECT_LE(m, hi);
        return m <= limit;
      });
      EXPECT_EQ(got, std::min(hi, limit)) << "hi " << hi << " limit " << limit;
      size_t log2 = 0;
      while ((size_t{1} << log2) < hi) ++log2;
      EXPECT_LE(calls, log2 + 2) << "hi " << hi;
    }
  }
  EXPECT_EQ(runtime::largest_fitting(0, [](size_t) { return true; }), 0u);
}

// A predicate that is not monotone (a plan whose need dips) still gets an m that fits.
TEST(HostLayerBudget, LargestFittingOnlyReturnsCountsThatFit) {
  auto fits = [](size_t m) { return m <= 40 || (m >= 60 && m <= 70); };
  for (size_t hi = 1; hi <= 100; ++hi) {
    const size_t m = runtime::largest_fitting(hi, fits);
    ASSERT_GE(m, 1u);
    EXPECT_TRUE(fits(m)) << "hi " << hi << " gave " << m;
  }
}

TEST(HostLayerBudget, SlotShareAndOverBudgetMessage) {
  EXPECT_EQ(runtime::slot_share(0, 3), 0u);
  EXPECT_EQ(runtime::slot_share(3000, 3), 1000u);
  EXPECT_EQ(runtime::slot_share(3001, 3), 1000u);
  try {
    runtime::throw_over_budget("the thing", 5u << 20, 1u << 20);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    const std::string m = e.what();
    EXPECT_NE(m.find("the thing needs 5242880 bytes (5.0 MiB)"), std::string::npos) << m;
    EXPECT_NE(m.find("gpu_memory_budget is 1048576 bytes (1.0 MiB)"), std::string::npos) << m;
  }
  EXPECT_EQ(runtime::bytes_text(uint64_t{3} << 30), "3221225472 bytes (3.00 GiB)");
}

// The copy threads move exactly the bytes asked for, at sizes below, at and around their slices.
TEST(HostLayerBudget, ParallelMemcpyCopiesExactly) {
  test::Rng rng(7);
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{1000}, (size_t{1} << 20) - 1, size_t{1} << 20,
                       (size_t{1} << 20) + 1, (size_t{5} << 20) + 77, (size_t{32} << 20) - 3}) {
    const std::vector<uint8_t> src = rng.bytes(bytes + 2);
    std::vector<uint8_t> dst(bytes + 2, 0xee);
    runtime::parallel_memcpy(dst.data() + 1, src.data() + 1, bytes);
    EXPECT_EQ(dst[0], 0xee);
    EXPECT_EQ(dst[bytes + 1], 0xee) << bytes;
    EXPECT_TRUE(std::equal(src.begin() + 1, src.begin() + 1 + static_cast<ptrdiff_t>(bytes), dst.begin() + 1)) << bytes;
  }
}

#if ZKGPU_HAVE_CUDA
using cuda::BatchPipeline;
using cuda::ChunkPlan;

// A fixed-size item: 100 bytes in, 10 out, 1000 of scratch.
ChunkPlan fixed_plan(size_t m) { return ChunkPlan{m, 100 * m, 10 * m, 1000 * m}; }

TEST(HostLayerBudget, ChunkUnderBudgetKeepsEveryChunkWithinOneStreamsShare) {
  EXPECT_EQ(BatchPipeline::chunk_under_budget(5000, 0, fixed_plan, "x"), 5000u);  // no budget
  for (uint64_t budget : {uint64_t{3} << 12, uint64_t{1} << 20, uint64_t{10} << 20, uint64_t{1} << 40}) {
    const size_t m = BatchPipeline::chunk_under_budget(5000, budget, fixed_plan, "x");
    ASSERT_GE(m, 1u);
    EXPECT_LE(m, 5000u);
    EXPECT_LE(BatchPipeline::SLOTS * BatchPipeline::slot_bytes(fixed_plan(m)), budget) << budget;
    if (m < 5000) {
      EXPECT_GT(BatchPipeline::slot_bytes(fixed_plan(m + 1)), budget / BatchPipeline::SLOTS) << budget;
    }
  }
  try {
    (void)BatchPipeline::chunk_under_budget(5000, 1000, fixed_plan, "the batch");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("the batch"), std::string::npos) << e.what();
  }
}

// Items with messages: the chunks cover every item once, in order, each within the message cap
// (one larger message alone) and, under a budget, within one stream's share.
TEST(HostLayerBudget, FillChunkSplitsVariableItemsWithinCapAndBudget) {
  test::Rng rng(8);
  std::vector<size_t> msg(3000);
  for (auto& b : msg) b = rng.u32() % 5 == 0 ? rng.u32() % 20000 : rng.u32() % 300;
  auto plan_of = [](size_t end, size_t m, size_t var) { return ChunkPlan{end, 112 * m + var, m, 0}; };
  const uint64_t no_budget = 0, budget = uint64_t{3} * 64 * 1024;
  for (uint64_t b : {no_budget, budget}) {
    for (size_t cap : {size_t{50000}, SIZE_MAX}) {
      size_t pos = 0, chunks = 0;
      while (pos < msg.size()) {
        const ChunkPlan p = BatchPipeline::fill_chunk(
            pos, msg.size(), 1000, cap, b, [&](size_t i) { return msg[i]; }, plan_of, "x");
        ASSERT_GT(p.end, pos);
        ASSERT_LE(p.end - pos, 1000u);
        const size_t var = std::accumulate(msg.begin() + static_cast<ptrdiff_t>(pos),
                                           msg.begin() + static_cast<ptrdiff_t>(p.end), size_t{0});
        EXPECT_EQ(p.in_bytes, 112 * (p.end - pos) + var);
        if (p.end - pos > 1) {
          EXPECT_LE(var, cap);
        }
        if (b) {
          EXPECT_LE(BatchPipeline::slot_bytes(p), b / BatchPipeline::SLOTS);
        }
        pos = p.end;
        ++chunks;
      }
      if (b) {
        EXPECT_GT(chunks, 3u) << "the budget must force several chunks";
      }
    }
  }
  // One message larger than a stream's share is an error naming the batch.
  std::vector<size_t> big = {10, 1 << 20, 10};
  try {
    (void)BatchPipeline::fill_chunk(
        1, big.size(), 1000, SIZE_MAX, budget, [&](size_t i) { return big[i]; }, plan_of, "the verification");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("the verification"), std::string::npos) << e.what();
  }
}
#endif

}  // namespace
}  // namespace zkgpu
