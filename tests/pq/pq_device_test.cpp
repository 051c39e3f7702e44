// The ML-KEM / ML-DSA device-pointer calls on any machine: a bad shape or option is
// Error(InvalidArgument) before the GPU is asked for (naming the argument), and a well-formed call
// without a usable GPU is Error(Unavailable), never a CPU run and never a dereference of the
// pointers. pq_device_gpu_test.cpp runs them on a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zkgpu/backend.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/mlkem.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

// Addresses that are never dereferenced: every check comes first.
template <class T = uint8_t>
T* fake(uintptr_t a) {
  return reinterpret_cast<T*>(a);
}

// The error of call(), which must throw, and its message.
std::pair<ErrorCode, std::string> error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  ADD_FAILURE() << "the call did not throw";
  return {ErrorCode::CudaError, ""};
}

void expect_invalid(const std::function<void()>& call, const std::string& needle) {
  const auto [code, msg] = error_of(call);
  EXPECT_EQ(code, ErrorCode::InvalidArgument) << msg;
  EXPECT_NE(msg.find(needle), std::string::npos) << "\"" << msg << "\" does not mention \"" << needle << "\"";
}

// A packed ML-DSA batch of n items at fake addresses.
MlDsaPackedMessages fake_messages(size_t n) {
  MlDsaPackedMessages m;
  m.messages = {fake(0x10000), 100};
  m.message_offsets = {fake<const uint64_t>(0x20000), n + 1};
  return m;
}

TEST(PqDeviceCalls, BadShapesAndOptionsAreInvalidArgumentsWithOrWithoutAGpu) {
  const PqBatchOptions cpu{.backend = Backend::Cpu};
  auto* st = fake<PqStatus>(0x5000);
  expect_invalid(
      [&] { mlkem_keygen_batch_device(MlKemSet::MlKem768, fake(0x1000), fake(0x2000), fake(0x3000), 4, {}, cpu); },
      "Cpu");
  expect_invalid(
      [&] {
        mlkem_decaps_batch_device(MlKemSet::MlKem512, fake(0x1000), fake(0x2000), fake(0x3000), st, SIZE_MAX / 16, {});
      },
      "overflow");
  expect_invalid(
      [&] {
        mlkem_encaps_batch_device(MlKemSet::MlKem1024, fake(0x1000), fake(0x2000), fake(0x3000), fake(0x4000), st,
                                  SIZE_MAX / 100, {});
      },
      "overflow");
  expect_invalid(
      [&] { mldsa_keygen_batch_device(MlDsaSet::MlDsa44, fake(0x1000), fake(0x2000), fake(0x3000), 2, {}, cpu); },
      "Cpu");
  const MlDsaSizes sz = mldsa_sizes(MlDsaSet::MlDsa65);
  MlDsaPackedVerifyBatch v{{fake(0x1000), 3 * sz.pk}, {fake(0x4000), 3 * sz.sig}, fake_messages(3)};
  auto verify = [&] { mldsa_verify_batch_device(MlDsaSet::MlDsa65, v, fake(0x9000), {}); };
  v.public_keys = {fake(0x1000), 3 * sz.pk - 1};
  expect_invalid(verify, "public_keys");
  v.public_keys = {fake(0x1000), 3 * sz.pk};
  v.signatures = {fake(0x4000), 2 * sz.sig};
  expect_invalid(verify, "signatures");
  v.signatures = {fake(0x4000), 3 * sz.sig};
  v.messages.message_offsets = {fake<const uint64_t>(0x20000), 3};
  expect_invalid(verify, "message_offsets");
  v.messages.message_offsets = {fake<const uint64_t>(0x20000), 4};
  v.messages.contexts = {fake(0x30000), 10};
  expect_invalid(verify, "context_offsets");
  v.messages.context_offsets = {fake<const uint64_t>(0x40000), 5};
  expect_invalid(verify, "context_offsets");
  MlDsaPackedSignBatch s{{fake(0x1000), 2 * sz.sk}, {fake(0x7000), 33}, fake_messages(2)};
  expect_invalid([&] { mldsa_sign_batch_device(MlDsaSet::MlDsa65, s, fake(0x8000), st, {}); }, "rnds");
  s.rnds = {};
  s.secret_keys = {fake(0x1000), 2 * sz.sk + 5};
  expect_invalid([&] { mldsa_sign_batch_device(MlDsaSet::MlDsa65, s, fake(0x8000), st, {}); }, "secret_keys");
  s.secret_keys = {fake(0x1000), 2 * sz.sk};
  expect_invalid([&] { mldsa_sign_batch_device(MlDsaSet::MlDsa65, s, fake(0x8000), st, {}, cpu); }, "Cpu");
}

TEST(PqDeviceCalls, WellFormedCallsWithoutAGpuAreUnavailable) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is usable here (MlKemDeviceGpu and MlDsaDeviceGpu cover these calls)";
  auto* st = fake<PqStatus>(0x5000);
  const MlDsaSizes sz = mldsa_sizes(MlDsaSet::MlDsa87);
  MlDsaPackedVerifyBatch v{{fake(0x1000), 3 * sz.pk}, {fake(0x4000), 3 * sz.sig}, fake_messages(3)};
  MlDsaPackedSignBatch s{{fake(0x1000), 3 * sz.sk}, {}, fake_messages(3)};
  std::vector<std::function<void()>> calls = {
      [&] { mlkem_keygen_batch_device(MlKemSet::MlKem768, fake(0x1000), fake(0x2000), fake(0x3000), 4, {}); },
      [&] {
        mlkem_encaps_batch_device(MlKemSet::MlKem512, fake(0x1000), fake(0x2000), fake(0x3000), fake(0x4000), st, 5,
                                  {});
      },
      [&] {
        mlkem_encaps_random_batch_device(MlKemSet::MlKem512, fake(0x1000), fake(0x3000), fake(0x4000), st, 5, {});
      },
      [&] { mlkem_decaps_batch_device(MlKemSet::MlKem1024, fake(0x1000), fake(0x2000), fake(0x3000), st, 6, {}); },
      [&] { mldsa_keygen_batch_device(MlDsaSet::MlDsa87, fake(0x1000), fake(0x2000), fake(0x3000), 2, {}); },
      [&] { mldsa_sign_batch_device(MlDsaSet::MlDsa87, s, fake(0x8000), st, {}); },
      [&] { mldsa_verify_batch_device(MlDsaSet::MlDsa87, v, fake(0x9000), {}); },
      // n = 0 needs the GPU too, as every device call does.
      [&] { mlkem_decaps_batch_device(MlKemSet::MlKem768, nullptr, nullptr, nullptr, nullptr, 0, {}); },
  };
  for (size_t i = 0; i < calls.size(); ++i) EXPECT_EQ(error_of(calls[i]).first, ErrorCode::Unavailable) << "call " << i;
}

}  // namespace
}  // namespace zkgpu
