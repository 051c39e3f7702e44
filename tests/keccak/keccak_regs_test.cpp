// The register-state sponges of the CUDA ML-KEM kernels (src/pq/cuda/keccak_regs.cuh,
// mlkem_hash.cuh; host-callable) equal the core Sponge functions the CPU backend uses, on random
// inputs: H(ek) for all three ek lengths (their last blocks hold 120, 96 and 72 bytes), G(d || k),
// G(m || h), J(z || c) for the three ciphertext lengths, and PRF_eta(r, q) for eta 2 (one block)
// and 3 (two blocks), every nonce of ML-KEM-1024.
#include <gtest/gtest.h>

#include <vector>

#include "pq/cuda/mlkem_hash.cuh"
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

std::vector<uint8_t> lanes_to_bytes(const uint64_t* w, size_t lanes) {
  std::vector<uint8_t> b(8 * lanes);
  for (size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(w[i / 8] >> (8 * (i % 8)));
  return b;
}

template <int K>
void check_hash_ek(Rng& rng) {
  constexpr size_t EK = mlkem::Params<K>::ek_bytes;
  for (int rep = 0; rep < 8; ++rep) {
    std::vector<uint64_t> buf(EK / 8);  // 8-byte aligned, as the device buffers
    const auto bytes = rng.bytes(EK);
    std::memcpy(buf.data(), bytes.data(), EK);
    uint64_t h[4];
    cuda::mlkem_hash::hash_ek<K>(h, reinterpret_cast<const uint8_t*>(buf.data()));
    std::vector<uint8_t> want(32);
    keccak::sha3_256(want.data(), bytes.data(), EK);
    EXPECT_EQ(lanes_to_bytes(h, 4), want) << "K = " << K;
  }
}

TEST(KeccakRegs, HashEkEqualsSha3_256) {
  Rng rng(31);
  check_hash_ek<2>(rng);
  check_hash_ek<3>(rng);
  check_hash_ek<4>(rng);
}

TEST(KeccakRegs, GEqualsSha3_512) {
  Rng rng(32);
  for (int rep = 0; rep < 16; ++rep) {
    uint64_t m[4], h[4], kr[8];
    const auto mb = rng.bytes(32), hb = rng.bytes(32);
    std::memcpy(m, mb.data(), 32);
    std::memcpy(h, hb.data(), 32);
    cuda::mlkem_hash::g_mh(kr, reinterpret_cast<const uint8_t*>(m), h);
    std::vector<uint8_t> in(mb), want(64);
    in.insert(in.end(), hb.begin(), hb.end());
    keccak::sha3_512(want.data(), in.data(), 64);
    EXPECT_EQ(lanes_to_bytes(kr, 8), want);
  }
}

template <int K>
void check_g_seed(Rng& rng) {
  for (int rep = 0; rep < 8; ++rep) {
    uint64_t d[4], rs[8];
    const auto db = rng.bytes(32);
    std::memcpy(d, db.data(), 32);
    cuda::mlkem_hash::g_seed<K>(rs, reinterpret_cast<const uint8_t*>(d));
    std::vector<uint8_t> in(db), want(64);
    in.push_back(uint8_t(K));
    keccak::sha3_512(want.data(), in.data(), in.size());
    EXPECT_EQ(lanes_to_bytes(rs, 8), want) << "K = " << K;
  }
}

TEST(KeccakRegs, GSeedEqualsSha3_512) {
  Rng rng(34);
  check_g_seed<2>(rng);
  check_g_seed<3>(rng);
  check_g_seed<4>(rng);
}

template <int K>
void check_j(Rng& rng) {
  constexpr size_t C = mlkem::Params<K>::c_bytes;
  for (int rep = 0; rep < 8; ++rep) {
    uint64_t z[4], k[4];
    std::vector<uint64_t> c(C / 8);
    const auto zb = rng.bytes(32), cb = rng.bytes(C);
    std::memcpy(z, zb.data(), 32);
    std::memcpy(c.data(), cb.data(), C);
    cuda::mlkem_hash::j_zc<K>(k, reinterpret_cast<const uint8_t*>(z), reinterpret_cast<const uint8_t*>(c.data()));
    std::vector<uint8_t> in(zb), want(32);
    in.insert(in.end(), cb.begin(), cb.end());
    keccak::shake256(want.data(), 32, in.data(), in.size());
    EXPECT_EQ(lanes_to_bytes(k, 4), want) << "K = " << K;
  }
}

TEST(KeccakRegs, JEqualsShake256) {
  Rng rng(35);
  check_j<2>(rng);
  check_j<3>(rng);
  check_j<4>(rng);
}

TEST(KeccakRegs, PrfEqualsShake256) {
  Rng rng(33);
  for (int eta : {2, 3})
    for (int q = 0; q < 9; ++q) {
      uint64_t r[4], out[24];
      const auto rb = rng.bytes(32);
      std::memcpy(r, rb.data(), 32);
      cuda::mlkem_hash::prf(out, reinterpret_cast<const uint8_t*>(r), uint8_t(q), eta);
      std::vector<uint8_t> in(rb), want(size_t(64 * eta));
      in.push_back(uint8_t(q));
      keccak::shake256(want.data(), want.size(), in.data(), in.size());
      EXPECT_EQ(lanes_to_bytes(out, size_t(8 * eta)), want) << "eta " << eta << " q " << q;
    }
}

}  // namespace
}  // namespace zkgpu::test
