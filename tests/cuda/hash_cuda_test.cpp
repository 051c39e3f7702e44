// CUDA hashing (Poseidon2, Merkle, PoW) against the scalar core functions, byte for byte, on fresh
// random inputs. The first test checks the tuned permutation the kernels run, on the CPU (it is a
// core function and needs no GPU); the rest need a GPU and skip without one.
#include <cstring>
#include <string>
#include <vector>

#include "core/hash/pow.hpp"
#include "core/hash/sponge.hpp"
#include "core/poseidon2/params.hpp"
#include "core/poseidon2/poseidon2_fast.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "cuda/api.hpp"
#include "cuda/hash/hash_tuning.hpp"
#endif

namespace zkgpu {
namespace {

using test::Rng;

template <int W>
void check_std_permutation(Poseidon2Constants set, uint64_t salt) {
  const auto p = poseidon2_params<W>(set);
  ASSERT_TRUE(poseidon2_has_standard_diag(p));
  Rng rng(salt);
  for (int it = 0; it < 3000; ++it) {
    BabyBear a[W], b[W], c[W];
    for (int i = 0; i < W; ++i) {
      uint32_t k = rng.u32() % 8;  // edge words often: 0, p-1, tiny values
      a[i] = k == 0 ? BabyBear::zero() : k == 1 ? BabyBear::from_monty(BabyBear::P - 1) : k == 2 ? BabyBear::from_monty(k) : rng.fe();
      b[i] = c[i] = a[i];
    }
    poseidon2_permute<W>(a, p);
    poseidon2_permute_std<W, false>(b, p);
    poseidon2_permute_std<W, true>(c, p);
    ASSERT_EQ(std::memcmp(a, b, sizeof a), 0) << "unrolled, iteration " << it;
    ASSERT_EQ(std::memcmp(a, c, sizeof a), 0) << "rolled, iteration " << it;
  }
  auto q = p;
  q.diag[3] = q.diag[3] + BabyBear::one();
  EXPECT_FALSE(poseidon2_has_standard_diag(q));
}

TEST(Poseidon2Fast, EqualsCorePermutationOnCpu) {
  check_std_permutation<16>(Poseidon2Constants::Plonky3, 1);
  check_std_permutation<16>(Poseidon2Constants::Whir, 2);
  check_std_permutation<24>(Poseidon2Constants::Plonky3, 3);
  check_std_permutation<24>(Poseidon2Constants::Whir, 4);
}

TEST(Poseidon2Fast, FieldHelpersMatchBabyBear) {
  Rng rng(5);
  const BabyBear inv2 = BabyBear::from_canonical(2).inverse();
  for (int it = 0; it < 200000; ++it) {
    BabyBear a = it < 4 ? BabyBear::from_monty((it & 1) ? BabyBear::P - 1 : 0) : rng.fe();
    BabyBear b = it < 4 ? BabyBear::from_monty((it & 2) ? BabyBear::P - 1 : 0) : rng.fe();
    ASSERT_EQ(p2fast::mul(a, b), a * b);
    ASSERT_EQ(p2fast::add(a, b), a + b);
    ASSERT_EQ(p2fast::sub(a, b), a - b);
    ASSERT_EQ(p2fast::div_2exp<1>(a), a * inv2);
    ASSERT_EQ(p2fast::div_2exp<27>(a), a * inv2.pow(27));
  }
}

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

template <int W>
void check_gpu_permutation(Poseidon2Constants set, size_t n, uint64_t salt) {
  const auto p = poseidon2_params<W>(set);
  Rng rng(salt);
  std::vector<BabyBear> states = rng.fes(n * W), expect = states;
  for (size_t i = 0; i < n; ++i) poseidon2_permute<W>(*reinterpret_cast<BabyBear(*)[W]>(&expect[i * W]), p);
  cuda::poseidon2_permute_host(states.data(), n, p);
  ASSERT_EQ(std::memcmp(states.data(), expect.data(), n * W * sizeof(BabyBear)), 0)
      << "width " << W << " n " << n << " set " << int(set);
}

TEST(CudaHash, Poseidon2MatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  uint64_t salt = 100;
  for (size_t n : test::sized<size_t>({1, 31, 32, 1000, 65537}, {1, 31, 32, 1000, 4097}))
    for (auto set : {Poseidon2Constants::Plonky3, Poseidon2Constants::Whir}) {
      check_gpu_permutation<16>(set, n, ++salt);
      check_gpu_permutation<24>(set, n, ++salt);
    }
}

TEST(CudaHash, Poseidon2EveryKernelKindMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  const int saved = cuda::poseidon2_kernel_kind();
  for (int kind : {0, 2, 1}) {
    cuda::set_poseidon2_kernel_kind(kind);
    check_gpu_permutation<16>(Poseidon2Constants::Whir, 4099, 200 + kind);
    check_gpu_permutation<24>(Poseidon2Constants::Plonky3, 4099, 210 + kind);
  }
  cuda::set_poseidon2_kernel_kind(saved);
  EXPECT_THROW(cuda::set_poseidon2_kernel_kind(3), Error);
}

TEST(CudaHash, Poseidon2NonStandardDiagUsesCoreFunction) {
  ZKGPU_REQUIRE_GPU();
  auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  p.diag[5] = BabyBear::from_canonical(12345);
  Rng rng(300);
  const size_t n = 777;
  std::vector<BabyBear> states = rng.fes(n * 16), expect = states;
  for (size_t i = 0; i < n; ++i) poseidon2_permute<16>(*reinterpret_cast<BabyBear(*)[16]>(&expect[i * 16]), p);
  cuda::poseidon2_permute_host(states.data(), n, p);
  ASSERT_EQ(std::memcmp(states.data(), expect.data(), states.size() * sizeof(BabyBear)), 0);
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
    ASSERT_EQ(std::memcmp(&got[i], &expect[i], sizeof(Digest)), 0) << "rows " << rows << " cols " << cols << " node " << i;
}

TEST(CudaHash, MerkleAllNodesMatchCpu) {
  ZKGPU_REQUIRE_GPU();
  uint64_t salt = 400;
  struct Case { size_t rows, cols; };
  // Small mode: the wide trees at 2^12 and 2^13 rows (several launches before the tail either way).
  const std::vector<Case> cases = test::sized<Case>(
      {{1, 0}, {1, 9}, {2, 1}, {2, 16}, {4, 2}, {4, 24}, {256, 8}, {256, 9}, {256, 0}, {1024, 16}, {1024, 1},
       {1024, 24}, {512, 4}, {2048, 2}, {1 << 16, 16}, {1 << 16, 9}, {1 << 16, 8}, {1 << 20, 2}},
      {{1, 0}, {1, 9}, {2, 1}, {2, 16}, {4, 2}, {4, 24}, {256, 8}, {256, 9}, {256, 0}, {1024, 16}, {1024, 1},
       {1024, 24}, {512, 4}, {2048, 2}, {1 << 12, 16}, {1 << 12, 9}, {1 << 12, 8}, {1 << 13, 2}});
  for (const auto& c : cases) check_gpu_merkle(c.rows, c.cols, Poseidon2Constants::Whir, ++salt);
  check_gpu_merkle(1024, 16, Poseidon2Constants::Plonky3, ++salt);
}

TEST(CudaHash, MerkleLargeTreeMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  check_gpu_merkle(test::sized<size_t>(1 << 20, 1 << 14), 16, Poseidon2Constants::Whir, 450);
}

TEST(CudaHash, MerkleEveryKernelKind) {
  ZKGPU_REQUIRE_GPU();
  const int saved = cuda::poseidon2_kernel_kind(), saved_variant = cuda::merkle_variant();
  // Kind 0 forces the generic permutation into every variant (fused, or layered); kind 2 changes
  // the fused variant's form only.
  for (int variant : {0, 1})
    for (int kind : {0, 2}) {
      cuda::set_merkle_variant(variant);
      cuda::set_poseidon2_kernel_kind(kind);
      check_gpu_merkle(4096, 16, Poseidon2Constants::Whir, 460 + kind + 10 * variant);
      check_gpu_merkle(2048, 9, Poseidon2Constants::Whir, 470 + kind + 10 * variant);
    }
  cuda::set_poseidon2_kernel_kind(saved);
  cuda::set_merkle_variant(saved_variant);
}

// Every Merkle variant, with the default subtree threshold and with threshold 1 (every launch
// computes as many levels per thread as the variant allows, so small trees reach every subtree
// height), on shapes that cover: one row, zero columns, short and vector-loaded chunks, trees that
// end in the single-block tail directly, and trees with wide level launches before it (small mode:
// the largest at 2^13 rows; at the default threshold every launch of these trees has height 0
// either way, below 2^18 rows).
TEST(CudaHash, MerkleEveryVariantMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  const int saved_variant = cuda::merkle_variant();
  const size_t saved_min = cuda::merkle_subtree_min_threads();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  struct Case { size_t rows, cols; };
  const std::vector<Case> cases = test::sized<Case>(
      {{1, 0}, {1, 9}, {2, 16}, {4, 3}, {8, 4}, {256, 8}, {512, 9}, {1024, 0}, {4096, 16}, {1 << 15, 12},
       {1 << 17, 16}},
      {{1, 0}, {1, 9}, {2, 16}, {4, 3}, {8, 4}, {256, 8}, {512, 9}, {1024, 0}, {4096, 16}, {1 << 12, 12},
       {1 << 13, 16}});
  uint64_t salt = 700;
  for (const auto& c : cases) {
    Rng rng(++salt);
    const std::vector<BabyBear> m = rng.fes(c.rows * c.cols);
    const auto expect = cpu_merkle(m, c.rows, c.cols, p);
    std::vector<Digest> got(expect.size());
    for (int v = 0; v < cuda::merkle_variant_count(); ++v)
      for (size_t min_threads : {saved_min, size_t(1)}) {
        cuda::set_merkle_variant(v);
        cuda::set_merkle_subtree_min_threads(min_threads);
        std::memset(got.data(), 0xff, got.size() * sizeof(Digest));
        cuda::merkle_build_host(m.data(), c.rows, c.cols, p, got.data());
        for (size_t i = 0; i < expect.size(); ++i)
          ASSERT_EQ(std::memcmp(&got[i], &expect[i], sizeof(Digest)), 0)
              << "variant " << v << " (" << cuda::merkle_variant_name(v) << ") min_threads " << min_threads
              << " rows " << c.rows << " cols " << c.cols << " node " << i;
      }
  }
  cuda::set_merkle_variant(saved_variant);
  cuda::set_merkle_subtree_min_threads(saved_min);
}

// Host-side only (no GPU needed): the tuning setters validate their arguments.
TEST(CudaHash, MerkleTuningRejectsInvalidValues) {
  const int saved = cuda::merkle_variant();
  EXPECT_GE(cuda::merkle_variant_count(), 2);
  for (int v = 0; v < cuda::merkle_variant_count(); ++v) EXPECT_NE(std::string(cuda::merkle_variant_name(v)), "");
  EXPECT_THROW(cuda::set_merkle_variant(-1), Error);
  EXPECT_THROW(cuda::set_merkle_variant(cuda::merkle_variant_count()), Error);
  EXPECT_THROW(cuda::merkle_variant_name(cuda::merkle_variant_count()), Error);
  EXPECT_THROW(cuda::set_merkle_subtree_min_threads(0), Error);
  EXPECT_EQ(cuda::merkle_variant(), saved);
}

TEST(CudaHash, MerkleMatchesDerivedVectors) {
  ZKGPU_REQUIRE_GPU();
  auto v = test::load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  auto digest_of = [](const nlohmann::json& a) {
    Digest d;
    for (int i = 0; i < 8; ++i) d.e[i] = BabyBear::from_canonical(a[i].get<uint32_t>());
    return d;
  };
  {
    const auto& t = v["merkle_base_matrix_8x2"];
    std::vector<BabyBear> m;
    for (auto& row : t["rows"])
      for (auto& x : row) m.push_back(BabyBear::from_canonical(x.get<uint32_t>()));
    std::vector<Digest> nodes(15);
    std::memset(nodes.data(), 0xff, nodes.size() * sizeof(Digest));
    cuda::merkle_build_host(m.data(), 8, 2, p, nodes.data());
    for (int i = 0; i < 8; ++i) EXPECT_EQ(nodes[i], digest_of(t["leaf_digests"][i])) << i;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(nodes[8 + i], digest_of(t["level1"][i])) << i;
    for (int i = 0; i < 2; ++i) EXPECT_EQ(nodes[12 + i], digest_of(t["level2"][i])) << i;
    EXPECT_EQ(nodes[14], digest_of(t["root"]));
  }
  {
    const auto& t = v["merkle_extension_matrix_4x2"];
    std::vector<BabyBear> m;
    for (auto& row : t["rows_flattened"])
      for (auto& x : row) m.push_back(BabyBear::from_canonical(x.get<uint32_t>()));
    std::vector<Digest> nodes(7);
    std::memset(nodes.data(), 0xff, nodes.size() * sizeof(Digest));
    cuda::merkle_build_host(m.data(), 4, 8, p, nodes.data());
    for (int i = 0; i < 4; ++i) EXPECT_EQ(nodes[i], digest_of(t["leaf_digests"][i])) << i;
    EXPECT_EQ(nodes[6], digest_of(t["root"]));
  }
}

TEST(CudaHash, MerkleRejectsInvalidSizes) {
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

uint32_t cpu_smallest_witness(const PowInput& in, const Poseidon2Params<16>& p) {
  for (uint32_t w = 0; w < BabyBear::P; ++w)
    if (pow_witness_ok(in, BabyBear::from_canonical(w), p)) return w;
  ADD_FAILURE() << "no witness";
  return 0;
}

TEST(CudaHash, PowDeterministicIsSmallestWitness) {
  ZKGPU_REQUIRE_GPU();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  Rng rng(500);
  for (uint32_t bits = 1; bits <= 12; ++bits) {
    PowInput in{};
    for (auto& x : in.state) x = rng.fe();
    in.n_pending = rng.u32() % 8;
    for (uint32_t i = 0; i < in.n_pending; ++i) in.pending[i] = rng.fe();
    in.bits = bits;
    const uint32_t gpu = cuda::pow_grind_host(in, p, true);
    EXPECT_EQ(gpu, cpu_smallest_witness(in, p)) << "bits " << bits << " n_pending " << in.n_pending;
    const uint32_t any = cuda::pow_grind_host(in, p, false);
    EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(any), p)) << "bits " << bits;
    EXPECT_LT(any, BabyBear::P);
  }
}

TEST(CudaHash, PowMatchesChallengerVector) {
  ZKGPU_REQUIRE_GPU();
  auto v = test::load_vectors("babybear/duplex_challenger_derived_vectors.json");
  const uint32_t expect = v["variant_090b"]["fresh_observe_[1,2,3]_smallest_pow_witness_8_bits"].get<uint32_t>();
  ASSERT_EQ(expect, 95u);
  PowInput in{};
  for (auto& x : in.state) x = BabyBear::zero();
  in.pending[0] = BabyBear::from_canonical(1);
  in.pending[1] = BabyBear::from_canonical(2);
  in.pending[2] = BabyBear::from_canonical(3);
  in.n_pending = 3;
  in.bits = 8;
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  EXPECT_EQ(cuda::pow_grind_host(in, p, true), expect);
  const uint32_t any = cuda::pow_grind_host(in, p, false);
  EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(any), p));
}

TEST(CudaHash, PowLargerBitsWitnessIsValid) {
  ZKGPU_REQUIRE_GPU();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  Rng rng(600);
  PowInput in{};
  for (auto& x : in.state) x = rng.fe();
  in.n_pending = 5;
  for (uint32_t i = 0; i < 5; ++i) in.pending[i] = rng.fe();
  in.bits = 20;
  const uint32_t w = cuda::pow_grind_host(in, p, true);
  EXPECT_TRUE(pow_witness_ok(in, BabyBear::from_canonical(w), p));
  // Smallest: nothing below w passes (spot-check the last 4096 candidates below it on the CPU).
  for (uint32_t c = w > 4096 ? w - 4096 : 0; c < w; ++c) ASSERT_FALSE(pow_witness_ok(in, BabyBear::from_canonical(c), p)) << c;
}

TEST(CudaHash, PowRejectsInvalidInput) {
  ZKGPU_REQUIRE_GPU();
  const auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  PowInput in{};
  in.bits = 0;
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
  in.bits = 31;
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
  in.bits = 4;
  in.n_pending = 8;
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
  in.n_pending = 0;
  in.state[3].v = BabyBear::P;  // not a field element
  EXPECT_THROW(cuda::pow_grind_host(in, p, true), Error);
}

TEST(CudaHash, TimingRejectsInvalidArguments) {
  ZKGPU_REQUIRE_GPU();
  EXPECT_THROW(cuda::time_poseidon2_device(20, 1024, 0, 1), Error);
  EXPECT_THROW(cuda::time_merkle_device(1000, 16, 0, 1), Error);
  EXPECT_THROW(cuda::time_pow_device(0, 0, 1), Error);
  EXPECT_EQ(cuda::time_poseidon2_device(16, 4096, 1, 2).size(), 2u);
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
