// The packed batch API on the CPU: the same verdicts as the span API on random and mutated items
// in every mode (with and without the ZIP-215 batch equation's sizes), its size and offset checks,
// the device call's host-side checks (which hold with or without a GPU), the CUDA chunk plan and
// the chunk pack's bytes, which the GPU tests then trust.
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "ed25519/chunk_pack.hpp"
#include "ed25519/cuda/backend.hpp"  // chunk_items_for and the constants (plain C++, every build)
#include "ed25519/ed25519_packed_support.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

using test::PackedCases;
using test::SigCase;

constexpr Ed25519Mode ALL_MODES[] = {Ed25519Mode::Openssl, Ed25519Mode::Strict, Ed25519Mode::Zip215};

std::vector<uint8_t> packed_verdicts(const PackedCases& p, Ed25519Mode m, Backend b = Backend::Cpu) {
  std::vector<uint8_t> out(p.size(), 0xCD);  // every verdict must be written
  ed25519_verify_batch(p.batch(), out, m, Ed25519BatchOptions{.backend = b});
  return out;
}

TEST(Ed25519Packed, EqualsTheSpanApiOnRandomAndMutatedItems) {
  test::Rng rng(201);
  // 31 / 32: below and at the ZIP-215 batch equation's threshold; 300 bisects mixed batches.
  for (size_t n : {1u, 2u, 31u, 32u, 33u, 300u}) {
    const std::vector<SigCase> cases = test::random_cases(n, rng);
    const PackedCases packed(cases);
    for (Ed25519Mode m : ALL_MODES) {
      const auto want = ed25519_verify_batch(test::items_of(cases), m, Backend::Cpu);
      EXPECT_EQ(packed_verdicts(packed, m), want) << "n " << n << " " << to_string(m);
      EXPECT_EQ(packed_verdicts(packed, m, Backend::Auto), want) << "n " << n << " " << to_string(m);
    }
  }
}

TEST(Ed25519Packed, EveryItemIsJudgedOnItsOwn) {
  test::Rng rng(202);
  const std::vector<SigCase> cases = test::random_cases(64, rng);
  const PackedCases packed(cases);
  for (Ed25519Mode m : ALL_MODES) {
    const auto got = packed_verdicts(packed, m);
    size_t valid = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
      ASSERT_EQ(got[i], ed25519_verify(cases[i].pk, cases[i].sig, cases[i].msg, m) ? 1 : 0) << i;
      valid += got[i];
    }
    EXPECT_GT(valid, 0u);  // both verdicts occur, or the comparison says little
    EXPECT_LT(valid, cases.size());
  }
}

TEST(Ed25519Packed, EmptyBatches) {
  std::vector<uint8_t> none;
  ed25519_verify_batch(Ed25519PackedBatch{}, none, Ed25519Mode::Openssl);  // offsets may be empty for n = 0
  const std::vector<uint64_t> zero = {0};
  ed25519_verify_batch(Ed25519PackedBatch{{}, {}, {}, zero}, none, Ed25519Mode::Zip215, {.backend = Backend::Cuda});
  // Nothing to do on the device either, with or without a GPU.
  ed25519_verify_batch_device(Ed25519PackedBatch{}, nullptr, Ed25519Mode::Openssl, GpuStream{});
}

// The call's Error(InvalidArgument) whose message contains `needle`.
template <class F>
void expect_invalid(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one naming \"" << needle << "\"";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Ed25519Packed, SizesAndOffsetsAreChecked) {
  test::Rng rng(203);
  const PackedCases p(test::random_cases(5, rng));
  std::vector<uint8_t> out(5);
  auto call = [&](const Ed25519PackedBatch& b, std::span<uint8_t> o) {
    return [=] { ed25519_verify_batch(b, o, Ed25519Mode::Openssl); };
  };
  Ed25519PackedBatch b = p.batch();
  b.public_keys = b.public_keys.first(33);
  expect_invalid(call(b, out), "not a multiple of 32");
  b = p.batch();
  b.signatures = b.signatures.first(64 * 4);
  expect_invalid(call(b, out), "signatures has 256 bytes for 5 public keys");
  b = p.batch();
  b.message_offsets = b.message_offsets.first(5);
  expect_invalid(call(b, out), "message_offsets has 5 entries");
  expect_invalid(call(p.batch(), std::span<uint8_t>(out).first(4)), "room for 4 verdicts");
  // The offsets' contents: first 0, nondecreasing, last = the message bytes.
  for (const auto& [i, v, needle] :
       std::vector<std::tuple<size_t, uint64_t, std::string>>{{0, 1, "message_offsets[0] = 1"},
                                                              {3, p.offsets[2] - 1, "message_offsets[3] = "},
                                                              {5, p.offsets[5] + 1, "but messages has"}}) {
    if (i == 3 && p.offsets[2] == 0) continue;  // cannot go below 0
    PackedCases bad = p;
    bad.offsets[i] = v;
    expect_invalid(call(bad.batch(), out), needle);
  }
  // No items but message bytes.
  const uint8_t byte = 0;
  std::vector<uint8_t> none;
  expect_invalid(call(Ed25519PackedBatch{{}, {}, {&byte, 1}, {}}, none), "no items but 1 message bytes");
  // The verdicts may not overlap an input.
  PackedCases shared = p;
  expect_invalid(call(shared.batch(), std::span<uint8_t>(shared.msgs).first(5)), "overlap messages");
  expect_invalid(call(shared.batch(), std::span<uint8_t>(shared.keys).subspan(10, 5)), "overlap public_keys");
}

// A decreasing pair far into a large batch is found by the parallel scan, and named.
TEST(Ed25519Packed, AnOffsetBreakDeepInALargeBatchIsNamed) {
  const size_t n = size_t{1} << 16;
  std::vector<uint8_t> keys(32 * n), sigs(64 * n), msgs(n), out(n);
  std::vector<uint64_t> off(n + 1);
  for (size_t i = 0; i <= n; ++i) off[i] = i;
  off[50001] = 49990;
  expect_invalid(
      [&] {
        ed25519_verify_batch(Ed25519PackedBatch{keys, sigs, msgs, off}, out, Ed25519Mode::Openssl);
      },
      "message_offsets[50001] = 49990 is below message_offsets[50000] = 50000");
}

// The device call's checks on the host come before any GPU question, so they hold here too:
// shapes, the backend, the verdict pointer and the overlap; then, without a GPU, Unavailable.
TEST(Ed25519Packed, DeviceCallHostSideChecks) {
  const auto* fake = reinterpret_cast<const uint8_t*>(uintptr_t{0x10000});
  const auto* fake_off = reinterpret_cast<const uint64_t*>(uintptr_t{0x40000});
  auto* verdicts = reinterpret_cast<uint8_t*>(uintptr_t{0x80000});
  const Ed25519PackedBatch good{{fake, 64}, {fake + 0x1000, 128}, {fake + 0x2000, 10}, {fake_off, 3}};
  auto dev = [&](const Ed25519PackedBatch& b, uint8_t* v, Backend be = Backend::Auto) {
    return [=] { ed25519_verify_batch_device(b, v, Ed25519Mode::Openssl, GpuStream{}, {.backend = be}); };
  };
  Ed25519PackedBatch b = good;
  b.signatures = {fake + 0x1000, 127};
  expect_invalid(dev(b, verdicts), "signatures has 127 bytes");
  b = good;
  b.message_offsets = {fake_off, 2};
  expect_invalid(dev(b, verdicts), "message_offsets has 2 entries");
  expect_invalid(dev(good, nullptr), "verdicts_on_device is null");
  expect_invalid(dev(good, verdicts, Backend::Cpu), "Backend::Cpu");
  expect_invalid(dev(good, const_cast<uint8_t*>(fake) + 0x2008), "overlap messages");
  if (cuda_usable()) return;  // Ed25519PackedGpu runs well-formed calls on the GPU
  try {
    dev(good, verdicts)();
    ADD_FAILURE() << "no error without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable) << e.what();
  }
}

// The chunk sizes of the CUDA backend: the default keeps one chunk up to 4096 items and the
// two-rounds split for big batches; a smaller minimum gives small batches one round of up to 3
// chunks, or two rounds once 6 chunks reach the minimum.
TEST(Ed25519ChunkPlan, ChunkItemsFollowTheRule) {
  using ed25519::cuda::chunk_items_for;
  using ed25519::cuda::MAX_CHUNK_ITEMS;
  using ed25519::cuda::MIN_CHUNK_ITEMS;
  EXPECT_EQ(chunk_items_for(1, MIN_CHUNK_ITEMS), 4096u);
  EXPECT_EQ(chunk_items_for(4096, MIN_CHUNK_ITEMS), 4096u);
  EXPECT_EQ(chunk_items_for(8192, MIN_CHUNK_ITEMS), 4096u);
  EXPECT_EQ(chunk_items_for(24576, MIN_CHUNK_ITEMS), 4096u);   // 6 chunks: two rounds of 3
  EXPECT_EQ(chunk_items_for(20000, MIN_CHUNK_ITEMS), 6667u);   // one round of 3
  EXPECT_EQ(chunk_items_for(60000, MIN_CHUNK_ITEMS), 10000u);  // two rounds
  EXPECT_EQ(chunk_items_for(size_t{1} << 20, MIN_CHUNK_ITEMS), MAX_CHUNK_ITEMS);
  EXPECT_EQ(chunk_items_for(4096, 2048), 2048u);
  EXPECT_EQ(chunk_items_for(4096, 1024), 1366u);  // 3 chunks side by side on the 3 streams
  EXPECT_EQ(chunk_items_for(4096, 512), 683u);    // two rounds: the sweep 4096..512 covers 1, 2, 3, 6 chunks
  EXPECT_EQ(chunk_items_for(100, 0), 17u);        // 0 is taken as 1
  EXPECT_EQ(chunk_items_for(7, 1), 2u);
  EXPECT_EQ(chunk_items_for(size_t{1} << 20, size_t{1} << 30), MAX_CHUNK_ITEMS);
  // However chosen, a batch takes at most two rounds of chunks unless the cap binds.
  for (size_t n : {1u, 5u, 999u, 4097u, 12289u, 30000u, 700001u})
    for (size_t m : {1u, 512u, 1024u, 2048u, 4096u}) {
      const size_t c = chunk_items_for(n, m), chunks = (n + c - 1) / c;
      EXPECT_GE(c, std::min(n, m)) << n << " " << m;
      EXPECT_LE(chunks, c == MAX_CHUNK_ITEMS ? n : 6u) << n << " " << m;
    }
}

// The three item sources pack to the same bytes; a malformed item of the C ABI's arrays packs as
// zeros with an empty message; a slice of packed input has its offsets shifted to 0.
TEST(Ed25519ChunkPack, EverySourcePacksTheSameBytes) {
  test::Rng rng(204);
  std::vector<SigCase> cases = test::random_cases(1200, rng);  // above the parallel threshold
  const PackedCases packed(cases);
  const auto items = test::items_of(cases);
  const test::PointerCases ptrs(cases);
  for (const auto& [first, count] : std::vector<std::pair<size_t, size_t>>{{0, 1200}, {0, 1}, {517, 600}, {1199, 1}}) {
    const ed25519::SpanItems span{std::span<const Ed25519Item>(items).subspan(first, count)};
    const auto lay = ed25519::ChunkLayout::of(span);
    auto pack = [&](const auto& src) {
      std::vector<uint8_t> buf(lay.bytes(), 0xEE);
      ed25519::pack_chunk(buf.data(), src, lay);
      return buf;
    };
    const auto want = pack(span);
    EXPECT_EQ(pack(packed.source().slice(first, count)), want) << first;
    EXPECT_EQ(pack(ptrs.source().slice(first, count)), want) << first;
    // The layout itself: item j's key, signature and message where the kernels look.
    for (size_t j = 0; j < count; j += 97) {
      const SigCase& c = cases[first + j];
      EXPECT_EQ(0, std::memcmp(want.data() + lay.pk() + 32 * j, c.pk.data(), 32));
      EXPECT_EQ(0, std::memcmp(want.data() + lay.sig() + 64 * j, c.sig.data(), 64));
      uint64_t off[2];
      std::memcpy(off, want.data() + lay.offsets() + 8 * j, 16);
      ASSERT_EQ(off[1] - off[0], c.msg.size());
      // An empty message's data() may be null, which memcmp must not get even for 0 bytes.
      if (!c.msg.empty()) {
        EXPECT_EQ(0, std::memcmp(want.data() + lay.msgs() + off[0], c.msg.data(), c.msg.size()));
      }
    }
  }
  // Malformed items: a 31-byte key, a 65-byte signature.
  cases[3].pk.pop_back();
  cases[8].sig.push_back(7);
  const test::PointerCases bad(cases);
  const auto src = bad.source().slice(0, 10);
  const auto lay = ed25519::ChunkLayout::of(src);
  std::vector<uint8_t> buf(lay.bytes(), 0xEE);
  ed25519::pack_chunk(buf.data(), src, lay);
  for (size_t j : {3u, 8u}) {
    EXPECT_EQ(std::vector<uint8_t>(buf.begin() + 32 * j, buf.begin() + 32 * j + 32), std::vector<uint8_t>(32, 0));
    EXPECT_EQ(std::vector<uint8_t>(buf.begin() + lay.sig() + 64 * j, buf.begin() + lay.sig() + 64 * j + 64),
              std::vector<uint8_t>(64, 0));
    uint64_t off[2];
    std::memcpy(off, buf.data() + lay.offsets() + 8 * j, 16);
    EXPECT_EQ(off[0], off[1]) << "item " << j << "'s message is not copied";
  }
  EXPECT_EQ(0, std::memcmp(buf.data() + 32 * 4, cases[4].pk.data(), 32));
}

}  // namespace
}  // namespace zkgpu
