#include "zkgpu/merkle.hpp"

#include <bit>

#include "zkgpu/core/poseidon2/params.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "merkle/cuda/api.hpp"
#endif

namespace zkgpu {
namespace {

using test::Rng;

const Poseidon2Params<16>& whir_params() {
  static const Poseidon2Params<16> p = poseidon2_params<16>(Poseidon2Constants::Whir);
  return p;
}

Digest digest_from_json(const nlohmann::json& a) {
  Digest d;
  EXPECT_EQ(a.size(), 8u);
  for (int i = 0; i < 8; ++i) d.e[i] = BabyBear::from_canonical(a[i].get<uint32_t>());
  return d;
}

// Straightforward sequential build, independent of the library's level loop.
std::vector<Digest> reference_nodes(const std::vector<BabyBear>& m, size_t rows, size_t cols) {
  const auto& p = whir_params();
  std::vector<std::vector<Digest>> levels(1);
  for (size_t r = 0; r < rows; ++r) levels[0].push_back(sponge_hash(&m[r * cols], cols, p));
  while (levels.back().size() > 1) {
    const auto& prev = levels.back();
    std::vector<Digest> next;
    for (size_t j = 0; j < prev.size() / 2; ++j) next.push_back(compress(prev[2 * j], prev[2 * j + 1], p));
    levels.push_back(std::move(next));
  }
  std::vector<Digest> all;
  for (auto& l : levels) all.insert(all.end(), l.begin(), l.end());
  return all;
}

TEST(Merkle, BaseMatrix8x2MatchesVectors) {
  auto v = test::load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
  const auto& t = v["merkle_base_matrix_8x2"];
  std::vector<BabyBear> m;
  for (auto& row : t["rows"])
    for (auto& x : row) m.push_back(BabyBear::from_canonical(x.get<uint32_t>()));
  auto tree = MerkleTree::build(m, 8, 2, whir_params(), Backend::Cpu);
  ASSERT_EQ(tree.nodes().size(), 15u);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(tree.nodes()[i], digest_from_json(t["leaf_digests"][i])) << "leaf " << i;
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(tree.nodes()[8 + i], digest_from_json(t["level1"][i])) << "level1 " << i;
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(tree.nodes()[12 + i], digest_from_json(t["level2"][i])) << "level2 " << i;
  const Digest root = digest_from_json(t["root"]);
  EXPECT_EQ(tree.root(), root);
  EXPECT_EQ(tree.nodes()[14], root);

  const size_t idx = t["opening_index"].get<size_t>();
  MerkleOpening o = tree.open(idx);
  EXPECT_EQ(o.row, test::canonical_vec(t["opening_row"]));
  ASSERT_EQ(o.siblings.size(), t["opening_siblings"].size());
  for (size_t k = 0; k < o.siblings.size(); ++k) EXPECT_EQ(o.siblings[k], digest_from_json(t["opening_siblings"][k]));
  EXPECT_TRUE(merkle_verify(root, 8, 2, idx, o, whir_params()));

  // The vector's opening verifies on its own, without the tree.
  MerkleOpening from_json{test::canonical_vec(t["opening_row"]), {}};
  for (auto& s : t["opening_siblings"]) from_json.siblings.push_back(digest_from_json(s));
  EXPECT_TRUE(merkle_verify(root, 8, 2, idx, from_json, whir_params()));
}

TEST(Merkle, ExtensionMatrix4x2MatchesVectors) {
  auto v = test::load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
  const auto& t = v["merkle_extension_matrix_4x2"];
  std::vector<BabyBear4> m;
  for (auto& row : t["rows_ef"])
    for (auto& e : row) {
      BabyBear4 x;
      for (int k = 0; k < 4; ++k) x.c[k] = BabyBear::from_canonical(e[k].get<uint32_t>());
      m.push_back(x);
    }
  ASSERT_EQ(m.size(), 8u);
  auto tree = MerkleTree::build(std::span<const BabyBear4>(m), 4, 2, whir_params(), Backend::Cpu);
  EXPECT_EQ(tree.cols(), 8u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(tree.nodes()[i], digest_from_json(t["leaf_digests"][i])) << "leaf " << i;
  const Digest root = digest_from_json(t["root"]);
  EXPECT_EQ(tree.root(), root);
  for (size_t i = 0; i < 4; ++i) {
    MerkleOpening o = tree.open(i);
    EXPECT_EQ(o.row, test::canonical_vec(t["rows_flattened"][i]));
    EXPECT_TRUE(merkle_verify(root, 4, 8, i, o, whir_params()));
  }
  // Same tree as the flattened base matrix.
  std::vector<BabyBear> flat;
  for (auto& row : t["rows_flattened"])
    for (auto& x : row) flat.push_back(BabyBear::from_canonical(x.get<uint32_t>()));
  EXPECT_EQ(MerkleTree::build(flat, 4, 8, whir_params(), Backend::Cpu).root(), root);
}

// Flips each bit of the canonical value of x in turn; values >= p cannot be decoded from a proof,
// so they count as rejected without a call. Returns how many flips verify() accepted.
template <class Verify>
int accepted_bit_flips(BabyBear& x, Verify&& verify) {
  const BabyBear orig = x;
  int accepted = 0;
  for (int b = 0; b < 31; ++b) {
    if (!decode_canonical(orig.canonical() ^ (1u << b), x)) continue;
    accepted += verify();
  }
  // Raw Montgomery words >= p must be rejected too (the verifier sees them if a caller skips decoding).
  x = BabyBear::from_monty(orig.v | 0x80000000u);
  accepted += verify();
  x = orig;
  return accepted;
}

void expect_every_corruption_rejected(const MerkleTree& tree, size_t idx) {
  const auto& p = whir_params();
  const size_t rows = tree.rows(), cols = tree.cols();
  Digest root = tree.root();
  MerkleOpening o = tree.open(idx);
  auto ok = [&] { return merkle_verify(root, rows, cols, idx, o, p); };
  ASSERT_TRUE(ok());

  for (size_t c = 0; c < cols; ++c) EXPECT_EQ(accepted_bit_flips(o.row[c], ok), 0) << "row element " << c;
  for (size_t s = 0; s < o.siblings.size(); ++s)
    for (int e = 0; e < 8; ++e) EXPECT_EQ(accepted_bit_flips(o.siblings[s].e[e], ok), 0) << "sibling " << s << "." << e;
  for (int e = 0; e < 8; ++e) EXPECT_EQ(accepted_bit_flips(root.e[e], ok), 0) << "root element " << e;
  for (int b = 0; b < 64; ++b)
    EXPECT_FALSE(merkle_verify(root, rows, cols, idx ^ (size_t(1) << b), o, p)) << "index bit " << b;
  ASSERT_TRUE(ok());

  // Wrong lengths: a missing sibling, an extra sibling, a short or long row, a wrong shape.
  MerkleOpening shorter = o, longer = o;
  if (!shorter.siblings.empty()) {
    shorter.siblings.pop_back();
    EXPECT_FALSE(merkle_verify(root, rows, cols, idx, shorter, p));
  }
  longer.siblings.push_back(o.siblings.empty() ? Digest{} : o.siblings.back());
  EXPECT_FALSE(merkle_verify(root, rows, cols, idx, longer, p));
  MerkleOpening short_row = o, long_row = o;
  short_row.row.pop_back();
  long_row.row.push_back(BabyBear::zero());
  EXPECT_FALSE(merkle_verify(root, rows, cols, idx, short_row, p));
  EXPECT_FALSE(merkle_verify(root, rows, cols, idx, long_row, p));
  EXPECT_FALSE(merkle_verify(root, rows, cols + 1, idx, o, p));
  EXPECT_FALSE(merkle_verify(root, rows * 2, cols, idx, o, p));
  if (rows > 1) {
    EXPECT_FALSE(merkle_verify(root, rows / 2, cols, idx / 2, o, p));
  }
  EXPECT_FALSE(merkle_verify(root, rows + (rows > 1 ? 1 : 2), cols, idx, o, p));  // not a power of two
  EXPECT_FALSE(merkle_verify(root, 0, cols, idx, o, p));
}

TEST(Merkle, OpenVerifyRoundTripAndEveryCorruptionRejected) {
  Rng rng(11);
  for (size_t rows : {1, 2, 8, 1024}) {
    for (size_t cols : {1, 2, 16, 24}) {
      SCOPED_TRACE(testing::Message() << rows << " x " << cols);
      auto m = rng.fes(rows * cols);
      auto tree = MerkleTree::build(m, rows, cols, whir_params(), Backend::Cpu);
      EXPECT_EQ(tree.rows(), rows);
      EXPECT_EQ(tree.cols(), cols);
      EXPECT_EQ(tree.log_rows(), static_cast<unsigned>(std::countr_zero(rows)));
      ASSERT_EQ(tree.nodes().size(), 2 * rows - 1);
      EXPECT_EQ(tree.nodes().back(), tree.root());
      // Round trip on every row of the small trees, a sample of the large one.
      const size_t step = rows <= 8 ? 1 : 37;
      for (size_t i = 0; i < rows; i += step) {
        MerkleOpening o = tree.open(i);
        ASSERT_EQ(o.siblings.size(), tree.log_rows());
        EXPECT_EQ(o.row, std::vector<BabyBear>(m.begin() + i * cols, m.begin() + (i + 1) * cols));
        EXPECT_TRUE(merkle_verify(tree.root(), rows, cols, i, o, whir_params())) << "row " << i;
      }
      expect_every_corruption_rejected(tree, rows <= 8 ? rows - 1 : rng.u32() % rows);
      EXPECT_THROW((void)tree.open(rows), Error);
    }
  }
}

TEST(Merkle, OpeningFromAnotherIndexIsRejected) {
  Rng rng(12);
  auto m = rng.fes(64 * 3);
  auto tree = MerkleTree::build(m, 64, 3, whir_params(), Backend::Cpu);
  for (size_t i = 0; i < 64; ++i) {
    MerkleOpening o = tree.open(i);
    for (size_t j = 0; j < 64; j += 7)
      if (j != i) {
        EXPECT_FALSE(merkle_verify(tree.root(), 64, 3, j, o, whir_params())) << i << " at " << j;
      }
  }
}

// Every SIMD path the batched hash may take (a cap above what the CPU has is a no-op).
struct SimdCapGuard {
  ~SimdCapGuard() { set_simd_level_cap(std::nullopt); }
};

TEST(Merkle, ThreadedBuildMatchesSequentialReference) {
  SimdCapGuard guard;
  Rng rng(13);
  for (SimdLevel cap : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
    set_simd_level_cap(cap);
    for (size_t rows : {1, 2, 4, 64, 128, 1024}) {
      for (size_t cols : {1, 7, 8, 13, 16, 24}) {
        auto m = rng.fes(rows * cols);
        auto ref = reference_nodes(m, rows, cols);
        auto tree = MerkleTree::build(m, rows, cols, whir_params(), Backend::Cpu);
        ASSERT_EQ(tree.nodes().size(), ref.size());
        for (size_t i = 0; i < ref.size(); ++i)
          ASSERT_EQ(tree.nodes()[i], ref[i]) << to_string(cap) << " " << rows << "x" << cols << " node " << i;
      }
    }
  }
}

TEST(Merkle, MoveBuildEqualsCopyBuild) {
  Rng rng(14);
  auto m = rng.fes(256 * 5);
  auto a = MerkleTree::build(std::span<const BabyBear>(m), 256, 5, whir_params(), Backend::Cpu);
  auto b = MerkleTree::build(std::vector<BabyBear>(m), 256, 5, whir_params(), Backend::Cpu);
  EXPECT_EQ(a.root(), b.root());
  EXPECT_EQ(b.matrix().size(), m.size());
}

TEST(Merkle, RejectsBadShapes) {
  std::vector<BabyBear> m(24, BabyBear::one());
  const auto& p = whir_params();
  EXPECT_THROW(MerkleTree::build(m, 3, 8, p, Backend::Cpu), Error);  // not a power of two
  EXPECT_THROW(MerkleTree::build(m, 0, 8, p, Backend::Cpu), Error);
  EXPECT_THROW(MerkleTree::build(m, 4, 5, p, Backend::Cpu), Error);                // size mismatch
  EXPECT_THROW(MerkleTree::build(m, 8, 0, p, Backend::Cpu), Error);                // zero width
  EXPECT_THROW(MerkleTree::build(m, size_t(1) << 62, 8, p, Backend::Cpu), Error);  // rows*cols overflows
  std::vector<BabyBear4> e(6);
  EXPECT_THROW(MerkleTree::build(std::span<const BabyBear4>(e), 4, 2, p, Backend::Cpu), Error);
  try {
    (void)MerkleTree::build(m, 3, 8, p, Backend::Cpu);
  } catch (const Error& err) {
    EXPECT_EQ(err.code(), ErrorCode::InvalidArgument);
  }
}

TEST(Merkle, DifferentConstantSetsGiveDifferentRoots) {
  Rng rng(15);
  auto m = rng.fes(16 * 8);
  auto a = MerkleTree::build(m, 16, 8, whir_params(), Backend::Cpu);
  auto plonky3 = poseidon2_params<16>(Poseidon2Constants::Plonky3);
  auto b = MerkleTree::build(m, 16, 8, plonky3, Backend::Cpu);
  EXPECT_NE(a.root(), b.root());
  EXPECT_TRUE(merkle_verify(b.root(), 16, 8, 3, b.open(3), plonky3));
  EXPECT_FALSE(merkle_verify(b.root(), 16, 8, 3, b.open(3), whir_params()));
}

// The batched verifier must give merkle_verify's verdict on every item of a mixed batch: several
// trees (heights and widths differ, a one-row tree among them), honest and corrupted openings,
// malformed shapes and null pointers, at every SIMD level.
TEST(Merkle, BatchVerifyMatchesOneByOne) {
  Rng rng(77);
  struct Shape {
    size_t rows, cols;
  };
  std::vector<MerkleTree> trees;
  for (Shape s : {Shape{1, 3}, Shape{8, 16}, Shape{64, 5}, Shape{256, 64}, Shape{32, 16}})
    trees.push_back(MerkleTree::build(rng.fes(s.rows * s.cols), s.rows, s.cols, whir_params(), Backend::Cpu));
  std::vector<MerkleOpening> openings;
  std::vector<MerkleCheck> checks;
  std::vector<size_t> tree_of;
  for (size_t t = 0; t < trees.size(); ++t)
    for (int q = 0; q < 40; ++q) {
      const size_t idx = rng.u32() % trees[t].rows();
      MerkleOpening o = trees[t].open(idx);
      switch (q % 8) {  // corrupt three in eight, each a different way
        case 1: o.row[rng.u32() % o.row.size()] += BabyBear::one(); break;
        case 3:
          if (!o.siblings.empty()) o.siblings.back().e[rng.u32() % 8] += BabyBear::one();
          break;
        case 5: o.row.push_back(BabyBear::zero()); break;
        default: break;
      }
      openings.push_back(std::move(o));
      tree_of.push_back(t);
      checks.push_back({&trees[t].root(), trees[t].rows(), trees[t].cols(), idx, nullptr});
    }
  for (size_t i = 0; i < checks.size(); ++i) checks[i].opening = &openings[i];
  checks.push_back({nullptr, 8, 16, 0, &openings[0]});
  for (SimdLevel level : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
    set_simd_level_cap(level);
    const std::vector<uint8_t> ok = merkle_verify_batch(checks, whir_params());
    ASSERT_EQ(ok.size(), checks.size());
    size_t accepted = 0;
    for (size_t i = 0; i + 1 < checks.size(); ++i) {
      const MerkleCheck& c = checks[i];
      EXPECT_EQ(ok[i] != 0, merkle_verify(*c.root, c.rows, c.cols, c.index, *c.opening, whir_params()))
          << "check " << i << " simd " << to_string(level);
      accepted += ok[i];
    }
    EXPECT_EQ(ok.back(), 0) << "a null root must be rejected";
    EXPECT_GT(accepted, checks.size() / 2);
    EXPECT_LT(accepted, checks.size() - 1);
  }
  set_simd_level_cap(std::nullopt);
  EXPECT_TRUE(merkle_verify_batch({}, whir_params()).empty());
}

TEST(MerkleGpu, MatchesCpuOnRandomMatrices) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(16);
  // Small mode leaves out 2^16 rows (4096 already takes wide launches before the tail).
  for (size_t rows : test::sized<size_t>({1, 2, 16, 1024, 4096, size_t(1) << 16}, {1, 2, 16, 1024, 4096})) {
    for (size_t cols : {1, 2, 7, 8, 16, 24, 33}) {
      auto m = rng.fes(rows * cols);
      auto cpu = MerkleTree::build(m, rows, cols, whir_params(), Backend::Cpu);
      auto gpu = MerkleTree::build(m, rows, cols, whir_params(), Backend::Cuda);
      ASSERT_EQ(gpu.nodes().size(), cpu.nodes().size());
      for (size_t i = 0; i < cpu.nodes().size(); ++i)
        ASSERT_EQ(gpu.nodes()[i], cpu.nodes()[i]) << rows << "x" << cols << " node " << i;
    }
  }
#if ZKGPU_HAVE_CUDA
  // The entry point itself writes every node of a poisoned buffer.
  for (size_t rows : {1, 8, 2048}) {
    auto m = rng.fes(rows * 5);
    std::vector<Digest> nodes(2 * rows - 1);
    for (auto& d : nodes)
      for (auto& x : d.e) x.v = test::POISON_WORD;
    cuda::merkle_build_host(m.data(), rows, 5, whir_params(), nodes.data());
    auto ref = reference_nodes(m, rows, 5);
    for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(nodes[i], ref[i]) << rows << " rows, node " << i;
  }
#endif
  std::vector<BabyBear4> e(4096 * 3);
  for (auto& x : e) x = rng.fe4();
  EXPECT_EQ(MerkleTree::build(std::span<const BabyBear4>(e), 4096, 3, whir_params(), Backend::Cuda).root(),
            MerkleTree::build(std::span<const BabyBear4>(e), 4096, 3, whir_params(), Backend::Cpu).root());
}

}  // namespace
}  // namespace zkgpu
