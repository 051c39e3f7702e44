// The C ABI's Ed25519 calls on a GPU: the device variant on the caller's non-blocking stream gives
// the CPU's verdicts (device verdicts poisoned first, inputs unchanged), a host pointer is
// ZKGPU_INVALID_ARGUMENT, and the packed and pointer-array calls on ZKGPU_BACKEND_CUDA give the
// CPU's bytes. Every test skips without a usable GPU.
#include <gtest/gtest.h>

#include <vector>

#include "capi/capi_ed25519_fill.hpp"
#include "capi/capi_test_support.hpp"
#include "ed25519/ed25519_packed_support.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/runtime.cuh"
#endif

namespace zkgpu::test {
namespace {

#if ZKGPU_HAVE_CUDA
template <class T>
cuda::DeviceBuffer<T> to_device(const std::vector<T>& v, const cuda::Stream& s) {
  cuda::DeviceBuffer<T> d(v.size());
  if (!v.empty()) d.upload(v.data(), v.size(), s);  // a batch of empty messages has none
  return d;
}
#endif

TEST(CApiEd25519Gpu, DeviceVariantEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
#if ZKGPU_HAVE_CUDA
  Rng rng(501);
  const cuda::Stream s;
  for (size_t n : {size_t{1}, size_t{64}, size_t{1000}, size_t{5000}}) {
    const std::vector<SigCase> cases = random_cases(n, rng);
    const PackedCases p(cases);
    auto keys = to_device(p.keys, s), sigs = to_device(p.sigs, s), msgs = to_device(p.msgs, s);
    auto offs = to_device(p.offsets, s);
    cuda::DeviceBuffer<uint8_t> v(n);
    for (zkgpu_ed25519_mode m : {ZKGPU_ED25519_OPENSSL, ZKGPU_ED25519_STRICT, ZKGPU_ED25519_ZIP215}) {
      ZKGPU_CUDA_CHECK(cudaMemsetAsync(v.data(), 0xAB, n, s));
      EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_device(keys.data(), sigs.data(), msgs.data(), p.msgs.size(),
                                                       offs.data(), n, m, v.data(), s.get()));
      std::vector<uint8_t> got(n);
      v.download(got.data(), n, s);
      s.sync();
      const auto cpu = ed25519_verify_batch(items_of(cases), static_cast<Ed25519Mode>(m), Backend::Cpu);
      EXPECT_EQ(got, cpu) << "n " << n << " mode " << m;
      std::vector<uint8_t> host(n, 0xCD);
      EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), p.msgs.data(), p.offsets.data(), n,
                                                       m, ZKGPU_BACKEND_CUDA, host.data()));
      EXPECT_EQ(host, cpu) << "packed, n " << n << " mode " << m;
    }
    std::vector<uint8_t> back(p.msgs.size());
    if (!back.empty()) msgs.download(back.data(), back.size(), s);
    s.sync();
    EXPECT_EQ(back, p.msgs);
    // Host memory where device memory is needed, before anything is enqueued.
    EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_device(p.keys.data(), sigs.data(), msgs.data(), p.msgs.size(),
                                                      offs.data(), n, ZKGPU_ED25519_OPENSSL, v.data(), s.get()),
                    ZKGPU_INVALID_ARGUMENT, "public_keys");
    std::vector<uint8_t> host_v(n);
    EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_device(keys.data(), sigs.data(), msgs.data(), p.msgs.size(), offs.data(),
                                                      n, ZKGPU_ED25519_OPENSSL, host_v.data(), s.get()),
                    ZKGPU_INVALID_ARGUMENT, "verdicts");
  }
#endif
}

// The callback-filled batch on the GPU, from one chunk to several (20000 items are three): the
// CPU's verdicts in poisoned output, each item asked for once.
TEST(CApiEd25519Gpu, FilledBatchEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(503);
  for (size_t n : {size_t{1}, size_t{64}, size_t{1000}, size_t{5000}, size_t{20000}}) {
    const std::vector<SigCase> cases = random_cases(n, rng);
    const PackedCases p(cases);
    for (zkgpu_ed25519_mode m : {ZKGPU_ED25519_OPENSSL, ZKGPU_ED25519_STRICT, ZKGPU_ED25519_ZIP215}) {
      const auto cpu = ed25519_verify_batch(items_of(cases), static_cast<Ed25519Mode>(m), Backend::Cpu);
      FillSource src{&p, {}};
      EXPECT_EQ(fill_capi(p, m, ZKGPU_BACKEND_CUDA, &src), cpu) << "n " << n << " mode " << m;
      EXPECT_TRUE(src.covered_once(n)) << "n " << n << ": " << src.asked.size() << " callbacks";
    }
  }
}

// Offsets that decrease in a late chunk: the call fails naming the entry, the callback is never
// asked for the chunk that holds it, and the next call is unaffected.
TEST(CApiEd25519Gpu, FilledBatchWithBadOffsetsInALateChunk) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(504);
  const std::vector<SigCase> cases = random_cases(20000, rng);
  PackedCases bad(cases);
  bad.offsets[15001] = bad.offsets[15002] + 1;
  FillSource src{&bad, {}};
  std::vector<uint8_t> out(cases.size(), 0xCD);
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(bad.offsets.data(), cases.size(), &FillSource::fill, &src,
                                                  ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CUDA, out.data()),
                  ZKGPU_INVALID_ARGUMENT, "message_offsets[15002]");
  for (const auto& [first, count] : src.asked) EXPECT_LE(first + count, size_t{15001}) << first << "+" << count;
  const PackedCases good(cases);
  EXPECT_EQ(fill_capi(good, ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_CUDA),
            ed25519_verify_batch(items_of(cases), Ed25519Mode::Openssl, Backend::Cpu));
}

TEST(CApiEd25519Gpu, PointerArraysWithWrongLengthsOnCuda) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(502);
  std::vector<SigCase> cases = random_cases(3000, rng);
  std::vector<uint8_t> want;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (i % 97 == 5) cases[i].sig.resize(i % 2 ? 63 : 0);
    want.push_back(ed25519_verify(cases[i].pk, cases[i].sig, cases[i].msg, Ed25519Mode::Zip215) ? 1 : 0);
  }
  const PointerCases p(cases);
  std::vector<uint8_t> out(cases.size(), 0xCD);
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch(p.pks.data(), p.pk_lens.data(), p.sigs.data(), p.sig_lens.data(),
                                            p.msgs.data(), p.msg_lens.data(), cases.size(), ZKGPU_ED25519_ZIP215,
                                            ZKGPU_BACKEND_CUDA, out.data()));
  EXPECT_EQ(out, want);
}

}  // namespace
}  // namespace zkgpu::test
