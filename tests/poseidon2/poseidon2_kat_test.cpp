// Known answers for Poseidon2 over BabyBear: Plonky3's own KATs (set A and the Xoroshiro128+-seeded
// constants), the pinned set-B tables regenerated from SmallRng(1), and the derived set-B
// permutation / sponge / compression / Merkle vectors, through the scalar core, the CPU batch
// functions at every SIMD level and the public API.
#include <array>
#include <string>
#include <vector>

#include "poseidon2/poseidon2_rng.hpp"
#include "zkgpu/core/hash/sponge.hpp"
#include "poseidon2/cpu/batch.hpp"
#include "support/test_support.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

using test::canonical_vec;
using test::load_vectors;

const std::array<SimdLevel, 3> ALL_LEVELS = {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512};

// Caps the SIMD level for one scope; levels above the CPU's are silently the CPU's own.
struct SimdCap {
  explicit SimdCap(SimdLevel l) { set_simd_level_cap(l); }
  ~SimdCap() { set_simd_level_cap(std::nullopt); }
};

std::vector<uint32_t> canon(const BabyBear* x, size_t n) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = x[i].canonical();
  return v;
}
std::vector<uint32_t> canon(const Digest& d) { return canon(d.e, Digest::ELEMS); }
std::vector<uint32_t> u32s(const nlohmann::json& a) { return a.get<std::vector<uint32_t>>(); }

Digest digest_of(const nlohmann::json& a) {
  Digest d;
  auto v = canonical_vec(a);
  EXPECT_EQ(v.size(), size_t(Digest::ELEMS));
  for (int i = 0; i < Digest::ELEMS; ++i) d.e[i] = v[i];
  return d;
}

template <int W>
Poseidon2Params<W> kat_params(const std::string& constants) {
  if (constants.find("Xoroshiro128Plus::seed_from_u64(1)") != std::string::npos)
    return poseidon2_params_from_rng<W>(Poseidon2Rng::Xoroshiro128Plus, 1);
  EXPECT_NE(constants.find("default_babybear_poseidon2"), std::string::npos) << constants;
  return poseidon2_params<W>(Poseidon2Constants::Plonky3);
}

// Plonky3's KAT inputs go through BabyBear::from_u32, which reduces mod p; the width-24 input
// holds 2026927696 >= p, so reduce here too.
std::vector<BabyBear> reduced_vec(const nlohmann::json& a) {
  std::vector<BabyBear> v;
  for (auto& x : a) v.push_back(BabyBear::from_u64(x.get<uint32_t>()));
  return v;
}

template <int W>
void check_permutation(const nlohmann::json& v, const Poseidon2Params<W>& p, const std::string& name) {
  auto input = reduced_vec(v["input"]);
  auto expected = u32s(v.contains("expected") ? v["expected"] : v["output"]);
  ASSERT_EQ(input.size(), size_t(W));

  BabyBear s[W];
  for (int i = 0; i < W; ++i) s[i] = input[i];
  poseidon2_permute<W>(s, p);
  EXPECT_EQ(canon(s, W), expected) << name << " (scalar core)";

  // Batch: the vector in several lanes of a block, between random neighbours.
  for (SimdLevel l : ALL_LEVELS) {
    SimdCap cap(l);
    test::Rng rng(W);
    const size_t n = 19, at[] = {0, 7, 18};
    std::vector<BabyBear> states = rng.fes(n * W);
    for (size_t k : at) std::copy(input.begin(), input.end(), states.begin() + k * W);
    cpu::poseidon2_permute_batch(states.data(), n, p);
    for (size_t k : at)
      EXPECT_EQ(canon(&states[k * W], W), expected) << name << " (batch, " << to_string(l) << ", state " << k << ")";
  }
}

TEST(Poseidon2Kat, Plonky3KnownAnswers) {
  auto kat = load_vectors("poseidon2/poseidon2_babybear_plonky3_kat.json");
  ASSERT_EQ(kat["vectors"].size(), 4u);
  for (auto& v : kat["vectors"]) {
    std::string name = v["name"], constants = v["constants"];
    if (v["width"] == 16)
      check_permutation<16>(v, kat_params<16>(constants), name);
    else
      check_permutation<24>(v, kat_params<24>(constants), name);
  }
}

TEST(Poseidon2Kat, PublicApiDefaultSet) {
  auto kat = load_vectors("poseidon2/poseidon2_babybear_plonky3_kat.json");
  for (auto& v : kat["vectors"]) {
    if (std::string(v["name"]).find("default") == std::string::npos) continue;
    int w = v["width"];
    auto states = reduced_vec(v["input"]);
    poseidon2_permute_batch(states, w, Poseidon2Constants::Plonky3, Backend::Cpu);
    EXPECT_EQ(canon(states.data(), states.size()), u32s(v["expected"])) << v["name"];
  }
}

TEST(Poseidon2Kat, PublicApiRejectsBadShapes) {
  std::vector<BabyBear> s(16 * 3 + 1);
  auto code = [&](std::span<BabyBear> x, int w) {
    try {
      poseidon2_permute_batch(x, w, Poseidon2Constants::Whir, Backend::Cpu);
    } catch (const Error& e) {
      return static_cast<int>(e.code());
    }
    return -1;
  };
  EXPECT_EQ(code(s, 16), static_cast<int>(ErrorCode::InvalidArgument));
  EXPECT_EQ(code(std::span(s).first(40), 24), static_cast<int>(ErrorCode::InvalidArgument));
  EXPECT_EQ(code(std::span(s).first(32), 8), static_cast<int>(ErrorCode::InvalidArgument));
  EXPECT_EQ(code(std::span(s).first(48), 16), -1);
  EXPECT_EQ(code(std::span(s).first(0), 24), -1);
}

// rand's own stable_seed_from_u64 test stream for Xoshiro256++ (the spec's check of the RNG).
TEST(Poseidon2Rng, Xoshiro256PlusPlusMatchesRandStream) {
  auto r = rng::Xoshiro256PlusPlus::seed_from_u64(0);
  EXPECT_EQ(r.next_u64(), 5987356902031041503ull);
  EXPECT_EQ(r.next_u64(), 7051070477665621255ull);
  EXPECT_EQ(r.next_u64(), 6633766593972829180ull);
}

template <int W>
void expect_params_match_file(const Poseidon2Params<W>& p, const nlohmann::json& f, const char* what) {
  for (const char* form : {"canonical", "montgomery"}) {
    const bool monty = std::string(form) == "montgomery";
    auto word = [&](BabyBear x) { return monty ? x.v : x.canonical(); };
    const auto& t = f[form];
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < W; ++i) {
        EXPECT_EQ(word(p.ext_init[r][i]), t["external_initial"][r][i].template get<uint32_t>())
            << what << form << r << i;
        EXPECT_EQ(word(p.ext_term[r][i]), t["external_final"][r][i].template get<uint32_t>()) << what << form << r << i;
      }
    for (int j = 0; j < Poseidon2Params<W>::ROUNDS_P; ++j)
      EXPECT_EQ(word(p.internal[j]), t["internal"][j].template get<uint32_t>()) << what << form << j;
  }
}

TEST(Poseidon2Rng, SmallRngSeed1ReproducesPinnedSetB) {
  auto b16 = poseidon2_params_from_rng<16>(Poseidon2Rng::SmallRng, 1);
  auto b24 = poseidon2_params_from_rng<24>(Poseidon2Rng::SmallRng, 1);
  expect_params_match_file(b16, load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1.json"), "w16 ");
  expect_params_match_file(b24, load_vectors("poseidon2/poseidon2_babybear_w24_smallrng_seed1.json"), "w24 ");
  // And the compiled-in tables are the same words, diagonal included.
  auto w16 = poseidon2_params<16>(Poseidon2Constants::Whir);
  auto w24 = poseidon2_params<24>(Poseidon2Constants::Whir);
  EXPECT_EQ(std::memcmp(&b16, &w16, sizeof b16), 0);
  EXPECT_EQ(std::memcmp(&b24, &w24, sizeof b24), 0);
  // A different seed or generator gives different constants.
  auto other = poseidon2_params_from_rng<16>(Poseidon2Rng::SmallRng, 2);
  EXPECT_NE(other.ext_init[0][0], b16.ext_init[0][0]);
  auto xoro = poseidon2_params_from_rng<16>(Poseidon2Rng::Xoroshiro128Plus, 1);
  EXPECT_NE(xoro.ext_init[0][0], b16.ext_init[0][0]);
}

TEST(Poseidon2Rng, CompiledSetAMatchesFiles) {
  expect_params_match_file(poseidon2_params<16>(Poseidon2Constants::Plonky3),
                           load_vectors("poseidon2/poseidon2_babybear_w16_plonky3_default.json"), "A16 ");
  expect_params_match_file(poseidon2_params<24>(Poseidon2Constants::Plonky3),
                           load_vectors("poseidon2/poseidon2_babybear_w24_plonky3_default.json"), "A24 ");
}

// Spec §4.2 sanity prefixes (canonical).
TEST(Poseidon2Kat, SpecSanityPrefixes) {
  auto a = poseidon2_params<16>(Poseidon2Constants::Plonky3);
  auto b = poseidon2_params<16>(Poseidon2Constants::Whir);
  const uint32_t a_init[4] = {1774958255, 1185780729, 1621102414, 1796380621};
  const uint32_t a_int[4] = {1518359488, 1765533241, 945325693, 422793067};
  const uint32_t b_init[4] = {252551971, 694974649, 213757600, 1325013984};
  const uint32_t b_int[4] = {953144335, 336846230, 668938984, 1319048766};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(a.ext_init[0][i].canonical(), a_init[i]);
    EXPECT_EQ(a.internal[i].canonical(), a_int[i]);
    EXPECT_EQ(b.ext_init[0][i].canonical(), b_init[i]);
    EXPECT_EQ(b.internal[i].canonical(), b_int[i]);
  }
}

class DerivedVectors : public ::testing::Test {
 protected:
  nlohmann::json d = load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
  Poseidon2Params<16> p = poseidon2_params<16>(Poseidon2Constants::Whir);
};

TEST_F(DerivedVectors, Permutation) {
  ASSERT_GE(d["permutation_w16_smallrng_seed1"].size(), 3u);
  int k = 0;
  for (auto& v : d["permutation_w16_smallrng_seed1"]) check_permutation<16>(v, p, "derived #" + std::to_string(k++));
}

TEST_F(DerivedVectors, Sponge) {
  ASSERT_GE(d["padding_free_sponge_16_8_8"].size(), 4u);
  for (auto& v : d["padding_free_sponge_16_8_8"]) {
    auto row = canonical_vec(v["input"]);
    auto expected = u32s(v["digest"]);
    EXPECT_EQ(canon(sponge_hash(row.data(), row.size(), p)), expected) << row.size() << " inputs (core)";
    // The same row repeated in every lane of two SIMD blocks plus a partial one.
    const size_t rows = 37;
    std::vector<BabyBear> m;
    for (size_t r = 0; r < rows; ++r) m.insert(m.end(), row.begin(), row.end());
    for (SimdLevel l : ALL_LEVELS) {
      SimdCap cap(l);
      std::vector<Digest> out(rows);
      cpu::hash_rows(m.data(), rows, row.size(), p, out.data());
      for (size_t r = 0; r < rows; ++r)
        ASSERT_EQ(canon(out[r]), expected) << row.size() << " inputs, row " << r << ", " << to_string(l);
    }
  }
}

TEST_F(DerivedVectors, EmptyRowsHashToZero) {
  Digest zero{};
  EXPECT_EQ(sponge_hash(nullptr, 0, p), zero);
  for (SimdLevel l : ALL_LEVELS) {
    SimdCap cap(l);
    std::vector<Digest> out(21);
    for (auto& o : out)
      for (auto& e : o.e) e.v = test::POISON_WORD;
    cpu::hash_rows(nullptr, out.size(), 0, p, out.data());
    for (auto& o : out) EXPECT_EQ(o, zero) << to_string(l);
  }
}

TEST_F(DerivedVectors, Compression) {
  ASSERT_GE(d["truncated_permutation_2_8_16"].size(), 1u);
  for (auto& v : d["truncated_permutation_2_8_16"]) {
    Digest l = digest_of(v["left"]), r = digest_of(v["right"]);
    auto expected = u32s(v["output"]);
    EXPECT_EQ(canon(compress(l, r, p)), expected);
    for (SimdLevel lv : ALL_LEVELS) {
      SimdCap cap(lv);
      const size_t n = 18;
      std::vector<Digest> in(2 * n), out(n);
      for (size_t j = 0; j < n; ++j) in[2 * j] = l, in[2 * j + 1] = r;
      cpu::compress_pairs(in.data(), n, p, out.data());
      for (size_t j = 0; j < n; ++j) EXPECT_EQ(canon(out[j]), expected) << j << " " << to_string(lv);
    }
  }
}

// The Merkle examples exercise hash_rows on 2- and 8-column rows and compress_pairs level by level.
TEST_F(DerivedVectors, MerkleLevels) {
  const auto& mb = d["merkle_base_matrix_8x2"];
  std::vector<BabyBear> m;
  for (auto& row : mb["rows"])
    for (auto x : canonical_vec(row)) m.push_back(x);
  for (SimdLevel lv : ALL_LEVELS) {
    SimdCap cap(lv);
    std::vector<Digest> leaves(8), l1(4), l2(2), root(1);
    cpu::hash_rows(m.data(), 8, 2, p, leaves.data());
    for (size_t i = 0; i < 8; ++i) EXPECT_EQ(canon(leaves[i]), u32s(mb["leaf_digests"][i])) << i;
    cpu::compress_pairs(leaves.data(), 4, p, l1.data());
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(canon(l1[i]), u32s(mb["level1"][i])) << i;
    cpu::compress_pairs(l1.data(), 2, p, l2.data());
    for (size_t i = 0; i < 2; ++i) EXPECT_EQ(canon(l2[i]), u32s(mb["level2"][i])) << i;
    cpu::compress_pairs(l2.data(), 1, p, root.data());
    EXPECT_EQ(canon(root[0]), u32s(mb["root"])) << to_string(lv);
  }
  const auto& me = d["merkle_extension_matrix_4x2"];
  std::vector<BabyBear> f;
  for (auto& row : me["rows_flattened"])
    for (auto x : canonical_vec(row)) f.push_back(x);
  const size_t rows = me["rows_flattened"].size(), cols = f.size() / rows;
  std::vector<Digest> leaves(rows);
  cpu::hash_rows(f.data(), rows, cols, p, leaves.data());
  for (size_t i = 0; i < rows; ++i) EXPECT_EQ(canon(leaves[i]), u32s(me["leaf_digests"][i])) << i;
}

}  // namespace
}  // namespace zkgpu
