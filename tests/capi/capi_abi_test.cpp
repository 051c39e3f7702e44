// The C ABI's rules that hold across capabilities (include/zkgpu.h, docs/c-api.md): the status
// names, the version, the last error cleared by every call, ZKGPU_UNAVAILABLE for a CUDA backend
// that is not there, and the fixed declarations' values.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "zkgpu/bls12_377.hpp"
#include "zkgpu/version.hpp"

namespace zkgpu::test {
namespace {

TEST(CApiAbi, VersionAndStatusNames) {
  EXPECT_STREQ(zkgpu_version(), zkgpu::version());
  const std::pair<zkgpu_status, const char*> names[] = {{ZKGPU_OK, "ZKGPU_OK"},
                                                        {ZKGPU_INVALID_ARGUMENT, "ZKGPU_INVALID_ARGUMENT"},
                                                        {ZKGPU_OUT_OF_MEMORY, "ZKGPU_OUT_OF_MEMORY"},
                                                        {ZKGPU_UNAVAILABLE, "ZKGPU_UNAVAILABLE"},
                                                        {ZKGPU_CUDA_ERROR, "ZKGPU_CUDA_ERROR"},
                                                        {ZKGPU_INTERNAL, "ZKGPU_INTERNAL"}};
  for (const auto& [s, name] : names) EXPECT_STREQ(zkgpu_status_name(s), name);
  EXPECT_STREQ(zkgpu_status_name((zkgpu_status)42), "unknown zkgpu_status");
  EXPECT_EQ(zkgpu_cuda_usable() == 1, cuda_usable());
}

TEST(CApiAbi, EveryCallClearsTheLastError) {
  uint32_t s[16] = {};
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s, 1, 16, "babybear", "nope", ZKGPU_BACKEND_CPU), ZKGPU_INVALID_ARGUMENT,
                  "nope");
  // Reading the message does not clear it; the next call that returns a status does.
  EXPECT_NE(std::string(zkgpu_last_error()).find("nope"), std::string::npos);
  EXPECT_NE(std::string(zkgpu_last_error()).find("nope"), std::string::npos);
  zkgpu_mlkem_sizes sz;
  EXPECT_CAPI_OK(zkgpu_mlkem_sizes_of(ZKGPU_MLKEM_768, &sz));
  EXPECT_STREQ(zkgpu_last_error(), "");
  EXPECT_CAPI_OK(zkgpu_release_gpu_caches());
}

// Asking for the CUDA backend without a usable GPU is ZKGPU_UNAVAILABLE with the reason, never a
// silent CPU run, for each capability (skipped where a GPU answers: the GPU suites cover that).
TEST(CApiAbi, CudaWithoutAGpuIsUnavailable) {
  if (zkgpu_cuda_usable()) GTEST_SKIP() << "a GPU is usable";
  const auto CUDA = ZKGPU_BACKEND_CUDA;
  std::vector<uint32_t> m(64 * 16, 1), out(256 * 16);
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 6, 16, ZKGPU_NTT_FORWARD, 1, ZKGPU_BABYBEAR_CANONICAL, CUDA), ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_lde_from_coeffs(m.data(), 6, 16, 2, 1, ZKGPU_BABYBEAR_CANONICAL, CUDA, out.data()),
                  ZKGPU_UNAVAILABLE);
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(m.data(), 64, 16, "babybear", "whir", CUDA), ZKGPU_UNAVAILABLE);
  zkgpu_merkle_tree* tree = nullptr;
  EXPECT_CAPI_ERR(zkgpu_merkle_build(m.data(), 64, 16, "whir", ZKGPU_BABYBEAR_CANONICAL, CUDA, &tree),
                  ZKGPU_UNAVAILABLE);
  EXPECT_EQ(tree, nullptr);
  std::vector<uint8_t> seeds(64 * 2), ek(2 * 1184), dk(2 * 2400);
  EXPECT_CAPI_ERR(zkgpu_mlkem_keygen_batch(ZKGPU_MLKEM_768, seeds.data(), 2, CUDA, ek.data(), dk.data()),
                  ZKGPU_UNAVAILABLE);
  std::vector<uint8_t> dseeds(32), pk(1312), sk(2560);
  EXPECT_CAPI_ERR(zkgpu_mldsa_keygen_batch(ZKGPU_MLDSA_44, dseeds.data(), 1, CUDA, pk.data(), sk.data()),
                  ZKGPU_UNAVAILABLE);
  const auto g = bls12_377::serialize_compressed(bls12_377::G1Affine::generator());
  uint8_t one[32] = {1}, result[48];
  EXPECT_CAPI_ERR(zkgpu_msm(g.data(), one, 1, ZKGPU_G1_COMPRESSED, CUDA, result), ZKGPU_UNAVAILABLE);
}

}  // namespace
}  // namespace zkgpu::test
