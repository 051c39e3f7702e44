// ML-KEM batch API properties on random inputs: round trips, implicit rejection equals
// J(z || c), mixed batches with invalid items, batch == one-by-one, and size errors.
#include <gtest/gtest.h>

#include <cstdint>

#include "zkgpu/core/keccak/keccak.hpp"
#include "mlkem/mlkem_support.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::test {
namespace {

class MlKemApi : public ::testing::TestWithParam<int> {
 protected:
  MlKemSet set() const { return *parse_mlkem_set(std::to_string(GetParam())); }
};

TEST_P(MlKemApi, RoundTripAndImplicitRejection) {
  Rng rng(GetParam());
  const auto sz = mlkem_sizes(set());
  const size_t n = 24;
  const Bytes seeds = rng.bytes(n * 64);
  Bytes ek(n * sz.ek), dk(n * sz.dk), c(n * sz.ct), k(n * 32), k2(n * 32);
  std::vector<PqStatus> st(n, PqStatus::InvalidInput), st2(n, PqStatus::InvalidInput);
  mlkem_keygen_batch(set(), seeds, ek, dk, Backend::Cpu);
  mlkem_encaps_random_batch(set(), ek, c, k, st, Backend::Auto);
  mlkem_decaps_batch(set(), dk, c, k2, st2, Backend::Cpu);
  for (size_t i = 0; i < n; ++i) ASSERT_TRUE(st[i] == PqStatus::Ok && st2[i] == PqStatus::Ok);
  EXPECT_EQ(k, k2);
  // Flip one bit of each ciphertext: decapsulation still succeeds, with K-bar = J(z || c).
  for (size_t i = 0; i < n; ++i) c[i * sz.ct + (rng.u32() % sz.ct)] ^= uint8_t(1u << (rng.u32() % 8));
  mlkem_decaps_batch(set(), dk, c, k2, st2, Backend::Cpu);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(st2[i], PqStatus::Ok);
    uint8_t expect[32];
    keccak::Sponge j = keccak::shake256();
    j.absorb(&dk[i * sz.dk + sz.dk - 32], 32);
    j.absorb(&c[i * sz.ct], sz.ct);
    j.squeeze(expect, 32);
    EXPECT_EQ(Bytes(expect, expect + 32), Bytes(&k2[i * 32], &k2[i * 32] + 32)) << "item " << i;
  }
}

TEST_P(MlKemApi, MixedBatchMatchesOneByOne) {
  Rng rng(100 + GetParam());
  const auto sz = mlkem_sizes(set());
  const size_t n = 16;
  Bytes ek(n * sz.ek), dk(n * sz.dk);
  mlkem_keygen_batch(set(), rng.bytes(n * 64), ek, dk, Backend::Cpu);
  // Every third ek gets a coefficient >= q (the first 12-bit value set to 4095); every fourth dk
  // gets a corrupted stored hash.
  for (size_t i = 0; i < n; i += 3) {
    uint8_t* e = ek.data() + i * sz.ek;
    e[0] = 0xff;
    e[1] = uint8_t(e[1] | 0x0f);
  }
  for (size_t i = 0; i < n; i += 4) dk.at(i * sz.dk + sz.dk - 64) ^= 1;
  const Bytes m = rng.bytes(n * 32);
  Bytes c(n * sz.ct, 0xaa), k(n * 32, 0xaa);
  std::vector<PqStatus> st(n);
  mlkem_encaps_batch(set(), ek, m, c, k, st, Backend::Cpu);
  Bytes c_ok(sz.ct);
  for (size_t i = 0; i < n; ++i) {
    const Bytes eki(&ek[i * sz.ek], &ek[(i + 1) * sz.ek]);
    const auto one = kem_encaps(set(), eki, Bytes(&m[i * 32], &m[i * 32] + 32));
    EXPECT_EQ(st[i] == PqStatus::Ok, i % 3 != 0) << i;
    EXPECT_EQ(one.has_value(), i % 3 != 0) << i;
    if (one) {
      EXPECT_EQ(one->first, Bytes(&c[i * sz.ct], &c[(i + 1) * sz.ct]));
      c_ok = one->first;
    } else {
      EXPECT_EQ(Bytes(&c[i * sz.ct], &c[(i + 1) * sz.ct]), Bytes(sz.ct, 0)) << "rejected slots are zeroed";
    }
  }
  Bytes cs;
  for (size_t i = 0; i < n; ++i) cs.insert(cs.end(), c_ok.begin(), c_ok.end());
  mlkem_decaps_batch(set(), dk, cs, k, st, Backend::Cpu);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(st[i] == PqStatus::Ok, i % 4 != 0) << i;
}

TEST_P(MlKemApi, WrongBufferSizesThrow) {
  const auto sz = mlkem_sizes(set());
  Bytes seeds(64), ek(sz.ek), dk(sz.dk + 1);
  EXPECT_THROW(mlkem_keygen_batch(set(), seeds, ek, dk, Backend::Cpu), Error);
  Bytes m(31), c(sz.ct), k(32);
  std::vector<PqStatus> st(1);
  EXPECT_THROW(mlkem_encaps_batch(set(), ek, m, c, k, st, Backend::Cpu), Error);
  dk.resize(sz.dk);
  Bytes short_c(sz.ct - 1);
  EXPECT_THROW(mlkem_decaps_batch(set(), dk, short_c, k, st, Backend::Cpu), Error);
}

// The options overloads give the Backend overloads' bytes; the CPU backend leaves a PhaseTimes
// alone, and so does Auto with a crossover no batch reaches (it never takes the GPU).
TEST_P(MlKemApi, OptionsOverloadsGiveTheSameBytes) {
  EXPECT_EQ(PqBatchOptions{}.backend, Backend::Auto);
  EXPECT_FALSE(PqBatchOptions{}.gpu_crossover.has_value());
  Rng rng(200 + GetParam());
  const auto sz = mlkem_sizes(set());
  const size_t n = 9;
  const Bytes seeds = rng.bytes(n * 64), m = rng.bytes(n * 32);
  Bytes ek(n * sz.ek), dk(n * sz.dk), c(n * sz.ct), k(n * 32), k2(n * 32);
  std::vector<PqStatus> st(n), st2(n);
  mlkem_keygen_batch(set(), seeds, ek, dk, Backend::Cpu);
  mlkem_encaps_batch(set(), ek, m, c, k, st, Backend::Cpu);
  mlkem_decaps_batch(set(), dk, c, k2, st2, Backend::Cpu);
  for (const PqBatchOptions& o : {PqBatchOptions{.backend = Backend::Cpu},
                                  PqBatchOptions{.backend = Backend::Auto, .gpu_crossover = UINT64_MAX}}) {
    PhaseTimes times;
    PqBatchOptions with = o;
    with.phase_times = &times;
    Bytes ek_o(n * sz.ek), dk_o(n * sz.dk), c_o(n * sz.ct), k_o(n * 32), k2_o(n * 32), c_r(n * sz.ct), k_r(n * 32);
    std::vector<PqStatus> st_o(n), st2_o(n), st_r(n);
    mlkem_keygen_batch(set(), seeds, ek_o, dk_o, with);
    mlkem_encaps_batch(set(), ek, m, c_o, k_o, st_o, with);
    mlkem_decaps_batch(set(), dk, c, k2_o, st2_o, with);
    mlkem_encaps_random_batch(set(), ek, c_r, k_r, st_r, with);
    EXPECT_EQ(ek_o, ek);
    EXPECT_EQ(dk_o, dk);
    EXPECT_EQ(c_o, c);
    EXPECT_EQ(k_o, k);
    EXPECT_EQ(st_o, st);
    EXPECT_EQ(k2_o, k2);
    EXPECT_EQ(st2_o, st2);
    EXPECT_EQ(st_r, std::vector<PqStatus>(n, PqStatus::Ok));
    EXPECT_TRUE(times.phases.empty());
    EXPECT_EQ(times.wall_ms, 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlKemApi, ::testing::Values(512, 768, 1024));

}  // namespace
}  // namespace zkgpu::test
