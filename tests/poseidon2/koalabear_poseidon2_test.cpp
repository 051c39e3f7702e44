// Poseidon2 over KoalaBear (docs/specs/fields-curves.md §1.4-1.6): Plonky3's known answers for
// both constant sets, the pinned set A, the drawn set B against the spec's SHA-256, the batch
// (CPU and GPU) against the core function on fresh random states.
#include <openssl/sha.h>

#include <cstdio>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "zkgpu/poseidon2.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

using K = KoalaBear;

template <int W>
std::vector<uint32_t> permuted(const Poseidon2Params<W, K>& p, const std::vector<uint32_t>& in) {
  K s[W];
  for (int i = 0; i < W; ++i) s[i] = K::from_canonical(in[size_t(i)]);
  poseidon2_permute<W>(s, p);
  std::vector<uint32_t> out(W);
  for (int i = 0; i < W; ++i) out[size_t(i)] = s[i].canonical();
  return out;
}

const std::vector<uint32_t> IN16 = {894848333,  1437655012, 1200606629, 1690012884, 71131202,   1749206695,
                                    1717947831, 120589055,  19776022,   42382981,   1831865506, 724844064,
                                    171220207,  1299207443, 227047920,  1783754913};
const std::vector<uint32_t> IN24 = {886409618,  1327899896, 1902407911, 591953491, 648428576,  1844789031,
                                    1198336108, 355597330,  1799586834, 59617783,  790334801,  1968791836,
                                    559272107,  31054313,   1042221543, 474748436, 135686258,  263665994,
                                    1962340735, 1741539604, 2026927696, 449439011, 1131357108, 50869465};

// Plonky3 koala-bear/src/poseidon2.rs at 0056fa836d7fba9cb3fc77f3bbc47abd59c80ac0:
// test_default_koalabear_poseidon2_width_{16,24} (set A) and test_poseidon2_width_{16,24}_random
// (Poseidon2KoalaBear::new_from_rng_128(&mut Xoroshiro128Plus::seed_from_u64(1)), set B).
TEST(KoalaBearPoseidon2, Plonky3KnownAnswers) {
  EXPECT_EQ(permuted<16>(koalabear_poseidon2_params<16>(KoalaBearPoseidon2Constants::Plonky3), IN16),
            (std::vector<uint32_t>{1934285469, 604889435, 133449501, 1026180808, 1830659359, 176667110, 1391183747,
                                   351743874, 1238264085, 1292768839, 2023573270, 1201586780, 1360691759, 1230682461,
                                   748270449, 651545025}));
  EXPECT_EQ(permuted<24>(koalabear_poseidon2_params<24>(KoalaBearPoseidon2Constants::Plonky3), IN24),
            (std::vector<uint32_t>{382801106,  82839311,   1503190615, 1987418517, 854076995,  1862291425,
                                   262755189,  1050814217, 722724562,  741265943,  1026879332, 754316749,
                                   1966025564, 1518878196, 502200188,  1368172258, 845459257,  1711434837,
                                   724453836,  171032289,  655223446,  1098636135, 407832555,  1707498914}));
  EXPECT_EQ(permuted<16>(koalabear_poseidon2_params<16>(KoalaBearPoseidon2Constants::Xoroshiro1), IN16),
            (std::vector<uint32_t>{652590279, 1200629963, 1013089423, 1840372851, 19101828, 561050015, 1714865585,
                                   994637181, 498949829, 729884572, 1957973925, 263012103, 535029297, 2121808603,
                                   964663675, 1473622080}));
  EXPECT_EQ(permuted<24>(koalabear_poseidon2_params<24>(KoalaBearPoseidon2Constants::Xoroshiro1), IN24),
            (std::vector<uint32_t>{3825456,    486989921,  613714063,  282152282,  1027154688, 1171655681,
                                   879344953,  1090688809, 1960721991, 1604199242, 1329947150, 1535171244,
                                   781646521,  1156559780, 1875690339, 368140677,  457503063,  304208551,
                                   1919757655, 835116474,  1293372648, 1254825008, 810923913,  1773631109}));
}

template <int W>
void expect_set_a_is_the_json(const nlohmann::json& j) {
  const auto p = koalabear_poseidon2_params<W>(KoalaBearPoseidon2Constants::Plonky3);
  const auto& c = j["width_" + std::to_string(W)]["canonical"];
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < W; ++i) {
      EXPECT_EQ(p.ext_init[r][i].canonical(), c["external_initial"][r][i].get<uint32_t>());
      EXPECT_EQ(p.ext_term[r][i].canonical(), c["external_final"][r][i].get<uint32_t>());
    }
  ASSERT_EQ(c["internal"].size(), size_t(Poseidon2Params<W, K>::ROUNDS_P));
  for (int k = 0; k < Poseidon2Params<W, K>::ROUNDS_P; ++k)
    EXPECT_EQ(p.internal[k].canonical(), c["internal"][k].get<uint32_t>());
  const auto f = test::load_vectors("koalabear/koalabear_field_constants.json");
  const auto& diag = f["poseidon2"]["internal_diag_w" + std::to_string(W) + "_canonical"];
  for (int i = 0; i < W; ++i) EXPECT_EQ(p.diag[i].canonical(), diag[i].get<uint32_t>());
}

TEST(KoalaBearPoseidon2, SetAIsThePinnedTable) {
  const auto j = test::load_vectors("koalabear/poseidon2_koalabear_plonky3_default_constants.json");
  expect_set_a_is_the_json<16>(j);
  expect_set_a_is_the_json<24>(j);
  EXPECT_EQ((Poseidon2Params<16, K>::ROUNDS_P), 20);
  EXPECT_EQ((Poseidon2Params<24, K>::ROUNDS_P), 23);
}

// SHA-256 over the table in draw order, each value a 4-byte little-endian canonical u32 (spec §1.6).
template <int W>
std::string table_digest(const Poseidon2Params<W, K>& p) {
  std::vector<uint8_t> bytes;
  auto put = [&](K x) {
    const uint32_t c = x.canonical();
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(c >> (8 * b)));
  };
  for (const auto& row : p.ext_init)
    for (K x : row) put(x);
  for (const auto& row : p.ext_term)
    for (K x : row) put(x);
  for (K x : p.internal) put(x);
  uint8_t md[SHA256_DIGEST_LENGTH];
  SHA256(bytes.data(), bytes.size(), md);
  std::string hex;
  char buf[3];
  for (uint8_t b : md) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    hex += buf;
  }
  return hex;
}

TEST(KoalaBearPoseidon2, SetBIsTheSpecsDigest) {
  const auto b16 = koalabear_poseidon2_params<16>(KoalaBearPoseidon2Constants::Xoroshiro1);
  const auto b24 = koalabear_poseidon2_params<24>(KoalaBearPoseidon2Constants::Xoroshiro1);
  EXPECT_EQ(b16.ext_init[0][0].canonical(), 149982203u);
  EXPECT_EQ(b16.internal[0].canonical(), 720145094u);
  EXPECT_EQ(b24.internal[0].canonical(), 1475309711u);
  EXPECT_EQ(table_digest(b16), "384e3e4ff5136b7b8ed7e788add770dd04d99b6c3a0378ee33ee148f04d0eaeb");
  EXPECT_EQ(table_digest(b24), "4219ed149461ad25abbc2a301a3d5afe4572f0854ea03d74eb14f8f4c5a33bdf");
}

// The batch on `backend` against the core function, on random states including 0 and p - 1.
template <int W>
void check_batch(Backend backend, KoalaBearPoseidon2Constants set, size_t n, uint64_t salt) {
  test::Rng rng(salt);
  std::vector<K> states(n * W), want;
  for (auto& x : states) {
    const uint32_t k = rng.u32() % 8;
    x = K::from_canonical(k == 0 ? 0 : k == 1 ? K::P - 1 : rng.u32() % K::P);
  }
  want = states;
  const auto p = koalabear_poseidon2_params<W>(set);
  for (size_t i = 0; i < n; ++i) poseidon2_permute<W>(*reinterpret_cast<K(*)[W]>(&want[i * W]), p);
  poseidon2_permute_batch(std::span<K>(states), W, set, {.backend = backend});
  ASSERT_TRUE(states == want) << "width " << W << ", " << n << " states, backend " << static_cast<int>(backend);
}

TEST(KoalaBearPoseidon2, CpuBatchEqualsTheCoreFunction) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{127}, size_t{1000}}) {
    check_batch<16>(Backend::Cpu, KoalaBearPoseidon2Constants::Plonky3, n, 81 + n);
    check_batch<24>(Backend::Cpu, KoalaBearPoseidon2Constants::Xoroshiro1, n, 82 + n);
  }
  std::vector<K> bad(17);
  EXPECT_THROW(poseidon2_permute_batch(std::span<K>(bad), 16, KoalaBearPoseidon2Constants::Plonky3), Error);
  EXPECT_THROW(poseidon2_permute_batch(std::span<K>(bad), 8, KoalaBearPoseidon2Constants::Plonky3), Error);
}

TEST(KoalaBearPoseidon2Gpu, BatchEqualsCpu) {
  ZKGPU_REQUIRE_GPU();
  for (size_t n : test::sized({size_t{1}, size_t{255}, size_t{4096}, size_t{100003}, size_t{1} << 20},
                              {size_t{1}, size_t{255}, size_t{4096}})) {
    check_batch<16>(Backend::Cuda, KoalaBearPoseidon2Constants::Plonky3, n, 91 + n);
    check_batch<16>(Backend::Cuda, KoalaBearPoseidon2Constants::Xoroshiro1, n, 92 + n);
    check_batch<24>(Backend::Cuda, KoalaBearPoseidon2Constants::Plonky3, n, 93 + n);
    check_batch<24>(Backend::Cuda, KoalaBearPoseidon2Constants::Xoroshiro1, n, 94 + n);
  }
}

}  // namespace
}  // namespace zkgpu
