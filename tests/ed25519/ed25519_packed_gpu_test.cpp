// The packed batch and the device-pointer call on the GPU against the CPU backend, byte for byte:
// random and mutated items at sizes around the chunk boundaries, poisoned verdict buffers (host
// 0xCD, device 0xAB: every verdict must be written), inputs left unchanged, bad offsets rejected
// item by item on the device, host pointers and overlap refused, every item source through the
// backend, and small min_chunk_items giving the same verdicts. Needs a GPU; skips without one.
#include <cstdint>
#include <vector>

#include "ed25519/ed25519_packed_support.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "ed25519/cuda/backend.hpp"
#include "runtime/cuda/runtime.cuh"
#endif

namespace zkgpu {
namespace {

#if ZKGPU_HAVE_CUDA
using test::PackedCases;
using test::SigCase;

constexpr Ed25519Mode ALL_MODES[] = {Ed25519Mode::Openssl, Ed25519Mode::Strict, Ed25519Mode::Zip215};

std::vector<size_t> sizes() { return test::sized<size_t>({1, 3, 64, 1000, 4096, 5000}, {1, 3, 64, 1000, 4097}); }

template <class T>
cuda::DeviceBuffer<T> on_device(const std::vector<T>& v, const cuda::Stream& s) {
  cuda::DeviceBuffer<T> d(v.size());
  if (!v.empty()) d.upload(v.data(), v.size(), s);
  return d;
}

template <class T>
std::vector<T> to_host(const cuda::DeviceBuffer<T>& d, const cuda::Stream& s) {
  std::vector<T> v(d.size());
  if (!v.empty()) d.download(v.data(), v.size(), s);
  s.sync();
  return v;
}

// A packed batch copied to the device, and the verdict buffer poisoned with 0xAB.
struct DeviceCases {
  cuda::DeviceBuffer<uint8_t> keys, sigs, msgs, verdicts;
  cuda::DeviceBuffer<uint64_t> offsets;
  DeviceCases(const PackedCases& p, const cuda::Stream& s)
      : keys(on_device(p.keys, s)),
        sigs(on_device(p.sigs, s)),
        msgs(on_device(p.msgs, s)),
        verdicts(p.size()),
        offsets(on_device(p.offsets, s)) {
    ZKGPU_CUDA_CHECK(cudaMemsetAsync(verdicts.data(), 0xAB, p.size(), s));
  }
  Ed25519PackedBatch batch() const {
    return {{keys.data(), keys.size()},
            {sigs.data(), sigs.size()},
            {msgs.data(), msgs.size()},
            {offsets.data(), offsets.size()}};
  }
};

std::vector<uint8_t> device_verdicts(const PackedCases& p, Ed25519Mode m, const cuda::Stream& s) {
  DeviceCases d(p, s);
  ed25519_verify_batch_device(d.batch(), d.verdicts.data(), m, GpuStream{s.get()});
  const auto got = to_host(d.verdicts, s);
  // The inputs are read, never written.
  EXPECT_EQ(to_host(d.keys, s), p.keys);
  EXPECT_EQ(to_host(d.msgs, s), p.msgs);
  EXPECT_EQ(to_host(d.offsets, s), p.offsets);
  return got;
}
#endif

TEST(Ed25519PackedGpu, HostPackedAndDeviceCallsEqualCpu) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  test::Rng rng(301);
  const cuda::Stream stream;  // non-blocking: nothing may rely on the legacy stream's ordering
  for (size_t n : sizes()) {
    const std::vector<SigCase> cases = test::random_cases(n, rng);
    const PackedCases packed(cases);
    for (Ed25519Mode m : ALL_MODES) {
      const auto cpu = ed25519_verify_batch(test::items_of(cases), m, Backend::Cpu);
      std::vector<uint8_t> host(n, 0xCD);
      ed25519_verify_batch(packed.batch(), host, m, {.backend = Backend::Cuda});
      EXPECT_EQ(host, cpu) << "packed, n " << n << " " << to_string(m);
      EXPECT_EQ(device_verdicts(packed, m, stream), cpu) << "device, n " << n << " " << to_string(m);
    }
  }
#endif
}

TEST(Ed25519PackedGpu, LabelledEdgeCasesOnTheDevice) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  const auto j = test::load_vectors("ed25519/edge_cases_labelled_by_semantics.json");
  std::vector<SigCase> cases;
  for (const auto& v : j) {
    SigCase c{test::unhex(v["pk"]), test::unhex(v["sig"]), test::unhex(v["msg"]), ""};
    if (c.pk.size() == 32 && c.sig.size() == 64) cases.push_back(std::move(c));
  }
  const PackedCases packed(cases);
  const cuda::Stream stream;
  for (Ed25519Mode m : ALL_MODES)
    EXPECT_EQ(device_verdicts(packed, m, stream), ed25519_verify_batch(test::items_of(cases), m, Backend::Cpu))
        << to_string(m);
#endif
}

// Offsets the host cannot check: an item whose range runs backwards or past the messages gets 0,
// every other item its own verdict.
TEST(Ed25519PackedGpu, BadDeviceOffsetsRejectTheirItemsOnly) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  test::Signer signer(302);
  std::vector<SigCase> cases;
  for (int i = 0; i < 40; ++i) cases.push_back(signer.sign(20 + i));
  PackedCases packed(cases);
  const cuda::Stream stream;
  auto want = ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Backend::Cpu);
  ASSERT_EQ(want, std::vector<uint8_t>(40, 1));
  // Item 5 backwards (its end below its start), item 20 past the end of the messages.
  std::swap(packed.offsets[5], packed.offsets[6]);
  packed.offsets[21] = packed.msgs.size() + 1;
  // Items 4 and 6 now read other ranges (ordered, inside): invalid by content, not by the check;
  // item 21 starts past the end too.
  for (size_t i : {4u, 5u, 6u, 20u, 21u}) want[i] = 0;
  EXPECT_EQ(device_verdicts(packed, Ed25519Mode::Openssl, stream), want);
#endif
}

TEST(Ed25519PackedGpu, HostPointersAndOverlapAreRefused) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  test::Rng rng(303);
  const PackedCases packed(test::random_cases(16, rng));
  const cuda::Stream stream;
  DeviceCases d(packed, stream);
  auto code_of = [&](const Ed25519PackedBatch& b, uint8_t* v) {
    try {
      ed25519_verify_batch_device(b, v, Ed25519Mode::Openssl, GpuStream{stream.get()});
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::OutOfMemory;  // no error: not what is expected
  };
  std::vector<uint8_t> host_verdicts(16);
  EXPECT_EQ(code_of(d.batch(), host_verdicts.data()), ErrorCode::InvalidArgument);
  Ed25519PackedBatch b = d.batch();
  b.public_keys = packed.keys;  // host memory
  EXPECT_EQ(code_of(b, d.verdicts.data()), ErrorCode::InvalidArgument);
  b = d.batch();
  b.message_offsets = packed.offsets;
  EXPECT_EQ(code_of(b, d.verdicts.data()), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of(d.batch(), d.msgs.data() + 3), ErrorCode::InvalidArgument);  // verdicts inside the messages
  // Nothing was enqueued by a refused call: the verdicts are still the poison, and the context works.
  EXPECT_EQ(to_host(d.verdicts, stream), std::vector<uint8_t>(16, 0xAB));
  ed25519_verify_batch_device(d.batch(), d.verdicts.data(), Ed25519Mode::Openssl, GpuStream{stream.get()});
  std::vector<uint8_t> cpu(16);
  ed25519_verify_batch(packed.batch(), cpu, Ed25519Mode::Openssl, {.backend = Backend::Cpu});
  EXPECT_EQ(to_host(d.verdicts, stream), cpu);
#endif
}

// Every item source through the CUDA backend, with chunk minimums down to 1 (many chunks, slot
// reuse) and both kernels, the device result buffer poisoned: the CPU's verdicts. The pointer
// arrays carry wrong-length items, which must come out 0 whatever the kernel made of their zeros.
TEST(Ed25519PackedGpu, EverySourceAndSmallChunksGiveTheSameVerdicts) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  test::Rng rng(304);
  std::vector<SigCase> cases = test::random_cases(test::sized<size_t>(5000, 3000), rng);
  for (size_t i = 7; i < cases.size(); i += 101) (i % 2 ? cases[i].pk : cases[i].sig).push_back(0);
  std::vector<uint8_t> want(cases.size());
  const test::PointerCases ptrs(cases);
  for (Ed25519Mode m : ALL_MODES) {
    for (size_t i = 0; i < cases.size(); ++i)
      want[i] = ed25519_verify(cases[i].pk, cases[i].sig, cases[i].msg, m) ? 1 : 0;
    std::vector<SigCase> good;
    std::vector<uint8_t> good_want;
    for (size_t i = 0; i < cases.size(); ++i)
      if (cases[i].pk.size() == 32 && cases[i].sig.size() == 64) {
        good.push_back(cases[i]);
        good_want.push_back(want[i]);
      }
    const PackedCases packed(good);
    const auto items = test::items_of(good);
    for (size_t min_chunk : {size_t{4096}, size_t{1024}, size_t{512}, size_t{1}}) {
      for (size_t coop : {size_t{0}, ed25519::cuda::COOP_MAX_ITEMS}) {
        const ed25519::cuda::VerifyOptions o{.coop_max = coop, .min_chunk_items = min_chunk, .result_poison = true};
        auto run = [&](const ed25519::ItemSource& src, size_t n) {
          std::vector<uint8_t> out(n, 0xCD);
          ed25519::cuda::verify_items(src, out, static_cast<ed25519::VerifyMode>(m), o);
          return out;
        };
        const std::string what =
            std::string(to_string(m)) + " min_chunk " + std::to_string(min_chunk) + " coop_max " + std::to_string(coop);
        EXPECT_EQ(run(ptrs.source(), cases.size()), want) << "pointer arrays, " << what;
        EXPECT_EQ(run(packed.source(), good.size()), good_want) << "packed, " << what;
        EXPECT_EQ(run(std::span<const Ed25519Item>(items), good.size()), good_want) << "items, " << what;
      }
    }
  }
#endif
}

// Packed chunks are cut by message bytes too: a small byte budget splits the batch by bytes, and
// a message larger than the budget gets a chunk of its own.
TEST(Ed25519PackedGpu, PackedChunksCutByMessageBytes) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  test::Signer signer(305);
  std::vector<SigCase> cases;
  for (int i = 0; i < 300; ++i) cases.push_back(signer.sign(i == 150 ? (64 << 10) + 1 : 700));
  cases[151].msg[3] ^= 1;
  const PackedCases packed(cases);
  std::vector<uint8_t> out(cases.size(), 0xCD);
  ed25519::cuda::verify_items(packed.source(), out, ed25519::VerifyMode::Openssl,
                              {.max_chunk_msg_bytes = size_t{64} << 10, .result_poison = true});
  EXPECT_EQ(out, ed25519_verify_batch(test::items_of(cases), Ed25519Mode::Openssl, Backend::Cpu));
  EXPECT_EQ(out[151], 0);
  EXPECT_EQ(out[150], 1);
#endif
}

}  // namespace
}  // namespace zkgpu
