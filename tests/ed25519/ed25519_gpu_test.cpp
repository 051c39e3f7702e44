// Ed25519 on the GPU against the CPU backend, byte for byte: fresh random batches (valid and
// mutated items, messages of many lengths) at sizes around the chunking boundaries, the labelled
// edge cases in every mode, with a poisoned device result buffer and poisoned host output. Needs
// a GPU; skips without one. Small mode (ZKGPU_TEST_SMALL=1) keeps every kernel and chunking path
// on fewer and shorter items (see each test).
#include <algorithm>
#include <cstdint>
#include <optional>

#include "ed25519/ed25519_test_support.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "bench_support/internals.hpp"
#include "ed25519/cuda/backend.hpp"
#endif

namespace zkgpu {
namespace {

using test::SigCase;

constexpr Ed25519Mode ALL_MODES[] = {Ed25519Mode::Openssl, Ed25519Mode::Strict, Ed25519Mode::Zip215};

#if ZKGPU_HAVE_CUDA
// Which kernel runs: 0 = one lane per signature always, SIZE_MAX = 4 lanes per signature always,
// else the 4-lane kernel for chunks of at most that many (the default, 8192; small mode 2048, so
// that a batch of 4097, chunks of 4096 and 1, runs both kernels).
std::vector<size_t> kernel_choices() {
  return test::sized<size_t>({0, SIZE_MAX, ed25519::cuda::COOP_MAX_ITEMS}, {0, SIZE_MAX, 2048});
}

// The CUDA backend's verdicts with the device result buffer poisoned (a verdict no kernel writes
// shows as 0xAB) and the host output prefilled (every verdict must be written).
std::vector<uint8_t> gpu_verdicts(const std::vector<Ed25519Item>& items, Ed25519Mode m, size_t coop_max,
                                  size_t max_chunk_msg_bytes = ed25519::cuda::MAX_CHUNK_MSG_BYTES) {
  std::vector<uint8_t> out(items.size(), 0xCD);
  ed25519::cuda::verify_items(
      std::span<const Ed25519Item>(items), out, static_cast<ed25519::VerifyMode>(m),
      {.coop_max = coop_max, .max_chunk_msg_bytes = max_chunk_msg_bytes, .result_poison = true});
  return out;
}
#endif

// Through the public API, as a caller gets them.
[[maybe_unused]] std::vector<uint8_t> public_gpu_verdicts(const std::vector<Ed25519Item>& items, Ed25519Mode m) {
  std::vector<uint8_t> out(items.size(), 0xCD);  // every verdict must be written
  ed25519_verify_batch(items, out, m, Backend::Cuda);
  return out;
}

// A pool of signed items (signing is the slow part), sampled and mutated afresh per batch.
[[maybe_unused]] const std::vector<SigCase>& pool() {
  static const std::vector<SigCase> p = [] {
    test::Signer signer(101);
    std::vector<SigCase> v;
    for (int i = 0; i < 3000; ++i) {
      const uint32_t r = signer.rng().u32() % 16;
      const size_t len = r == 0   ? 0
                         : r == 1 ? (64 << 10) + signer.rng().u32() % 300
                         : r < 4  ? signer.rng().u32() % 2000
                                  : signer.rng().u32() % 200;
      v.push_back(signer.sign(len));
    }
    return v;
  }();
  return p;
}

[[maybe_unused]] std::vector<SigCase> fresh_batch(size_t n, test::Rng& rng) {
  std::vector<SigCase> batch;
  batch.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    SigCase c = pool()[rng.u32() % pool().size()];
    if (rng.u32() % 3 == 0) c = test::mutate(std::move(c), rng);
    batch.push_back(std::move(c));
  }
  return batch;
}

TEST(Ed25519Gpu, RandomBatchesEqualCpuAtManySizes) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  test::Rng rng(102);
  // Chunks hold at least 4096 signatures: 4097 takes two, and 12289 (small mode's largest) four,
  // so a stream slot is reused.
  for (size_t n : test::sized<size_t>({1, 2, 3, 31, 63, 64, 65, 1000, 4095, 4096, 4097, 24577, 65536, 200003},
                                      {1, 2, 3, 31, 63, 64, 65, 1000, 4096, 4097, 12289})) {
    const auto batch = fresh_batch(n, rng);
    const auto items = test::items_of(batch);
    for (Ed25519Mode m : ALL_MODES) {
      const auto cpu = ed25519_verify_batch(items, m, Backend::Cpu);
      for (size_t coop : kernel_choices()) {
        if (coop == SIZE_MAX && n > 70000) continue;  // the 4-lane kernel is for small chunks
        const auto gpu = gpu_verdicts(items, m, coop);
        ASSERT_EQ(gpu.size(), cpu.size());
        for (size_t i = 0; i < n; ++i)
          ASSERT_EQ(gpu[i], cpu[i]) << "n " << n << " item " << i << " mode " << to_string(m) << " coop_max " << coop
                                    << " " << batch[i].name;
      }
    }
  }
#endif
}

TEST(Ed25519Gpu, EdgeCasesEveryModeEqualLabels) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  const auto j = test::load_vectors("ed25519/edge_cases_labelled_by_semantics.json");
  std::vector<SigCase> cases;
  std::vector<nlohmann::json> labels;
  for (const auto& v : j) {
    SigCase c{test::unhex(v["pk"]), test::unhex(v["sig"]), test::unhex(v["msg"]),
              v["set"].get<std::string>() + " " + std::to_string(v["id"].get<int>())};
    if (c.pk.size() != 32 || c.sig.size() != 64) continue;
    cases.push_back(std::move(c));
    labels.push_back(v["results"]);
  }
  const auto items = test::items_of(cases);
  const std::pair<Ed25519Mode, const char*> cols[] = {{Ed25519Mode::Openssl, "go_openssl_boringssl_dalek_verify"},
                                                      {Ed25519Mode::Strict, "dalek_verify_strict"},
                                                      {Ed25519Mode::Zip215, "zip215_zebra_consensus"}};
  for (size_t coop : kernel_choices()) {
    for (const auto& [m, col] : cols) {
      const auto gpu = gpu_verdicts(items, m, coop);
      for (size_t i = 0; i < cases.size(); ++i)
        ASSERT_EQ(gpu[i], labels[i][col].get<bool>() ? 1 : 0)
            << cases[i].name << " " << to_string(m) << " coop_max " << coop;
    }
  }
#endif
}

TEST(Ed25519Gpu, KnownAnswersAndHugeMessagesAcrossChunks) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  const auto supercop = test::supercop_cases();
  for (size_t coop : kernel_choices())
    EXPECT_EQ(gpu_verdicts(test::items_of(supercop), Ed25519Mode::Openssl, coop), std::vector<uint8_t>(1024, 1))
        << coop;
  // 70 one-MiB messages exceed one chunk's message budget (64 MiB): the batch splits by bytes; then
  // one message larger than the budget on its own (by one byte, the least that takes this path).
  // Small mode passes a budget of 1 MiB to the backend (same chunking code, 64x less hashing; a
  // single thread hashing 64 MiB does not finish under compute-sanitizer memcheck): 70 messages
  // of 16 KiB, the first 64 filling the budget exactly, and one of 1 MiB + 1.
  const size_t budget = test::sized<size_t>(ed25519::cuda::MAX_CHUNK_MSG_BYTES, size_t{1} << 20);
  auto verdicts = [&](const std::vector<SigCase>& cases, Ed25519Mode m) {
    return gpu_verdicts(test::items_of(cases), m, ed25519::cuda::COOP_MAX_ITEMS, budget);
  };
  test::Signer signer(103);
  const size_t count = budget / test::sized<size_t>(1 << 20, 16 << 10) + 6, len = budget / (count - 6);
  std::vector<SigCase> big;
  for (size_t i = 0; i < count; ++i) big.push_back(signer.sign(len));
  big[count - 1].msg.back() ^= 1;
  big[3].msg.front() ^= 1;
  const auto gpu = verdicts(big, Ed25519Mode::Openssl);
  for (size_t i = 0; i < big.size(); ++i) EXPECT_EQ(gpu[i], (i == 3 || i == count - 1) ? 0 : 1) << i;
  std::vector<SigCase> huge = {signer.sign(budget + 1), signer.sign(10)};
  huge[0].sig[40] ^= 4;  // the lone chunk's verdict must be its own, not a default
  EXPECT_EQ(verdicts(huge, Ed25519Mode::Zip215), (std::vector<uint8_t>{0, 1}));
  huge[0].sig[40] ^= 4;
  EXPECT_EQ(verdicts(huge, Ed25519Mode::Zip215), (std::vector<uint8_t>{1, 1}));
#endif
}

// A device-memory budget splits a batch into chunks that fit and changes no verdict: on a fresh
// random batch (messages up to 64 KiB) the budgeted call gives the unlimited call's bytes, through
// the backend with a poisoned result buffer and through the public options. A budget too small for
// one item (or for one item's message) is Error(OutOfMemory).
TEST(Ed25519Gpu, SmallMemoryBudgetGivesTheSameVerdicts) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  test::Rng rng(106);
  const auto batch = fresh_batch(test::sized<size_t>(6000, 3000), rng);
  const auto items = test::items_of(batch);
  const uint64_t budget = 3 * (uint64_t{512} << 10);  // 512 KiB per stream: a 64 KiB message fits
  size_t bytes = 0;
  for (const auto& it : items) bytes += 112 + it.message.size();
  // Each chunk holds at most a third of the budget, so this batch takes at least a dozen.
  ASSERT_GT(bytes, 4 * budget);
  for (Ed25519Mode m : ALL_MODES) {
    std::vector<uint8_t> unlimited(items.size(), 0xCD), budgeted(items.size(), 0xCD);
    ed25519_verify_batch(items, unlimited, m, Ed25519BatchOptions{.backend = Backend::Cuda});
    ed25519_verify_batch(items, budgeted, m,
                         Ed25519BatchOptions{.backend = Backend::Cuda, .gpu_memory_budget = budget});
    EXPECT_EQ(budgeted, unlimited) << to_string(m);
    std::vector<uint8_t> poisoned(items.size(), 0xCD);
    ed25519::cuda::verify_items(std::span<const Ed25519Item>(items), poisoned, static_cast<ed25519::VerifyMode>(m),
                                {.result_poison = true, .memory_budget = budget});
    EXPECT_EQ(poisoned, unlimited) << to_string(m);
    EXPECT_EQ(unlimited, ed25519_verify_batch(items, m, Backend::Cpu)) << to_string(m);
  }
  std::vector<uint8_t> out(items.size());
  auto code_of = [&](uint64_t b) {
    try {
      ed25519_verify_batch(items, out, Ed25519Mode::Openssl,
                           Ed25519BatchOptions{.backend = Backend::Cuda, .gpu_memory_budget = b});
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::InvalidArgument;  // no error: not what is expected
  };
  EXPECT_EQ(code_of(300), ErrorCode::OutOfMemory);             // not even one item per stream
  EXPECT_EQ(code_of(3 * (16 << 10)), ErrorCode::OutOfMemory);  // the 64 KiB messages do not fit
  // The context is still usable after a refused call.
  std::vector<uint8_t> again(items.size(), 0xCD);
  ed25519_verify_batch(items, again, Ed25519Mode::Openssl, Ed25519BatchOptions{.backend = Backend::Cuda});
  EXPECT_EQ(again, ed25519_verify_batch(items, Ed25519Mode::Openssl, Backend::Cpu));
#endif
}

TEST(Ed25519Gpu, EmptyBatchAndContextRecreation) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  EXPECT_TRUE(ed25519_verify_batch({}, Ed25519Mode::Openssl, Backend::Cuda).empty());
  test::Rng rng(104);
  const auto batch = fresh_batch(500, rng);
  const auto items = test::items_of(batch);
  const auto before = public_gpu_verdicts(items, Ed25519Mode::Strict);
  ed25519::cuda::release_context();
  EXPECT_EQ(public_gpu_verdicts(items, Ed25519Mode::Strict), before);
  release_gpu_caches();
  EXPECT_EQ(public_gpu_verdicts(items, Ed25519Mode::Strict), before);
  EXPECT_EQ(before, ed25519_verify_batch(items, Ed25519Mode::Strict, Backend::Cpu));
  // Auto above the crossover agrees too (whichever backend it picks).
  EXPECT_EQ(ed25519_verify_batch(items, Ed25519Mode::Strict, Backend::Auto), before);
  // The bench's kernel-only timing (tools/bench_support, over the device-pointer call): one entry
  // per run, each a positive time, with the default kernel choice and with a forced one.
  for (const std::optional<size_t> coop : {std::optional<size_t>{}, std::optional<size_t>{0}}) {
    const auto ms = bench::time_ed25519_kernel(items, Ed25519Mode::Openssl, 1, 2, coop);
    ASSERT_EQ(ms.size(), 2u);
    for (double t : ms) EXPECT_GT(t, 0.0);
  }
#endif
}

TEST(Ed25519Gpu, CudaBackendWithoutGpuIsUnavailable) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is present";
  test::Signer signer(105);
  std::vector<SigCase> one = {signer.sign(3)};
  try {
    (void)ed25519_verify_batch(test::items_of(one), Ed25519Mode::Openssl, Backend::Cuda);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable);
  }
  EXPECT_EQ(ed25519_verify_batch(test::items_of(one), Ed25519Mode::Openssl, Backend::Auto), std::vector<uint8_t>{1});
}

}  // namespace
}  // namespace zkgpu
