// The C ABI's packed Ed25519 batch and its callback-filled twin against the pointer-array call and
// the C++ API, their checks (NULLs, offsets, overlap), the pointer-array call's verdicts when they alias an input, and
// the device variant's host-side checks (with or without a GPU; CApiEd25519Gpu runs it on one).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "capi/capi_ed25519_fill.hpp"
#include "capi/capi_test_support.hpp"
#include "ed25519/ed25519_packed_support.hpp"

namespace zkgpu::test {
namespace {

const zkgpu_ed25519_mode MODES[] = {ZKGPU_ED25519_OPENSSL, ZKGPU_ED25519_STRICT, ZKGPU_ED25519_ZIP215};

std::vector<uint8_t> packed_capi(const PackedCases& p, zkgpu_ed25519_mode m, zkgpu_backend b = ZKGPU_BACKEND_CPU) {
  std::vector<uint8_t> out(p.size(), 0xCD);
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), p.msgs.data(), p.offsets.data(),
                                                   p.size(), m, b, out.data()));
  return out;
}

std::vector<uint8_t> pointer_capi(const PointerCases& p, zkgpu_ed25519_mode m, zkgpu_backend b = ZKGPU_BACKEND_CPU) {
  std::vector<uint8_t> out(p.pks.size(), 0xCD);
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch(p.pks.data(), p.pk_lens.data(), p.sigs.data(), p.sig_lens.data(),
                                            p.msgs.data(), p.msg_lens.data(), p.pks.size(), m, b, out.data()));
  return out;
}

TEST(CApiEd25519Packed, EqualsThePointerArraysAndTheCxxApi) {
  Rng rng(401);
  for (size_t n : {1u, 33u, 500u}) {
    const std::vector<SigCase> cases = random_cases(n, rng);
    const PackedCases packed(cases);
    const PointerCases ptrs(cases);
    for (zkgpu_ed25519_mode m : MODES) {
      const auto want = ed25519_verify_batch(items_of(cases), static_cast<Ed25519Mode>(m), Backend::Cpu);
      EXPECT_EQ(packed_capi(packed, m), want) << n << " mode " << m;
      EXPECT_EQ(packed_capi(packed, m, ZKGPU_BACKEND_AUTO), want) << n << " mode " << m;
      EXPECT_EQ(pointer_capi(ptrs, m), want) << n << " mode " << m;
    }
  }
}

// 3000 items are filled in pieces on several threads (ed25519::FILL_PIECE_ITEMS).
TEST(CApiEd25519Packed, FilledBatchEqualsTheCxxApi) {
  Rng rng(404);
  for (size_t n : {1u, 33u, 500u, 3000u}) {
    const std::vector<SigCase> cases = random_cases(n, rng);
    const PackedCases packed(cases);
    for (zkgpu_ed25519_mode m : MODES) {
      const auto want = ed25519_verify_batch(items_of(cases), static_cast<Ed25519Mode>(m), Backend::Cpu);
      FillSource src{&packed, {}};
      EXPECT_EQ(fill_capi(packed, m, ZKGPU_BACKEND_CPU, &src), want) << n << " mode " << m;
      EXPECT_TRUE(src.covered_once(n)) << n;
      EXPECT_EQ(fill_capi(packed, m, ZKGPU_BACKEND_AUTO), want) << n << " mode " << m;
    }
  }
}

TEST(CApiEd25519Packed, FilledBatchChecks) {
  Rng rng(405);
  const PackedCases p(random_cases(4, rng));
  std::vector<uint8_t> v(4, 9);
  const auto mode = ZKGPU_ED25519_OPENSSL;
  const auto cpu = ZKGPU_BACKEND_CPU;
  FillSource src{&p, {}};
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_fill(nullptr, 0, nullptr, nullptr, mode, cpu, nullptr));
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(p.offsets.data(), 4, nullptr, &src, mode, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "fill is NULL");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(nullptr, 4, &FillSource::fill, &src, mode, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "message_offsets");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(p.offsets.data(), 4, &FillSource::fill, &src, mode, cpu, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "verdicts");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(p.offsets.data(), 4, &FillSource::fill, &src, (zkgpu_ed25519_mode)5,
                                                  cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "mode 5");
  std::vector<uint64_t> off = p.offsets;
  off[0] = 2;
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(off.data(), 4, &FillSource::fill, &src, mode, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "message_offsets[0] = 2");
  off = p.offsets;
  off[1] = off[2] + 1;
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(off.data(), 4, &FillSource::fill, &src, mode, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "message_offsets[2]");
  off = p.offsets;
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(off.data(), 4, &FillSource::fill, &src, mode, cpu,
                                                  reinterpret_cast<uint8_t*>(off.data()) + 3),
                  ZKGPU_INVALID_ARGUMENT, "overlap message_offsets");
  // Every refusal comes before the callback or a verdict.
  EXPECT_TRUE(src.asked.empty());
  EXPECT_EQ(v, std::vector<uint8_t>(4, 9));
  if (!zkgpu_cuda_usable()) {
    EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_fill(p.offsets.data(), 4, &FillSource::fill, &src, mode,
                                                    ZKGPU_BACKEND_CUDA, v.data()),
                    ZKGPU_UNAVAILABLE);
  }
}

TEST(CApiEd25519Packed, NullsOffsetsAndOverlap) {
  Rng rng(402);
  PackedCases p(random_cases(4, rng));
  std::vector<uint8_t> v(4, 9);
  const auto mode = ZKGPU_ED25519_OPENSSL;
  const auto cpu = ZKGPU_BACKEND_CPU;
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_packed(nullptr, nullptr, nullptr, nullptr, 0, mode, cpu, nullptr));
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(nullptr, p.sigs.data(), p.msgs.data(), p.offsets.data(), 4, mode,
                                                    cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "public_keys");
  EXPECT_CAPI_ERR(
      zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), p.msgs.data(), nullptr, 4, mode, cpu, v.data()),
      ZKGPU_INVALID_ARGUMENT, "message_offsets");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), nullptr, p.offsets.data(), 4, mode,
                                                    cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "messages");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), p.msgs.data(), p.offsets.data(), 4,
                                                    (zkgpu_ed25519_mode)3, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "mode 3");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), p.msgs.data(), p.offsets.data(),
                                                    SIZE_MAX / 8, mode, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "overflows");
  // Offsets: a nonzero first one, a decrease.
  PackedCases bad = p;
  bad.offsets[0] = 1;
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(bad.keys.data(), bad.sigs.data(), bad.msgs.data(),
                                                    bad.offsets.data(), 4, mode, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "message_offsets[0] = 1");
  bad = p;
  bad.offsets[2] = bad.offsets[3] + 1;
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(bad.keys.data(), bad.sigs.data(), bad.msgs.data(),
                                                    bad.offsets.data(), 4, mode, cpu, v.data()),
                  ZKGPU_INVALID_ARGUMENT, "message_offsets[3]");
  // Verdicts inside an input: refused before anything is written.
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), p.msgs.data(), p.offsets.data(), 4,
                                                    mode, cpu, p.sigs.data() + 60),
                  ZKGPU_INVALID_ARGUMENT, "overlap signatures");
  EXPECT_EQ(v, std::vector<uint8_t>(4, 9));
  EXPECT_EQ(p.sigs, PackedCases(p).sigs);
  if (!zkgpu_cuda_usable()) {
    EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_packed(p.keys.data(), p.sigs.data(), p.msgs.data(), p.offsets.data(), 4,
                                                      mode, ZKGPU_BACKEND_CUDA, v.data()),
                    ZKGPU_UNAVAILABLE);
  }
}

// The pointer-array call has always accepted verdicts that alias an input: computed into a
// vector then, and the verdicts are still every item's own.
TEST(CApiEd25519Packed, PointerArrayVerdictsMayAliasAnInput) {
  Rng rng(403);
  std::vector<SigCase> cases = random_cases(40, rng);
  // Item 0's message is the verdict buffer itself (its content is the message when the call reads it).
  cases[0].msg.assign(40, 0x11);
  const auto want = [&] {
    std::vector<uint8_t> w;
    for (const SigCase& c : cases) w.push_back(ed25519_verify(c.pk, c.sig, c.msg) ? 1 : 0);
    return w;
  }();
  PointerCases ptrs(cases);
  uint8_t* verdicts = cases[0].msg.data();
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch(ptrs.pks.data(), ptrs.pk_lens.data(), ptrs.sigs.data(),
                                            ptrs.sig_lens.data(), ptrs.msgs.data(), ptrs.msg_lens.data(), 40,
                                            ZKGPU_ED25519_OPENSSL, ZKGPU_BACKEND_AUTO, verdicts));
  EXPECT_EQ(std::vector<uint8_t>(verdicts, verdicts + 40), want);
}

// Host-side checks of the device variant, with or without a GPU, before any pointer is used.
TEST(CApiEd25519Packed, DeviceVariantHostSideChecks) {
  const auto* p = reinterpret_cast<const uint8_t*>(uintptr_t{0x10000});
  const auto* off = reinterpret_cast<const uint64_t*>(uintptr_t{0x40000});
  auto* v = reinterpret_cast<uint8_t*>(uintptr_t{0x80000});
  EXPECT_CAPI_OK(zkgpu_ed25519_verify_batch_device(nullptr, nullptr, nullptr, 0, nullptr, 0, ZKGPU_ED25519_OPENSSL,
                                                   nullptr, nullptr));
  EXPECT_CAPI_ERR(
      zkgpu_ed25519_verify_batch_device(p, p + 0x1000, p + 0x2000, 10, off, 2, (zkgpu_ed25519_mode)7, v, nullptr),
      ZKGPU_INVALID_ARGUMENT, "mode 7");
  EXPECT_CAPI_ERR(
      zkgpu_ed25519_verify_batch_device(p, p + 0x1000, nullptr, 10, off, 2, ZKGPU_ED25519_OPENSSL, v, nullptr),
      ZKGPU_INVALID_ARGUMENT, "messages");
  EXPECT_CAPI_ERR(
      zkgpu_ed25519_verify_batch_device(p, p + 0x1000, p + 0x2000, 10, off, 2, ZKGPU_ED25519_OPENSSL, nullptr, nullptr),
      ZKGPU_INVALID_ARGUMENT, "verdicts");
  EXPECT_CAPI_ERR(zkgpu_ed25519_verify_batch_device(p, p + 0x1000, p + 0x2000, 10, off, 2, ZKGPU_ED25519_OPENSSL,
                                                    const_cast<uint8_t*>(p) + 0x1001, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "overlap signatures");
  if (zkgpu_cuda_usable()) return;
  EXPECT_CAPI_ERR(
      zkgpu_ed25519_verify_batch_device(p, p + 0x1000, p + 0x2000, 10, off, 2, ZKGPU_ED25519_OPENSSL, v, nullptr),
      ZKGPU_UNAVAILABLE);
}

}  // namespace
}  // namespace zkgpu::test
