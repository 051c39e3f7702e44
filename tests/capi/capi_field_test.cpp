// The C ABI's NTT, LDE, Poseidon2 and Merkle calls against the C++ API (byte for byte, in both
// representations) and the Poseidon2 vector files, plus their argument checks.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "capi/capi_test_support.hpp"
#include "zkgpu/merkle.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/poseidon2.hpp"

namespace zkgpu::test {
namespace {

constexpr auto CANON = ZKGPU_BABYBEAR_CANONICAL;
constexpr auto MONT = ZKGPU_BABYBEAR_MONTGOMERY;
constexpr auto CPU = ZKGPU_BACKEND_CPU;

TEST(CApiNtt, EqualsTheCxxApiInBothRepresentations) {
  Rng rng(1);
  for (unsigned log_n : {0u, 1u, 5u, 11u}) {
    for (size_t cols : {size_t{1}, size_t{3}}) {
      const std::vector<BabyBear> m = random_field(rng, cols << log_n);
      const BabyBear shift = BabyBear::from_canonical(31);
      for (auto dir : {ZKGPU_NTT_FORWARD, ZKGPU_NTT_INVERSE}) {
        std::vector<BabyBear> want = m;
        ntt(want, log_n, cols, dir == ZKGPU_NTT_FORWARD ? NttDirection::Forward : NttDirection::Inverse, shift,
            Backend::Cpu);
        std::vector<uint32_t> c = canonical_words(m), w = monty_words(m);
        EXPECT_CAPI_OK(zkgpu_ntt(c.data(), log_n, cols, dir, 31, CANON, CPU));
        EXPECT_CAPI_OK(zkgpu_ntt(w.data(), log_n, cols, dir, shift.v, MONT, CPU));
        EXPECT_EQ(c, canonical_words(want)) << "log_n " << log_n << " cols " << cols;
        EXPECT_EQ(w, monty_words(want));
      }
    }
  }
}

TEST(CApiNtt, LdesEqualTheCxxApi) {
  Rng rng(2);
  const unsigned log_n = 6, blowup = 3;
  const size_t cols = 2;
  const std::vector<BabyBear> m = random_field(rng, cols << log_n);
  const BabyBear shift = BabyBear::from_canonical(7);
  const std::vector<uint32_t> c = canonical_words(m), w = monty_words(m);
  std::vector<uint32_t> out(cols << (log_n + blowup));
  EXPECT_CAPI_OK(zkgpu_coset_lde(c.data(), log_n, cols, blowup, 7, CANON, CPU, out.data()));
  EXPECT_EQ(out, canonical_words(coset_lde(m, log_n, cols, blowup, shift, Backend::Cpu)));
  EXPECT_CAPI_OK(zkgpu_lde_from_coeffs(w.data(), log_n, cols, blowup, shift.v, MONT, CPU, out.data()));
  EXPECT_EQ(out, monty_words(lde_from_coeffs(m, log_n, cols, blowup, shift, Backend::Cpu)));
}

TEST(CApiNtt, BadArgumentsLeaveTheMatrixAlone) {
  std::vector<uint32_t> m(16, 5), out(64);
  const std::vector<uint32_t> orig = m;
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 4, 1, ZKGPU_NTT_FORWARD, 0, CANON, CPU), ZKGPU_INVALID_ARGUMENT, "shift");
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 28, 1, ZKGPU_NTT_FORWARD, 1, CANON, CPU), ZKGPU_INVALID_ARGUMENT, "2^28");
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 4, 0, ZKGPU_NTT_FORWARD, 1, CANON, CPU), ZKGPU_INVALID_ARGUMENT, "cols");
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 4, 1, (zkgpu_ntt_direction)2, 1, CANON, CPU), ZKGPU_INVALID_ARGUMENT,
                  "direction 2");
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 4, 1, ZKGPU_NTT_FORWARD, 1, (zkgpu_babybear_repr)9, CPU), ZKGPU_INVALID_ARGUMENT,
                  "repr 9");
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 4, 1, ZKGPU_NTT_FORWARD, 1, CANON, (zkgpu_backend)7), ZKGPU_INVALID_ARGUMENT,
                  "backend 7");
  EXPECT_CAPI_ERR(zkgpu_ntt(nullptr, 4, 1, ZKGPU_NTT_FORWARD, 1, CANON, CPU), ZKGPU_INVALID_ARGUMENT, "matrix");
  m[9] = BabyBear::P;  // a non-canonical value is refused before any element is converted
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 4, 1, ZKGPU_NTT_FORWARD, 1, CANON, CPU), ZKGPU_INVALID_ARGUMENT, "matrix[9]");
  m[9] = orig[9];
  EXPECT_EQ(m, orig);
  // 2^27 rows x SIZE_MAX columns overflows size_t: an error, not a huge allocation.
  EXPECT_CAPI_ERR(zkgpu_ntt(m.data(), 27, SIZE_MAX, ZKGPU_NTT_FORWARD, 1, CANON, CPU), ZKGPU_INVALID_ARGUMENT,
                  "overflows");
  EXPECT_CAPI_ERR(zkgpu_coset_lde(m.data(), 4, 1, 24, 1, CANON, CPU, out.data()), ZKGPU_INVALID_ARGUMENT, "28");
  EXPECT_CAPI_ERR(zkgpu_lde_from_coeffs(m.data(), 4, 1, 2, 1, CANON, CPU, nullptr), ZKGPU_INVALID_ARGUMENT, "out");
  EXPECT_CAPI_ERR(zkgpu_lde_from_coeffs(out.data() + 8, 4, 1, 2, 1, CANON, CPU, out.data()), ZKGPU_INVALID_ARGUMENT,
                  "overlaps");
}

TEST(CApiPoseidon2, VectorFilesInBothRepresentations) {
  const auto kat = load_vectors("poseidon2/poseidon2_babybear_plonky3_kat.json");
  size_t checked = 0;
  for (const auto& v : kat["vectors"]) {
    // The file's other vectors use Xoroshiro-drawn constants, which no C ABI name selects.
    if (v["constants"].get<std::string>().rfind("default_babybear_poseidon2_", 0) != 0) continue;
    ++checked;
    const size_t width = v["width"];
    std::vector<uint32_t> c = v["input"].get<std::vector<uint32_t>>(), w;
    const std::vector<uint32_t> want = v["expected"].get<std::vector<uint32_t>>();
    // Plonky3's inputs are reduced mod p by its test (the width-24 one holds a word >= p); the C
    // ABI refuses such words, so it gets them reduced.
    for (uint32_t& x : c) x %= BabyBear::P;
    for (uint32_t x : c) w.push_back(BabyBear::from_canonical(x).v);
    EXPECT_CAPI_OK(zkgpu_poseidon2_permute(c.data(), 1, width, "babybear", "plonky3", ZKGPU_BACKEND_AUTO));
    EXPECT_EQ(c, want) << v["name"];
    EXPECT_CAPI_OK(zkgpu_poseidon2_permute_repr(w.data(), 1, width, "babybear", "plonky3", MONT, CPU));
    for (size_t i = 0; i < width; ++i) EXPECT_EQ(BabyBear::from_monty(w[i]).canonical(), want[i]);
  }
  EXPECT_EQ(checked, 2u);  // widths 16 and 24
  const auto whir = load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
  for (const auto& v : whir["permutation_w16_smallrng_seed1"]) {
    std::vector<uint32_t> s = v["input"].get<std::vector<uint32_t>>();
    EXPECT_CAPI_OK(zkgpu_poseidon2_permute(s.data(), 1, 16, "babybear", "whir", CPU));
    EXPECT_EQ(s, v["output"].get<std::vector<uint32_t>>());
  }
}

TEST(CApiPoseidon2, BatchEqualsTheCxxApi) {
  Rng rng(3);
  for (int width : {16, 24}) {
    const std::vector<BabyBear> states = random_field(rng, size_t(width) * 37);
    std::vector<BabyBear> want = states;
    poseidon2_permute_batch(want, width, Poseidon2Constants::Whir, Backend::Cpu);
    std::vector<uint32_t> c = canonical_words(states);
    EXPECT_CAPI_OK(zkgpu_poseidon2_permute(c.data(), 37, size_t(width), "babybear", "whir", CPU));
    EXPECT_EQ(c, canonical_words(want));
  }
}

// KoalaBear through the same call: Plonky3's known answers (koala-bear/src/poseidon2.rs at
// 0056fa836d7fba9cb3fc77f3bbc47abd59c80ac0, test_default_koalabear_poseidon2_width_16 and
// test_poseidon2_width_16_random) in both representations, and the names it refuses.
TEST(CApiPoseidon2, KoalaBearKnownAnswersAndNames) {
  using K = KoalaBear;
  const std::vector<uint32_t> in = {894848333,  1437655012, 1200606629, 1690012884, 71131202,   1749206695,
                                    1717947831, 120589055,  19776022,   42382981,   1831865506, 724844064,
                                    171220207,  1299207443, 227047920,  1783754913};
  const std::vector<uint32_t> want_a = {1934285469, 604889435,  133449501,  1026180808, 1830659359, 176667110,
                                        1391183747, 351743874,  1238264085, 1292768839, 2023573270, 1201586780,
                                        1360691759, 1230682461, 748270449,  651545025};
  const std::vector<uint32_t> want_b = {652590279,  1200629963, 1013089423, 1840372851, 19101828,   561050015,
                                        1714865585, 994637181,  498949829,  729884572,  1957973925, 263012103,
                                        535029297,  2121808603, 964663675,  1473622080};
  std::vector<uint32_t> s = in;
  EXPECT_CAPI_OK(zkgpu_poseidon2_permute(s.data(), 1, 16, "koalabear", "plonky3", ZKGPU_BACKEND_AUTO));
  EXPECT_EQ(s, want_a);
  s = in;
  EXPECT_CAPI_OK(zkgpu_poseidon2_permute(s.data(), 1, 16, "koalabear", "xoroshiro1", CPU));
  EXPECT_EQ(s, want_b);
  std::vector<uint32_t> w;
  for (uint32_t x : in) w.push_back(K::from_canonical(x).v);
  EXPECT_CAPI_OK(zkgpu_poseidon2_permute_repr(w.data(), 1, 16, "koalabear", "plonky3", MONT, CPU));
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(K::from_monty(w[i]).canonical(), want_a[i]);

  s = in;
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 1, 16, "koalabear", "whir", CPU), ZKGPU_INVALID_ARGUMENT,
                  "\"whir\"", "plonky3", "xoroshiro1");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 1, 16, "babybear", "xoroshiro1", CPU), ZKGPU_INVALID_ARGUMENT,
                  "\"xoroshiro1\"");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 1, 8, "koalabear", "plonky3", CPU), ZKGPU_INVALID_ARGUMENT,
                  "width 8");
  s[5] = K::P;  // not a KoalaBear word: refused before anything is written
  std::vector<uint32_t> before = s;
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 1, 16, "koalabear", "plonky3", CPU), ZKGPU_INVALID_ARGUMENT,
                  "states[5] = 2130706433 is not a KoalaBear word");
  EXPECT_EQ(s, before);
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute_device(s.data(), 1, 16, "koalabear", "plonky3", nullptr),
                  ZKGPU_INVALID_ARGUMENT, "host calls only");
}

TEST(CApiPoseidon2, NamesWidthsAndPointers) {
  std::vector<uint32_t> s(32, 1);
  const std::vector<uint32_t> orig = s;
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 2, 16, "goldilocks", "plonky3", CPU), ZKGPU_INVALID_ARGUMENT,
                  "goldilocks");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 2, 16, "babybear", "Plonky3", CPU), ZKGPU_INVALID_ARGUMENT,
                  "\"Plonky3\"", "plonky3", "whir");
  // Bytes that are not UTF-8 come back escaped, so the message itself stays printable ASCII.
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 2, 16, "babybear", "wh\xff\xc3(", CPU), ZKGPU_INVALID_ARGUMENT,
                  "wh\\xff\\xc3(");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 2, 16, nullptr, "whir", CPU), ZKGPU_INVALID_ARGUMENT, "field");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 2, 16, "babybear", nullptr, CPU), ZKGPU_INVALID_ARGUMENT,
                  "constants");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), 2, 8, "babybear", "whir", CPU), ZKGPU_INVALID_ARGUMENT, "width 8");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(s.data(), SIZE_MAX / 8, 16, "babybear", "whir", CPU), ZKGPU_INVALID_ARGUMENT,
                  "overflows");
  EXPECT_CAPI_ERR(zkgpu_poseidon2_permute(nullptr, 2, 16, "babybear", "whir", CPU), ZKGPU_INVALID_ARGUMENT, "states");
  EXPECT_CAPI_OK(zkgpu_poseidon2_permute(nullptr, 0, 16, "babybear", "whir", CPU));
  EXPECT_EQ(s, orig);
}

TEST(CApiMerkle, TreeEqualsTheCxxApi) {
  Rng rng(4);
  const size_t rows = 64, cols = 5;
  const std::vector<BabyBear> m = random_field(rng, rows * cols);
  const auto p = poseidon2_params<16>(Poseidon2Constants::Plonky3);
  const MerkleTree want = MerkleTree::build(m, rows, cols, p, Backend::Cpu);
  for (auto repr : {CANON, MONT}) {
    const std::vector<uint32_t> words = repr == CANON ? canonical_words(m) : monty_words(m);
    zkgpu_merkle_tree* tree = nullptr;
    ASSERT_TRUE(status_is(zkgpu_merkle_build(words.data(), rows, cols, "plonky3", repr, CPU, &tree), ZKGPU_OK));
    std::vector<uint32_t> nodes((2 * rows - 1) * 8), root(8), row(cols), sib(6 * 8);
    EXPECT_CAPI_OK(zkgpu_merkle_nodes(tree, nodes.data(), nodes.size()));
    std::vector<BabyBear> want_nodes;
    for (const Digest& d : want.nodes()) want_nodes.insert(want_nodes.end(), d.e, d.e + 8);
    EXPECT_EQ(nodes, repr == CANON ? canonical_words(want_nodes) : monty_words(want_nodes));
    EXPECT_CAPI_OK(zkgpu_merkle_root(tree, root.data()));
    EXPECT_TRUE(std::equal(root.begin(), root.end(), nodes.end() - 8));
    for (size_t index : {size_t{0}, size_t{37}, rows - 1}) {
      EXPECT_CAPI_OK(zkgpu_merkle_open(tree, index, row.data(), cols, sib.data(), sib.size()));
      uint8_t ok = 9;
      EXPECT_CAPI_OK(
          zkgpu_merkle_verify(root.data(), rows, cols, index, row.data(), sib.data(), 6, "plonky3", repr, &ok));
      EXPECT_EQ(ok, 1);
      // Each way of lying is a rejection, not an error.
      EXPECT_CAPI_OK(
          zkgpu_merkle_verify(root.data(), rows, cols, index ^ 1, row.data(), sib.data(), 6, "plonky3", repr, &ok));
      EXPECT_EQ(ok, 0);
      EXPECT_CAPI_OK(
          zkgpu_merkle_verify(root.data(), rows, cols, index, row.data(), sib.data(), 5, "plonky3", repr, &ok));
      EXPECT_EQ(ok, 0);
      EXPECT_CAPI_OK(
          zkgpu_merkle_verify(root.data(), rows * 2, cols, index, row.data(), sib.data(), 6, "plonky3", repr, &ok));
      EXPECT_EQ(ok, 0);
      sib[3] = BabyBear::P + 1;  // a non-canonical word in the opening
      EXPECT_CAPI_OK(
          zkgpu_merkle_verify(root.data(), rows, cols, index, row.data(), sib.data(), 6, "plonky3", repr, &ok));
      EXPECT_EQ(ok, 0);
    }
    zkgpu_merkle_free(tree);
  }
}

TEST(CApiMerkle, BadArguments) {
  std::vector<uint32_t> m(24, 3), row(3), sib(24), root(8);
  zkgpu_merkle_tree* tree = reinterpret_cast<zkgpu_merkle_tree*>(&m);  // must be overwritten with NULL
  EXPECT_CAPI_ERR(zkgpu_merkle_build(m.data(), 6, 4, "whir", CANON, CPU, &tree), ZKGPU_INVALID_ARGUMENT,
                  "power of two");
  EXPECT_EQ(tree, nullptr);
  EXPECT_CAPI_ERR(zkgpu_merkle_build(m.data(), 8, 3, "sha256", CANON, CPU, &tree), ZKGPU_INVALID_ARGUMENT, "sha256");
  EXPECT_CAPI_ERR(zkgpu_merkle_build(nullptr, 8, 3, "whir", CANON, CPU, &tree), ZKGPU_INVALID_ARGUMENT, "matrix");
  EXPECT_CAPI_ERR(zkgpu_merkle_build(m.data(), 8, 3, "whir", CANON, CPU, nullptr), ZKGPU_INVALID_ARGUMENT, "out_tree");
  ASSERT_TRUE(status_is(zkgpu_merkle_build(m.data(), 8, 3, "whir", CANON, CPU, &tree), ZKGPU_OK));
  EXPECT_CAPI_ERR(zkgpu_merkle_open(tree, 8, row.data(), 3, sib.data(), 24), ZKGPU_INVALID_ARGUMENT, "out of range");
  EXPECT_CAPI_ERR(zkgpu_merkle_open(tree, 1, row.data(), 2, sib.data(), 24), ZKGPU_INVALID_ARGUMENT, "row_len");
  EXPECT_CAPI_ERR(zkgpu_merkle_open(tree, 1, row.data(), 3, sib.data(), 16), ZKGPU_INVALID_ARGUMENT, "siblings_words");
  EXPECT_CAPI_ERR(zkgpu_merkle_open(tree, 1, sib.data(), 3, sib.data(), 24), ZKGPU_INVALID_ARGUMENT, "overlaps");
  EXPECT_CAPI_ERR(zkgpu_merkle_nodes(tree, sib.data(), 24), ZKGPU_INVALID_ARGUMENT, "nodes_words");
  EXPECT_CAPI_ERR(zkgpu_merkle_root(nullptr, root.data()), ZKGPU_INVALID_ARGUMENT, "tree");
  EXPECT_CAPI_OK(zkgpu_merkle_shape(tree, nullptr, nullptr, nullptr));
  uint8_t ok = 0;
  root[0] = BabyBear::P;  // the verifier's own root must be valid: an error, not a rejection
  EXPECT_CAPI_ERR(zkgpu_merkle_verify(root.data(), 8, 3, 1, row.data(), sib.data(), 3, "whir", CANON, &ok),
                  ZKGPU_INVALID_ARGUMENT, "root[0]");
  root[0] = 0;
  EXPECT_CAPI_ERR(zkgpu_merkle_verify(root.data(), 8, 3, 1, nullptr, sib.data(), 3, "whir", CANON, &ok),
                  ZKGPU_INVALID_ARGUMENT, "row");
  EXPECT_CAPI_ERR(zkgpu_merkle_verify(root.data(), 8, 3, 1, row.data(), sib.data(), 3, "whir", CANON, nullptr),
                  ZKGPU_INVALID_ARGUMENT, "accepted");
  zkgpu_merkle_free(tree);
}

}  // namespace
}  // namespace zkgpu::test
