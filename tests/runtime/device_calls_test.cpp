// The public device-pointer calls (`*_device`) on a machine without a usable GPU: a bad shape is
// still Error(InvalidArgument), naming the argument, and a well-formed call is Error(Unavailable),
// never a silent CPU run and never a dereference of the pointers. The GPU side is in each
// concept's *_gpu_test.cpp.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "zkgpu/backend.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/msm.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

ErrorCode code_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "the call did not throw";
  return ErrorCode::CudaError;
}

TEST(DeviceCalls, BadShapesAreInvalidArgumentsWithOrWithoutAGpu) {
  // Pointers that are never dereferenced: the shape is checked first.
  auto* p = reinterpret_cast<BabyBear*>(uintptr_t{0x1000});
  const BabyBear one = BabyBear::one();
  EXPECT_EQ(code_of([&] { ntt_device(p, 28, 1, NttDirection::Forward, one, {}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { ntt_device(p, 4, 0, NttDirection::Forward, one, {}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { ntt_device(p, 27, size_t{1} << 40, NttDirection::Inverse, one, {}); }),
            ErrorCode::InvalidArgument);  // overflows the address space
  EXPECT_EQ(code_of([&] { ntt_device(p, 4, 1, NttDirection::Forward, BabyBear::zero(), {}); }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { coset_lde_device(p, 26, 1, 2, one, p, {}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { lde_from_coeffs_device(p, 4, 1, 1, BabyBear::zero(), p, {}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { poseidon2_permute_batch_device(p, 1, 12, Poseidon2Constants::Whir, {}); }),
            ErrorCode::InvalidArgument);
  const auto params = poseidon2_params<16>(Poseidon2Constants::Whir);
  auto* nodes = reinterpret_cast<Digest*>(uintptr_t{0x1000});
  EXPECT_EQ(code_of([&] { merkle_build_device(p, 3, 1, params, nodes, {}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { merkle_build_device(p, 4, 0, params, nodes, {}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { (void)bls12_377::msm_device_resident(nullptr, nullptr, 10, 1, {}); }),
            ErrorCode::InvalidArgument);  // window 1
}

TEST(DeviceCalls, WellFormedCallsWithoutAGpuAreUnavailable) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is usable here (the GPU tests cover these calls)";
  auto* p = reinterpret_cast<BabyBear*>(uintptr_t{0x1000});
  auto* out = reinterpret_cast<BabyBear*>(uintptr_t{0x100000});
  const BabyBear one = BabyBear::one();
  const auto params = poseidon2_params<16>(Poseidon2Constants::Whir);
  std::vector<std::function<void()>> calls = {
      [&] { ntt_device(p, 10, 2, NttDirection::Forward, one, {}); },
      [&] { coset_lde_device(p, 10, 2, 1, one, out, {}); },
      [&] { lde_from_coeffs_device(p, 10, 2, 1, one, out, {}); },
      [&] { poseidon2_permute_batch_device(p, 100, 24, Poseidon2Constants::Plonky3, {}); },
      [&] { merkle_build_device(p, 64, 8, params, reinterpret_cast<Digest*>(out), {}); },
      [&] { (void)bls12_377::msm_device_resident(nullptr, nullptr, 10, 0, {}); },
  };
  for (size_t i = 0; i < calls.size(); ++i) EXPECT_EQ(code_of(calls[i]), ErrorCode::Unavailable) << "call " << i;
}

}  // namespace
}  // namespace zkgpu
