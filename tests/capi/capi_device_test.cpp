// The C ABI's device-pointer variants without a GPU: the host-side checks (enums, names, the
// shift, the output buffer, the shape) are ZKGPU_INVALID_ARGUMENT on any machine, and a
// well-formed call without a usable GPU is ZKGPU_UNAVAILABLE, never a dereference of the
// pointers. capi_gpu_test.cpp runs them on a GPU.
#include <gtest/gtest.h>

#include <cstdint>

#include "capi/capi_test_support.hpp"

namespace zkgpu::test {
namespace {

// Addresses that are never dereferenced: the checks come first.
uint32_t* fake(uintptr_t a) { return reinterpret_cast<uint32_t*>(a); }
const uint32_t ONE = BabyBear::one().v;

TEST(CApiDevice, HostSideChecksWithOrWithoutAGpu) {
  uint32_t* p = fake(0x1000);
  EXPECT_CAPI_ERR(zkgpu_ntt_device(p, 4, 1, (zkgpu_ntt_direction)5, ONE, nullptr), ZKGPU_INVALID_ARGUMENT,
                  "direction 5");
  EXPECT_CAPI_ERR(zkgpu_ntt_device(p, 4, 1, ZKGPU_NTT_FORWARD, 0, nullptr), ZKGPU_INVALID_ARGUMENT, "shift");
  EXPECT_CAPI_ERR(zkgpu_ntt_device(p, 4, 1, ZKGPU_NTT_FORWARD, BabyBear::P, nullptr), ZKGPU_INVALID_ARGUMENT, "shift");
  EXPECT_CAPI_ERR(zkgpu_ntt_device(p, 28, 1, ZKGPU_NTT_FORWARD, ONE, nullptr), ZKGPU_INVALID_ARGUMENT);
  EXPECT_CAPI_ERR(zkgpu_coset_lde_device(p, 26, 1, 2, ONE, fake(0x100000), nullptr), ZKGPU_INVALID_ARGUMENT);
  EXPECT_CAPI_ERR(zkgpu_lde_from_coeffs_device(p, 4, 1, 1, 0, fake(0x100000), nullptr), ZKGPU_INVALID_ARGUMENT,
                  "shift");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute_device(p, 1, 12, "babybear", "whir", nullptr), ZKGPU_INVALID_ARGUMENT,
                  "width 12");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute_device(p, 1, 16, "bn254", "whir", nullptr), ZKGPU_INVALID_ARGUMENT, "bn254");
  EXPECT_CAPI_ERR(zkgpu_merkle_build_device(p, 3, 1, "whir", fake(0x100000), nullptr), ZKGPU_INVALID_ARGUMENT);
  EXPECT_CAPI_ERR(zkgpu_merkle_build_device(p, 4, 1, "\x01", fake(0x100000), nullptr), ZKGPU_INVALID_ARGUMENT, "\\x01");
  uint8_t result[96];
  EXPECT_CAPI_ERR(zkgpu_msm_device(p, p, 10, 0, (zkgpu_g1_encoding)9, nullptr, result), ZKGPU_INVALID_ARGUMENT,
                  "encoding 9");
  EXPECT_CAPI_ERR(zkgpu_msm_device(p, p, 10, 0, ZKGPU_G1_COMPRESSED, nullptr, nullptr), ZKGPU_INVALID_ARGUMENT,
                  "result");
  EXPECT_CAPI_ERR(zkgpu_msm_device(p, p, 10, 1, ZKGPU_G1_COMPRESSED, nullptr, result), ZKGPU_INVALID_ARGUMENT);
}

TEST(CApiDevice, WellFormedCallsWithoutAGpuAreUnavailable) {
  if (zkgpu_cuda_usable()) GTEST_SKIP() << "a GPU is usable here (CApiGpu covers these calls)";
  uint32_t *p = fake(0x1000), *out = fake(0x100000);
  uint8_t result[48];
  EXPECT_CAPI_ERR(zkgpu_ntt_device(p, 10, 2, ZKGPU_NTT_INVERSE, ONE, nullptr), ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_coset_lde_device(p, 10, 2, 1, ONE, out, nullptr), ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_lde_from_coeffs_device(p, 10, 2, 1, ONE, out, nullptr), ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute_device(p, 100, 24, "babybear", "plonky3", nullptr), ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_merkle_build_device(p, 64, 8, "whir", out, nullptr), ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_msm_device(p, out, 10, 0, ZKGPU_G1_COMPRESSED, nullptr, result), ZKGPU_UNAVAILABLE);
}

}  // namespace
}  // namespace zkgpu::test
