// The host SIMD paths of ML-KEM and ML-DSA (src/pq/cpu): every version of the four-way Keccak
// against the scalar permutation and sponge; the AVX2 rejection step, NTT, inverse NTT and base
// (pointwise) products of both schemes against the portable functions, bit for bit, on random
// inputs in each function's documented range; and whole KeyGen / Encaps / Decaps and KeyGen /
// Sign / Verify with the host Ops against the PortableOps, at every SIMD level this CPU has.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/core/mldsa/dsa.hpp"
#include "zkgpu/core/mlkem/kem.hpp"
#include "pq/cpu/keccak_x4.hpp"
#include "pq/cpu/mldsa_cpu.hpp"
#include "pq/cpu/mldsa_simd.hpp"
#include "pq/cpu/mlkem_cpu.hpp"
#include "pq/cpu/mlkem_simd.hpp"
#include "support/test_support.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu::test {
namespace {

using pq::cpu::KeccakX4;

struct PqSimdCapGuard {
  ~PqSimdCapGuard() { set_simd_level_cap(std::nullopt); }
};

// The levels this CPU can run (a cap above the CPU's own level is the CPU's level).
std::vector<SimdLevel> levels_here() {
  std::vector<SimdLevel> v = {SimdLevel::Scalar};
  const SimdLevel top = simd_level();
  if (top >= SimdLevel::Avx2) v.push_back(SimdLevel::Avx2);
  if (top >= SimdLevel::Avx512) v.push_back(SimdLevel::Avx512);
  return v;
}

// Runs check() once per SIMD level this CPU has, with the level capped to it.
template <class F>
void at_every_level(F check) {
  PqSimdCapGuard guard;
  for (SimdLevel level : levels_here()) {
    set_simd_level_cap(level);
    SCOPED_TRACE(to_string(level));
    check();
  }
}

TEST(PqCpuSimd, KeccakX4EveryVersionEqualsScalar) {
  Rng rng(61);
  std::vector<void (*)(KeccakX4&)> fns = {pq::cpu::keccak_x4_permute_portable, pq::cpu::keccak_x4_permute};
  if (simd_level() >= SimdLevel::Avx2) fns.push_back(pq::cpu::keccak_x4_permute_avx2);
  if (simd_level() >= SimdLevel::Avx512) fns.push_back(pq::cpu::keccak_x4_permute_avx512);
  for (int trial = 0; trial < 20; ++trial) {
    KeccakX4 in;
    for (auto& w : in.s)
      for (auto& x : w) x = (uint64_t(rng.u32()) << 32) | rng.u32();
    if (trial == 0) std::memset(&in, 0, sizeof in);
    uint64_t ref[4][25];
    for (int j = 0; j < 4; ++j) {
      for (int w = 0; w < 25; ++w) ref[j][w] = in.s[w][j];
      keccak::keccak_f1600(ref[j]);
    }
    for (size_t f = 0; f < fns.size(); ++f) {
      KeccakX4 st = in;
      fns[f](st);
      for (int j = 0; j < 4; ++j)
        for (int w = 0; w < 25; ++w) ASSERT_EQ(st.s[w][j], ref[j][w]) << "version " << f << " trial " << trial;
    }
  }
}

TEST(PqCpuSimd, ShakeX4EqualsSponge) {
  Rng rng(62);
  at_every_level([&] {
    for (unsigned rate : {keccak::SHAKE128_RATE, keccak::SHAKE256_RATE})
      for (size_t len : {0, 1, 33, 34, 66, 135, 136, 167, 168, 169, 300, 400}) {
        std::vector<uint8_t> in[4];
        const uint8_t* ins[4];
        for (int j = 0; j < 4; ++j) {
          in[j] = rng.bytes(len);
          ins[j] = in[j].data();
        }
        pq::cpu::ShakeX4 x(rate, ins, len);
        const size_t blocks = 3;
        std::vector<uint8_t> out[4];
        uint8_t* outs[4];
        for (int j = 0; j < 4; ++j) {
          out[j].assign(blocks * rate, 0xAA);
          outs[j] = out[j].data();
        }
        x.squeeze_blocks(outs, 1);  // one block, then two more: the squeeze continues the stream
        for (int j = 0; j < 4; ++j) outs[j] += rate;
        x.squeeze_blocks(outs, blocks - 1);
        for (int j = 0; j < 4; ++j) {
          keccak::Sponge s(rate, 0x1F);
          s.absorb(in[j].data(), len);
          std::vector<uint8_t> ref(blocks * rate);
          s.squeeze(ref.data(), ref.size());
          ASSERT_EQ(out[j], ref) << "rate " << rate << " len " << len << " lane " << j;
        }
      }
  });
}

TEST(PqCpuSimd, MlKemNttAvx2EqualsPortable) {
  if (simd_level() < SimdLevel::Avx2) GTEST_SKIP() << "no AVX2 on this CPU";
  Rng rng(63);
  auto rand_poly = [&](int bound) {  // coefficients in (-bound, bound)
    mlkem::Poly p;
    for (auto& c : p.c) c = int16_t(int(rng.u32() % uint32_t(2 * bound - 1)) - (bound - 1));
    return p;
  };
  for (int trial = 0; trial < 200; ++trial) {
    mlkem::Poly a = rand_poly(4096), b = a;  // ntt: |input| < 4096
    mlkem::ntt(a);
    pq::cpu::mlkem_ntt_avx2(b);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "ntt, trial " << trial;
    a = rand_poly(mlkem::Q);
    b = a;
    mlkem::invntt_tomont(a);
    pq::cpu::mlkem_invntt_tomont_avx2(b);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "invntt, trial " << trial;
    const mlkem::Poly x = rand_poly(mlkem::Q), y = rand_poly(mlkem::Q);
    a = rand_poly(mlkem::Q);
    b = a;
    mlkem::basemul_acc(a, x, y);
    pq::cpu::mlkem_basemul_acc_avx2(b, x, y);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "basemul_acc, trial " << trial;
  }
}

TEST(PqCpuSimd, MlDsaNttAvx2EqualsPortable) {
  if (simd_level() < SimdLevel::Avx2) GTEST_SKIP() << "no AVX2 on this CPU";
  Rng rng(67);
  auto rand_poly = [&] {  // coefficients in (-q, q), the range the algorithms feed in
    mldsa::Poly p;
    for (auto& c : p.c) c = int32_t(rng.u32() % uint32_t(2 * mldsa::Q - 1)) - (mldsa::Q - 1);
    return p;
  };
  for (int trial = 0; trial < 200; ++trial) {
    mldsa::Poly a = rand_poly(), b = a;
    mldsa::ntt(a);
    pq::cpu::mldsa_ntt_avx2(b);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "ntt, trial " << trial;
    a = rand_poly();
    b = a;
    mldsa::invntt_tomont(a);
    pq::cpu::mldsa_invntt_tomont_avx2(b);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "invntt, trial " << trial;
    const mldsa::Poly x = rand_poly(), y = rand_poly();
    mldsa::poly_pointwise(a, x, y);
    pq::cpu::mldsa_pointwise_avx2(b, x, y);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "pointwise, trial " << trial;
    a = rand_poly();
    b = a;
    mldsa::poly_pointwise_acc(a, x, y);
    pq::cpu::mldsa_pointwise_acc_avx2(b, x, y);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "pointwise_acc, trial " << trial;
  }
}

// The AVX2 rejection step against the portable one on random blocks (about 19% of candidates
// rejected) and on blocks rich in rejections, starting from several counts.
TEST(PqCpuSimd, MlKemRejUniformAvx2EqualsPortable) {
  if (simd_level() < SimdLevel::Avx2) GTEST_SKIP() << "no AVX2 on this CPU";
  Rng rng(65);
  for (int trial = 0; trial < 300; ++trial) {
    const unsigned len = trial % 2 ? 168 : 504;
    std::vector<uint8_t> buf = rng.bytes(len + 8);
    if (trial % 3 == 0)  // mostly 0xFF: most candidates are >= q
      for (unsigned i = 0; i < len; ++i) buf[i] |= uint8_t(rng.u32() % 4 ? 0xF0 : 0x00);
    const int start = int(rng.u32() % 257);
    struct {
      mlkem::Poly p;
      int16_t spare[16];
    } a{}, b{};
    const int na = mlkem::rej_uniform(a.p, start, buf.data(), len);
    const int nb = pq::cpu::mlkem_rej_uniform_avx2(b.p.c, start, buf.data(), len);
    ASSERT_EQ(na, nb) << "trial " << trial;
    ASSERT_EQ(0, std::memcmp(a.p.c, b.p.c, sizeof a.p.c)) << "trial " << trial;
  }
}

template <int K>
void kem_ops_equal_portable(Rng& rng) {
  using P = mlkem::Params<K>;
  for (int trial = 0; trial < 8; ++trial) {
    const auto seed = rng.bytes(64), m = rng.bytes(32);
    uint8_t ek1[P::ek_bytes], dk1[P::dk_bytes], ek2[P::ek_bytes], dk2[P::dk_bytes];
    uint8_t c1[P::c_bytes], c2[P::c_bytes], k1[32], k2[32], d1[32], d2[32];
    mlkem::keygen<K>(ek1, dk1, seed.data(), seed.data() + 32);
    pq::cpu::MlKemOps ops;
    mlkem::keygen_with<K>(ops, ek2, dk2, seed.data(), seed.data() + 32);
    ASSERT_EQ(0, std::memcmp(ek1, ek2, sizeof ek1));
    ASSERT_EQ(0, std::memcmp(dk1, dk2, sizeof dk1));
    ASSERT_TRUE(mlkem::encaps<K>(c1, k1, ek1, m.data()));
    ASSERT_TRUE(mlkem::encaps_with<K>(ops, c2, k2, ek1, m.data()));
    ASSERT_EQ(0, std::memcmp(c1, c2, sizeof c1));
    ASSERT_EQ(0, std::memcmp(k1, k2, 32));
    if (trial & 1) c1[rng.u32() % sizeof c1] ^= 1;  // half of them take implicit rejection
    ASSERT_TRUE(mlkem::decaps<K>(d1, dk1, c1));
    ASSERT_TRUE(mlkem::decaps_with<K>(ops, d2, dk1, c1));
    ASSERT_EQ(0, std::memcmp(d1, d2, 32));
    ASSERT_EQ(trial & 1 ? 1 : 0, std::memcmp(d1, k1, 32) != 0);
  }
}

TEST(PqCpuSimd, MlKemHostOpsEqualPortableAtEveryLevel) {
  Rng rng(64);
  at_every_level([&] {
    kem_ops_equal_portable<2>(rng);
    kem_ops_equal_portable<3>(rng);
    kem_ops_equal_portable<4>(rng);
  });
}

template <class P>
void dsa_ops_equal_portable(Rng& rng) {
  static uint8_t pk1[P::PK_BYTES], sk1[P::SK_BYTES], pk2[P::PK_BYTES], sk2[P::SK_BYTES];
  static uint8_t sig1[P::SIG_BYTES], sig2[P::SIG_BYTES];
  static pq::cpu::MlDsaOps ops;  // about 80 KB: not on the test's stack
  for (int trial = 0; trial < 3; ++trial) {
    const auto xi = rng.bytes(32), mu = rng.bytes(64), rnd = rng.bytes(32);
    mldsa::keygen<P>(pk1, sk1, xi.data());
    mldsa::keygen_with<P>(ops, pk2, sk2, xi.data());
    ASSERT_EQ(0, std::memcmp(pk1, pk2, sizeof pk1));
    ASSERT_EQ(0, std::memcmp(sk1, sk2, sizeof sk1));
    ASSERT_TRUE(mldsa::sign_mu<P>(sig1, sk1, mu.data(), rnd.data()));
    ASSERT_TRUE(mldsa::sign_mu_with<P>(ops, sig2, sk1, mu.data(), rnd.data()));
    ASSERT_EQ(0, std::memcmp(sig1, sig2, sizeof sig1));
    EXPECT_TRUE(mldsa::verify_mu_with<P>(ops, pk1, mu.data(), sig1));
    sig1[rng.u32() % sizeof sig1] ^= 4;
    EXPECT_EQ(mldsa::verify_mu<P>(pk1, mu.data(), sig1), mldsa::verify_mu_with<P>(ops, pk1, mu.data(), sig1));
  }
}

TEST(PqCpuSimd, MlDsaHostOpsEqualPortableAtEveryLevel) {
  Rng rng(66);
  at_every_level([&] {
    dsa_ops_equal_portable<mldsa::P44>(rng);
    dsa_ops_equal_portable<mldsa::P65>(rng);
    dsa_ops_equal_portable<mldsa::P87>(rng);
  });
}

}  // namespace
}  // namespace zkgpu::test
