// CPU batch Poseidon2 == the scalar core, bit for bit, at every SIMD level, for batch sizes that
// are not multiples of any lane count and row widths around the sponge rate.
#include <array>
#include <vector>

#include "zkgpu/core/hash/sponge.hpp"
#include "poseidon2/cpu/batch.hpp"
#include "poseidon2/cpu/packed_permute.hpp"
#include "support/test_support.hpp"
#include "zkgpu/poseidon2.hpp"

namespace zkgpu {
namespace {

const std::array<SimdLevel, 3> ALL_LEVELS = {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512};
const size_t BATCH_SIZES[] = {1, 15, 17, 1000};

struct SimdCap {
  explicit SimdCap(SimdLevel l) { set_simd_level_cap(l); }
  ~SimdCap() { set_simd_level_cap(std::nullopt); }
};

template <int W>
std::vector<BabyBear> scalar_permute(std::vector<BabyBear> states, const Poseidon2Params<W>& p) {
  for (size_t k = 0; k < states.size() / W; ++k)
    poseidon2_permute<W>(*reinterpret_cast<BabyBear(*)[W]>(&states[k * W]), p);
  return states;
}

bool same_words(const std::vector<BabyBear>& a, const std::vector<BabyBear>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(BabyBear)) == 0;
}

template <int W>
void check_permute_batch(const Poseidon2Params<W>& p, uint64_t salt) {
  for (size_t n : BATCH_SIZES) {
    test::Rng rng(salt + n);
    auto input = rng.fes(n * W);
    auto expected = scalar_permute<W>(input, p);
    for (SimdLevel l : ALL_LEVELS) {
      SimdCap cap(l);
      auto got = input;
      cpu::poseidon2_permute_batch(got.data(), n, p);
      EXPECT_TRUE(same_words(got, expected)) << "W=" << W << " n=" << n << " " << to_string(l);
    }
  }
}

TEST(Poseidon2Batch, PermuteMatchesScalarBothSets) {
  for (auto set : {Poseidon2Constants::Plonky3, Poseidon2Constants::Whir}) {
    check_permute_batch<16>(poseidon2_params<16>(set), 16);
    check_permute_batch<24>(poseidon2_params<24>(set), 24);
  }
}

// A hand-built diagonal takes the generic internal layer instead of the hard-coded V.
TEST(Poseidon2Batch, PermuteMatchesScalarWithOtherDiagonal) {
  test::Rng rng(7);
  auto p16 = poseidon2_params<16>(Poseidon2Constants::Whir);
  auto p24 = poseidon2_params<24>(Poseidon2Constants::Plonky3);
  for (auto& x : p16.diag) x = rng.fe();
  for (auto& x : p24.diag) x = rng.fe();
  EXPECT_FALSE(cpu::p2::has_standard_diag(p16));
  EXPECT_TRUE(cpu::p2::has_standard_diag(poseidon2_params<24>(Poseidon2Constants::Whir)));
  check_permute_batch<16>(p16, 116);
  check_permute_batch<24>(p24, 124);
}

// Edge words through the shift form of x * 2^-n: 0, 1, p - 1, powers of two, and their
// neighbours, against a multiplication by the field constant.
TEST(Poseidon2Batch, ShiftFormOfInversePowersOfTwo) {
  std::vector<uint32_t> words = {
      0, 1, 2, BabyBear::P - 1, BabyBear::P - 2, (BabyBear::P - 1) / 2, (BabyBear::P + 1) / 2};
  for (int k = 0; k < 31; ++k)
    for (int64_t d : {-1, 0, 1}) {
      int64_t w = (int64_t(1) << k) + d;
      if (w >= 0 && w < BabyBear::P) words.push_back(static_cast<uint32_t>(w));
    }
  test::Rng rng(3);
  for (int i = 0; i < 2000; ++i) words.push_back(rng.fe().v);
  auto inv2 = [](unsigned n) {
    BabyBear r = BabyBear::one();
    for (unsigned i = 0; i < n; ++i) r = r.halve();
    return r;
  };
  for (uint32_t w : words) {
    BabyBear x = BabyBear::from_monty(w);
    EXPECT_EQ(cpu::p2::mul_2exp_neg_word<1>(w), (x * inv2(1)).v) << w;
    EXPECT_EQ(cpu::p2::mul_2exp_neg_word<2>(w), (x * inv2(2)).v) << w;
    EXPECT_EQ(cpu::p2::mul_2exp_neg_word<8>(w), (x * inv2(8)).v) << w;
    EXPECT_EQ(cpu::p2::mul_2exp_neg_word<27>(w), (x * inv2(27)).v) << w;
  }
}

// Random rows of many widths; rows with identical prefixes in different lanes must not mix.
TEST(Poseidon2Batch, HashRowsMatchesSponge) {
  auto p = poseidon2_params<16>(Poseidon2Constants::Whir);
  for (size_t cols : {0, 1, 7, 8, 9, 16, 33}) {
    for (size_t rows : BATCH_SIZES) {
      test::Rng rng(cols * 1000 + rows);
      auto m = rng.fes(rows * cols);
      std::vector<Digest> expected(rows);
      for (size_t r = 0; r < rows; ++r) expected[r] = sponge_hash(m.data() + r * cols, cols, p);
      for (SimdLevel l : ALL_LEVELS) {
        SimdCap cap(l);
        std::vector<Digest> out(rows + 1);
        for (auto& d : out)
          for (auto& e : d.e) e.v = test::POISON_WORD;
        cpu::hash_rows(m.data(), rows, cols, p, out.data());
        size_t bad = 0;
        for (size_t r = 0; r < rows; ++r) bad += out[r] != expected[r];
        EXPECT_EQ(bad, 0u) << "rows=" << rows << " cols=" << cols << " " << to_string(l);
        for (auto& e : out[rows].e) EXPECT_EQ(e.v, test::POISON_WORD) << "wrote past the last digest";
      }
    }
  }
}

TEST(Poseidon2Batch, CompressPairsMatchesCompress) {
  for (auto set : {Poseidon2Constants::Plonky3, Poseidon2Constants::Whir}) {
    auto p = poseidon2_params<16>(set);
    for (size_t n : BATCH_SIZES) {
      test::Rng rng(n + 77);
      std::vector<Digest> in(2 * n);
      for (auto& d : in)
        for (auto& e : d.e) e = rng.fe();
      for (SimdLevel l : ALL_LEVELS) {
        SimdCap cap(l);
        std::vector<Digest> out(n + 1);
        for (auto& d : out)
          for (auto& e : d.e) e.v = test::POISON_WORD;
        cpu::compress_pairs(in.data(), n, p, out.data());
        size_t bad = 0;
        for (size_t j = 0; j < n; ++j) bad += out[j] != compress(in[2 * j], in[2 * j + 1], p);
        EXPECT_EQ(bad, 0u) << "n=" << n << " " << to_string(l);
        for (auto& e : out[n].e) EXPECT_EQ(e.v, test::POISON_WORD) << "wrote past the last digest";
      }
    }
  }
}

TEST(Poseidon2Batch, PublicApiMatchesScalar) {
  for (int w : {16, 24}) {
    for (auto set : {Poseidon2Constants::Plonky3, Poseidon2Constants::Whir}) {
      test::Rng rng(w);
      auto states = rng.fes(33 * static_cast<size_t>(w));
      auto expected = w == 16 ? scalar_permute<16>(states, poseidon2_params<16>(set))
                              : scalar_permute<24>(states, poseidon2_params<24>(set));
      poseidon2_permute_batch(states, w, set, Backend::Cpu);
      EXPECT_TRUE(same_words(states, expected)) << w;
    }
  }
}

}  // namespace
}  // namespace zkgpu
