// The C ABI on a GPU: the device-pointer variants on the caller's non-blocking stream give the
// bytes of the host calls (outputs poisoned first, inputs left unchanged), a host pointer is
// ZKGPU_INVALID_ARGUMENT, and ZKGPU_BACKEND_CUDA gives the CPU's results. Every test skips without
// a usable GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "zkgpu/bls12_377.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/runtime.cuh"
#endif

namespace zkgpu::test {
namespace {

#if ZKGPU_HAVE_CUDA

constexpr auto MONT = ZKGPU_BABYBEAR_MONTGOMERY;
constexpr auto CPU = ZKGPU_BACKEND_CPU;

// Words on the device: uploaded from the host, read back after the stream has run.
struct DeviceWords {
  cuda::DeviceBuffer<uint32_t> buf;
  explicit DeviceWords(size_t n) : buf(n) { ZKGPU_CUDA_CHECK(cudaMemset(buf.data(), 0xff, n * 4)); }
  DeviceWords(const std::vector<uint32_t>& w, const cuda::Stream& s) : buf(w.size()) {
    buf.upload(w.data(), w.size(), s);
  }
  std::vector<uint32_t> read(const cuda::Stream& s) const {
    std::vector<uint32_t> out(buf.size());
    buf.download(out.data(), out.size(), s);
    s.sync();
    return out;
  }
};

TEST(CApiGpu, NttAndLdeDeviceCallsEqualTheHostCalls) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(51);
  cuda::Stream s;
  const unsigned log_n = 12, blowup = 2;
  const size_t cols = 3, elems = cols << log_n;
  const std::vector<uint32_t> m = monty_words(random_field(rng, elems));
  const uint32_t shift = BabyBear::from_canonical(31).v;
  for (auto dir : {ZKGPU_NTT_FORWARD, ZKGPU_NTT_INVERSE}) {
    std::vector<uint32_t> want = m;
    EXPECT_CAPI_OK(zkgpu_ntt(want.data(), log_n, cols, dir, shift, MONT, CPU));
    DeviceWords d(m, s);
    EXPECT_CAPI_OK(zkgpu_ntt_device(d.buf.data(), log_n, cols, dir, shift, s.get()));
    EXPECT_EQ(d.read(s), want);
  }
  std::vector<uint32_t> want(elems << blowup);
  EXPECT_CAPI_OK(zkgpu_lde_from_coeffs(m.data(), log_n, cols, blowup, shift, MONT, CPU, want.data()));
  DeviceWords in(m, s), out(elems << blowup);
  EXPECT_CAPI_OK(zkgpu_lde_from_coeffs_device(in.buf.data(), log_n, cols, blowup, shift, out.buf.data(), s.get()));
  EXPECT_EQ(out.read(s), want);
  EXPECT_CAPI_OK(zkgpu_coset_lde(m.data(), log_n, cols, blowup, shift, MONT, CPU, want.data()));
  EXPECT_CAPI_OK(zkgpu_coset_lde_device(in.buf.data(), log_n, cols, blowup, shift, out.buf.data(), s.get()));
  EXPECT_EQ(out.read(s), want);
  EXPECT_EQ(in.read(s), m);  // the input is left unchanged
  std::vector<uint32_t> host(m);
  EXPECT_CAPI_ERR(zkgpu_ntt_device(host.data(), log_n, cols, ZKGPU_NTT_FORWARD, shift, s.get()),
                  ZKGPU_INVALID_ARGUMENT);
  EXPECT_CAPI_ERR(zkgpu_lde_from_coeffs_device(in.buf.data(), log_n, cols, blowup, shift, in.buf.data(), s.get()),
                  ZKGPU_INVALID_ARGUMENT);  // the output overlaps the input
}

TEST(CApiGpu, Poseidon2AndMerkleDeviceCallsEqualTheHostCalls) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(52);
  cuda::Stream s;
  for (size_t width : {size_t{16}, size_t{24}}) {
    const std::vector<uint32_t> states = monty_words(random_field(rng, width * 5000));
    std::vector<uint32_t> want = states;
    EXPECT_CAPI_OK(zkgpu_poseidon2_permute_repr(want.data(), 5000, width, "babybear", "whir", MONT, CPU));
    DeviceWords d(states, s);
    EXPECT_CAPI_OK(zkgpu_poseidon2_permute_device(d.buf.data(), 5000, width, "babybear", "whir", s.get()));
    EXPECT_EQ(d.read(s), want);
  }
  const size_t rows = 1 << 13, cols = 7;
  const std::vector<uint32_t> m = monty_words(random_field(rng, rows * cols));
  zkgpu_merkle_tree* tree = nullptr;
  ASSERT_TRUE(status_is(zkgpu_merkle_build(m.data(), rows, cols, "plonky3", MONT, CPU, &tree), ZKGPU_OK));
  std::vector<uint32_t> want((2 * rows - 1) * 8);
  EXPECT_CAPI_OK(zkgpu_merkle_nodes(tree, want.data(), want.size()));
  zkgpu_merkle_free(tree);
  DeviceWords dm(m, s), nodes(want.size());
  EXPECT_CAPI_OK(zkgpu_merkle_build_device(dm.buf.data(), rows, cols, "plonky3", nodes.buf.data(), s.get()));
  EXPECT_EQ(nodes.read(s), want);
}

TEST(CApiGpu, MsmDeviceCallEqualsTheHostCall) {
  ZKGPU_REQUIRE_GPU();
  // The generator's multiples 1..n as compressed points, and scalars i + 7.
  const size_t n = 3000;
  std::vector<uint8_t> pts(n * 48), scalars(n * 32, 0), want(48), got(48);
  const auto g = bls12_377::serialize_compressed(bls12_377::G1Affine::generator());
  for (size_t i = 0; i < n; ++i) {
    uint8_t k[32] = {};
    k[0] = uint8_t(i + 1), k[1] = uint8_t((i + 1) >> 8);
    EXPECT_CAPI_OK(zkgpu_msm(g.data(), k, 1, ZKGPU_G1_COMPRESSED, CPU, pts.data() + i * 48));
    scalars[i * 32] = uint8_t(i + 7), scalars[i * 32 + 1] = uint8_t((i + 7) >> 8);
  }
  zkgpu_msm_bases* bases = nullptr;
  ASSERT_TRUE(status_is(zkgpu_msm_bases_create(pts.data(), n, ZKGPU_G1_COMPRESSED, &bases), ZKGPU_OK));
  EXPECT_CAPI_OK(zkgpu_msm_with_bases(bases, scalars.data(), n, ZKGPU_G1_COMPRESSED, CPU, want.data()));
  EXPECT_CAPI_OK(zkgpu_msm_with_bases(bases, scalars.data(), n, ZKGPU_G1_COMPRESSED, ZKGPU_BACKEND_CUDA, got.data()));
  EXPECT_EQ(got, want);
  std::vector<uint8_t> te(n * ZKGPU_MSM_PRECOMPUTED_BYTES);
  EXPECT_CAPI_OK(zkgpu_msm_bases_export(bases, te.data(), te.size()));
  zkgpu_msm_bases_free(bases);
  cuda::Stream s;
  cuda::DeviceBuffer<uint8_t> d_pts(te.size()), d_sc(scalars.size());
  d_pts.upload(te.data(), te.size(), s);
  d_sc.upload(scalars.data(), scalars.size(), s);
  std::fill(got.begin(), got.end(), 0);
  EXPECT_CAPI_OK(zkgpu_msm_device(d_pts.data(), d_sc.data(), n, 0, ZKGPU_G1_COMPRESSED, s.get(), got.data()));
  EXPECT_EQ(got, want);
  EXPECT_CAPI_ERR(zkgpu_msm_device(te.data(), d_sc.data(), n, 0, ZKGPU_G1_COMPRESSED, s.get(), got.data()),
                  ZKGPU_INVALID_ARGUMENT);  // host memory
}

// ZKGPU_BACKEND_CUDA through the host calls gives the CPU's bytes.
TEST(CApiGpu, CudaBackendEqualsCpuBackend) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(53);
  const std::vector<uint32_t> states = canonical_words(random_field(rng, 16 * 4096));
  std::vector<uint32_t> a = states, b = states;
  EXPECT_CAPI_OK(zkgpu_poseidon2_permute(a.data(), 4096, 16, "babybear", "plonky3", CPU));
  EXPECT_CAPI_OK(zkgpu_poseidon2_permute(b.data(), 4096, 16, "babybear", "plonky3", ZKGPU_BACKEND_CUDA));
  EXPECT_EQ(a, b);
  std::vector<uint32_t> m = canonical_words(random_field(rng, 4 << 14)), m2 = m;
  EXPECT_CAPI_OK(zkgpu_ntt(m.data(), 14, 4, ZKGPU_NTT_FORWARD, 31, ZKGPU_BABYBEAR_CANONICAL, CPU));
  EXPECT_CAPI_OK(zkgpu_ntt(m2.data(), 14, 4, ZKGPU_NTT_FORWARD, 31, ZKGPU_BABYBEAR_CANONICAL, ZKGPU_BACKEND_CUDA));
  EXPECT_EQ(m, m2);
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu::test
