// The CUDA Merkle tree build against the scalar core functions, byte for byte, on fresh random inputs.
// Every test needs a GPU and skips without one.
#include <cstring>
#include <vector>

#include "zkgpu/core/hash/sponge.hpp"
#include "zkgpu/core/poseidon2/params.hpp"
#include "zkgpu/core/poseidon2/poseidon2_fast.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/merkle.hpp"
#if ZKGPU_HAVE_CUDA
#include "merkle/cuda/api.hpp"
#include "runtime/cuda/runtime.cuh"
#endif

namespace zkgpu {
namespace {

using test::Rng;

#if ZKGPU_HAVE_CUDA

std::vector<Digest> cpu_merkle(const std::vector<BabyBear>& m, size_t rows, size_t cols, const Poseidon2Params<16>& p) {
  std::vector<Digest> nodes(2 * rows - 1);
  for (size_t i = 0; i < rows; ++i) nodes[i] = sponge_hash(m.data() + i * cols, cols, p);
  size_t src = 0, dst = rows;
  for (size_t n = rows / 2; n >= 1; n /= 2) {
    for (size_t j = 0; j < n; ++j) nodes[dst + j] = compress(nodes[src + 2 * j], nodes[src + 2 * j + 1], p);
    src = dst;
    dst += n;
  }
  return nodes;
}

void check_gpu_merkle(size_t rows, size_t cols, Poseidon2Constants set, uint64_t salt) {
  const auto p = poseidon2_params<16>(set);
  Rng rng(salt);
  std::vector<BabyBear> m = rng.fes(rows * cols);
  std::vector<Digest> got(2 * rows - 1);
  std::memset(got.data(), 0xff, got.size() * sizeof(Digest));  // POISON_WORD everywhere
  cuda::merkle_build_host(m.data(), rows, cols, p, got.data());
  const auto expect = cpu_merkle(m, rows, cols, p);
  for (size_t i = 0; i < expect.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &expect[i], sizeof(Digest)), 0)
        << "rows " << rows << " cols " << cols << " node " << i;
}

TEST(MerkleGpu, AllNodesMatchCpu) {
  ZKGPU_REQUIRE_GPU();
  uint64_t salt = 400;
  struct Case {
    size_t rows, cols;
  };
  // Small mode: the wide trees at 2^12 and 2^13 rows (several launches before the tail either way).
  std::vector<Case> cases = {{1, 0},   {1, 9},   {2, 1},     {2, 16},   {4, 2},     {4, 24},  {256, 8},
                             {256, 9}, {256, 0}, {1024, 16}, {1024, 1}, {1024, 24}, {512, 4}, {2048, 2}};
  const std::vector<Case> large = test::sized<Case>({{1 << 16, 16}, {1 << 16, 9}, {1 << 16, 8}, {1 << 20, 2}},
                                                    {{1 << 12, 16}, {1 << 12, 9}, {1 << 12, 8}, {1 << 13, 2}});
  cases.insert(cases.end(), large.begin(), large.end());
  for (const auto& c : cases) check_gpu_merkle(c.rows, c.cols, Poseidon2Constants::Whir, ++salt);
  check_gpu_merkle(1024, 16, Poseidon2Constants::Plonky3, ++salt);
}

// The public device-pointer build on the caller's non-blocking stream gives the nodes of the CPU
// tree (poisoned output first); host pointers and an output overlapping the matrix are rejected.
TEST(MerkleGpu, DevicePointerBuildMatchesCpuTree) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(250);
  cuda::Stream s;
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  for (const auto& [rows, cols] : std::vector<std::pair<size_t, size_t>>{{1, 1}, {1024, 8}, {1 << 14, 17}}) {
    SCOPED_TRACE("rows " + std::to_string(rows) + " cols " + std::to_string(cols));
    const std::vector<BabyBear> m = rng.fes(rows * cols);
    const MerkleTree want = MerkleTree::build(m, rows, cols, p, Backend::Cpu);
    cuda::DeviceBuffer<BabyBear> d_m(rows * cols);
    cuda::DeviceBuffer<Digest> d_nodes(2 * rows - 1);
    d_m.upload(m.data(), m.size(), s);
    ZKGPU_CUDA_CHECK(cudaMemsetAsync(d_nodes.data(), 0xff, d_nodes.size() * sizeof(Digest), s));
    merkle_build_device(d_m.data(), rows, cols, p, d_nodes.data(), GpuStream{s.get()});
    std::vector<Digest> got(2 * rows - 1);
    d_nodes.download(got.data(), got.size(), s);
    s.sync();
    ASSERT_EQ(std::memcmp(got.data(), want.nodes().data(), got.size() * sizeof(Digest)), 0);
    std::vector<Digest> host_nodes(2 * rows - 1);
    EXPECT_THROW(merkle_build_device(m.data(), rows, cols, p, d_nodes.data(), {}), Error);
    EXPECT_THROW(merkle_build_device(d_m.data(), rows, cols, p, host_nodes.data(), {}), Error);
  }
  cuda::DeviceBuffer<BabyBear> big(1 << 12);
  const auto overlap = reinterpret_cast<Digest*>(big.data() + 64);
  EXPECT_THROW(merkle_build_device(big.data(), 64, 8, p, overlap, {}), Error);  // nodes over the matrix
  EXPECT_THROW(merkle_build_device(big.data(), 3, 8, p, overlap, {}), Error);   // rows not a power of two
}

TEST(MerkleGpu, LargeTreeMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  check_gpu_merkle(test::sized<size_t>(1 << 20, 1 << 14), 16, Poseidon2Constants::Whir, 450);
}

// Both permutation forms of the build (rolled standard-diag for the standard constants, the core
// function for any other diag) on shapes that cover: one row, zero columns, short, odd and
// vector-loaded chunks (cols 3, 9, 12 are not powers of two), trees that end in the single-block
// tail directly, and trees with wide level launches before it (small mode: the largest at 2^13
// rows).
TEST(MerkleGpu, EveryKernelFormMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  const auto standard = poseidon2_params<16>(Poseidon2Constants::Whir);
  const auto other = [&] {
    auto q = standard;
    q.diag[5] = BabyBear::from_canonical(12345);
    return q;
  }();
  ASSERT_FALSE(poseidon2_has_standard_diag(other));
  struct Case {
    size_t rows, cols;
  };
  // Every size up to 4096 rows in both modes; the two largest shrink in small mode.
  std::vector<Case> cases = {{1, 0},   {1, 9},   {2, 16},   {4, 3},    {8, 4},
                             {256, 8}, {512, 9}, {1024, 0}, {2048, 9}, {4096, 16}};
  for (const Case& c : test::sized<Case>({{1 << 15, 12}, {1 << 17, 16}}, {{1 << 12, 12}, {1 << 13, 16}}))
    cases.push_back(c);
  uint64_t salt = 700;
  for (const auto& c : cases) {
    Rng rng(++salt);
    const std::vector<BabyBear> m = rng.fes(c.rows * c.cols);
    for (const Poseidon2Params<16>* p : {&standard, &other}) {
      const auto expect = cpu_merkle(m, c.rows, c.cols, *p);
      std::vector<Digest> got(expect.size());
      std::memset(got.data(), 0xff, got.size() * sizeof(Digest));
      cuda::merkle_build_host(m.data(), c.rows, c.cols, *p, got.data());
      for (size_t i = 0; i < expect.size(); ++i)
        ASSERT_EQ(std::memcmp(&got[i], &expect[i], sizeof(Digest)), 0)
            << (p == &standard ? "standard" : "other") << " diag, rows " << c.rows << " cols " << c.cols << " node "
            << i;
    }
  }
}

TEST(MerkleGpu, MatchesDerivedVectors) {
  ZKGPU_REQUIRE_GPU();
  auto v = test::load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  auto digest_of = [](const nlohmann::json& a) {
    Digest d;
    for (int i = 0; i < 8; ++i) d.e[i] = BabyBear::from_canonical(a[i].get<uint32_t>());
    return d;
  };
  // The GPU tree of a vector's matrix (rows of canonical words under `key`), built over poisoned nodes.
  auto gpu_nodes = [&](const nlohmann::json& t, const char* key, size_t rows, size_t cols) {
    std::vector<BabyBear> m;
    for (auto& row : t[key])
      for (auto& x : row) m.push_back(BabyBear::from_canonical(x.get<uint32_t>()));
    std::vector<Digest> nodes(2 * rows - 1);
    std::memset(nodes.data(), 0xff, nodes.size() * sizeof(Digest));
    cuda::merkle_build_host(m.data(), rows, cols, p, nodes.data());
    return nodes;
  };
  {
    const auto& t = v["merkle_base_matrix_8x2"];
    const std::vector<Digest> nodes = gpu_nodes(t, "rows", 8, 2);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(nodes[i], digest_of(t["leaf_digests"][i])) << i;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(nodes[8 + i], digest_of(t["level1"][i])) << i;
    for (int i = 0; i < 2; ++i) EXPECT_EQ(nodes[12 + i], digest_of(t["level2"][i])) << i;
    EXPECT_EQ(nodes[14], digest_of(t["root"]));
  }
  {
    const auto& t = v["merkle_extension_matrix_4x2"];
    const std::vector<Digest> nodes = gpu_nodes(t, "rows_flattened", 4, 8);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(nodes[i], digest_of(t["leaf_digests"][i])) << i;
    EXPECT_EQ(nodes[6], digest_of(t["root"]));
  }
}

TEST(MerkleGpu, RejectsInvalidSizes) {
  ZKGPU_REQUIRE_GPU();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  std::vector<BabyBear> m(6 * 2);
  std::vector<Digest> nodes(11);
  for (size_t rows : {size_t(0), size_t(3), size_t(6)}) {
    try {
      cuda::merkle_build_host(m.data(), rows, 2, p, nodes.data());
      ADD_FAILURE() << "rows " << rows << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    }
  }
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
