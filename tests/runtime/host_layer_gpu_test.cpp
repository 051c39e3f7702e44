// The GPU host layer on the device (src/runtime/cuda): the arena's budget, poison and
// release-and-reuse; the pinned uploader's exact bytes at sizes around its chunks, into poisoned
// device memory; the per-device context cache. Skips without a usable GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/arena.cuh"
#include "runtime/cuda/context.cuh"
#include "runtime/cuda/uploader.cuh"
#endif

namespace zkgpu {
namespace {

#if ZKGPU_HAVE_CUDA
using cuda::ArenaBuffer;
using cuda::DeviceArena;

template <class T>
std::vector<T> read_back(const T* d, size_t n) {
  std::vector<T> h(n);
  ZKGPU_CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

TEST(HostLayerGpu, ArenaBudgetRefusesGrowthAndStaysUsable) {
  ZKGPU_REQUIRE_GPU();
  DeviceArena arena("the test arena");
  ArenaBuffer<uint32_t> a(arena), b(arena);
  arena.set_budget(1 << 20);  // 1 MiB
  a.ensure(128 << 10);        // 512 KiB
  EXPECT_EQ(arena.held_bytes(), size_t{512} << 10);
  try {
    b.ensure(160 << 10);  // 640 KiB more: over the budget
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("the test arena"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("gpu_memory_budget"), std::string::npos) << e.what();
  }
  // Nothing changed: a is intact, b empty, and what fits still grows.
  EXPECT_EQ(arena.held_bytes(), size_t{512} << 10);
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(a.size(), size_t{128} << 10);
  std::vector<uint32_t> v(a.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint32_t>(i * 2654435761u);
  a.upload(v.data(), v.size(), nullptr);
  b.ensure(64 << 10);  // 256 KiB: fits
  EXPECT_EQ(arena.held_bytes(), size_t{768} << 10);
  EXPECT_EQ(read_back(a.data(), a.size()), v);
  // Growing a held buffer counts only what it adds; its own old size is given back.
  a.ensure(192 << 10);  // 768 KiB + 256 KiB = the budget exactly
  EXPECT_EQ(arena.held_bytes(), size_t{1} << 20);
  // Without a budget the device's memory is the limit, and `prefer` rounds growth up.
  arena.set_budget(0);
  b.ensure((64 << 10) + 1, 256 << 10);
  EXPECT_EQ(b.size(), size_t{256} << 10);
}

TEST(HostLayerGpu, ArenaMakeRoomFreesEarlierBuffersOnlyWhenTheyStandInTheWay) {
  ZKGPU_REQUIRE_GPU();
  DeviceArena arena("the test arena");
  ArenaBuffer<uint8_t> a(arena), b(arena);
  a.ensure(600 << 10);
  arena.set_budget(1 << 20);
  arena.make_room(300 << 10, 300 << 10, "b");  // 600 + 300 KiB fit: a is kept
  EXPECT_EQ(a.size(), size_t{600} << 10);
  b.ensure(300 << 10);
  arena.make_room(900 << 10, 500 << 10, "a bigger b");  // 900 + 500 KiB do not: both are freed
  EXPECT_EQ(arena.held_bytes(), 0u);
  b.ensure(900 << 10);
  try {
    arena.make_room(size_t{2} << 20, size_t{2} << 20, "the whole call");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("the whole call needs 2097152 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.size(), size_t{900} << 10);  // a refusal frees nothing
}

TEST(HostLayerGpu, ArenaPoisonFillsEveryBufferAndReleaseAllowsReuse) {
  ZKGPU_REQUIRE_GPU();
  DeviceArena arena("the test arena");
  ArenaBuffer<uint32_t> a(arena);
  ArenaBuffer<uint8_t> b(arena);
  a.ensure(1000);
  b.ensure(4097);
  ZKGPU_CUDA_CHECK(cudaMemset(a.data(), 0, a.size() * 4));
  ZKGPU_CUDA_CHECK(cudaMemset(b.data(), 0, b.size()));
  arena.poison(nullptr);
  EXPECT_EQ(read_back(a.data(), a.size()), std::vector<uint32_t>(1000, 0xffffffffu));
  EXPECT_EQ(read_back(b.data(), b.size()), std::vector<uint8_t>(4097, 0xff));
  arena.release();
  EXPECT_EQ(arena.held_bytes(), 0u);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.data(), nullptr);
  a.ensure(10);  // grows again after release
  std::vector<uint32_t> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  a.upload(v.data(), v.size(), nullptr);
  EXPECT_EQ(read_back(a.data(), 10), v);
  EXPECT_EQ(arena.held_bytes(), 40u);
}

// Uploads `count` words through the uploader in chunks of `chunk` into a poisoned buffer one word
// longer: every word arrives, the one beyond stays poisoned, the callback sees each chunk once.
void expect_exact_upload(cuda::PinnedUploader& up, cudaStream_t s, size_t count, size_t chunk, test::Rng& rng) {
  std::vector<uint32_t> host(count);
  for (auto& w : host) w = rng.u32();
  cuda::DeviceBuffer<uint32_t> dev(count + 1);
  ZKGPU_CUDA_CHECK(cudaMemsetAsync(dev.data(), 0xff, (count + 1) * 4, s));
  size_t seen = 0, calls = 0;
  up.upload(s, dev.data(), host.data(), count, chunk, [&](size_t first, size_t c, cudaEvent_t landed) {
    EXPECT_EQ(first, seen);
    EXPECT_GE(c, 1u);
    EXPECT_LE(c, chunk);
    EXPECT_NE(landed, nullptr);
    seen += c;
    ++calls;
  });
  EXPECT_EQ(seen, count);
  EXPECT_EQ(calls, (count + chunk - 1) / chunk);
  ZKGPU_CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<uint32_t> back = read_back(dev.data(), count + 1);
  EXPECT_EQ(back.back(), 0xffffffffu) << "count " << count << " chunk " << chunk;
  back.pop_back();
  EXPECT_EQ(back, host) << "count " << count << " chunk " << chunk;
}

TEST(HostLayerGpu, UploaderMovesExactBytesAroundChunkSizes) {
  ZKGPU_REQUIRE_GPU();
  test::Rng rng(9);
  cuda::Stream stream;
  cuda::PinnedUploader up;
  const size_t chunk = 4096;  // words
  for (size_t count : {size_t{1}, chunk - 1, chunk, chunk + 1, 5 * chunk + 17, 16 * chunk})
    expect_exact_upload(up, stream, count, chunk, rng);
  // The largest chunk a stage holds, and sizes around it (the copy threads split these).
  const size_t stage = cuda::PinnedUploader::STAGE_BYTES / 4;
  for (size_t count : {stage - 1, stage, stage + 1, 3 * stage + 5}) expect_exact_upload(up, stream, count, stage, rng);
  // After release the stages come back on the next upload.
  up.release();
  expect_exact_upload(up, stream, 3 * chunk + 1, chunk, rng);
  // A chunk larger than a stage is refused.
  cuda::DeviceBuffer<uint32_t> dev(1);
  std::vector<uint32_t> host(1);
  EXPECT_THROW(up.upload(stream.get(), dev.data(), host.data(), 1, stage + 1), Error);
}

// One context per device, created once and handed out again; release destroys it.
struct CountingContext {
  static inline int made = 0;
  cuda::GpuContext gpu{"the test context", 2, 1};
  CountingContext() { ++made; }
};

TEST(HostLayerGpu, ContextCacheReusesThePerDeviceContext) {
  ZKGPU_REQUIRE_GPU();
  auto& cache = cuda::context_cache<CountingContext>();
  const int before = CountingContext::made;
  const CountingContext* first = nullptr;
  {
    auto lease = cache.acquire();
    first = &*lease;
    EXPECT_EQ(lease->gpu.stream_count(), 2u);
    EXPECT_NE(lease->gpu.stream(0), lease->gpu.stream(1));
    int dev = -1;
    ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
    EXPECT_EQ(lease->gpu.device(), dev);
  }
  {
    auto lease = cache.acquire();
    EXPECT_EQ(&*lease, first);
  }
  EXPECT_EQ(CountingContext::made, before + 1);
  release_gpu_caches();  // the cache registered itself
  { auto lease = cache.acquire(); }
  EXPECT_EQ(CountingContext::made, before + 2);
}
#endif

}  // namespace
}  // namespace zkgpu
