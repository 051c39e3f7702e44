// The register-state sponges of the CUDA ML-KEM kernels (src/pq/cuda/keccak_regs.cuh,
// mlkem_hash.cuh; host-callable) equal the core Sponge functions the CPU backend uses, on random
// inputs: H(ek) for all three ek lengths (their last blocks hold 120, 96 and 72 bytes), G(d || k),
// G(m || h), J(z || c) for the three ciphertext lengths, and PRF_eta(r, q) for eta 2 (one block)
// and 3 (two blocks), every nonce of ML-KEM-1024.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pq/cuda/mlkem_hash.cuh"
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

using Bytes = std::vector<uint8_t>;

// Eight random inputs of in_bytes: regs(out lanes, input) on an 8-byte aligned copy (as the
// device buffers are) against core(expected bytes, input).
template <class Regs, class Core>
void expect_same(Rng& rng, size_t in_bytes, size_t out_lanes, Regs&& regs, Core&& core, const std::string& what) {
  for (int rep = 0; rep < 8; ++rep) {
    const Bytes bytes = rng.bytes(in_bytes);
    std::vector<uint64_t> in((in_bytes + 7) / 8), out(out_lanes);
    std::memcpy(in.data(), bytes.data(), in_bytes);
    regs(out.data(), reinterpret_cast<const uint8_t*>(in.data()));
    Bytes got(8 * out_lanes), want(8 * out_lanes);
    for (size_t i = 0; i < got.size(); ++i) got[i] = uint8_t(out[i / 8] >> (8 * (i % 8)));
    core(want.data(), bytes);
    EXPECT_EQ(got, want) << what;
  }
}

template <int K>
void check_set(Rng& rng) {
  using P = mlkem::Params<K>;
  const std::string k = "K = " + std::to_string(K);
  expect_same(
      rng, P::ek_bytes, 4, [](uint64_t* out, const uint8_t* ek) { cuda::mlkem_hash::hash_ek<K>(out, ek); },
      [](uint8_t* want, const Bytes& ek) { keccak::sha3_256(want, ek.data(), ek.size()); }, "H(ek), " + k);
  expect_same(
      rng, 32, 8, [](uint64_t* out, const uint8_t* d) { cuda::mlkem_hash::g_seed<K>(out, d); },
      [](uint8_t* want, const Bytes& d) {
        Bytes in(d);
        in.push_back(uint8_t(K));
        keccak::sha3_512(want, in.data(), in.size());
      },
      "G(d || k), " + k);
  expect_same(
      rng, 32 + P::c_bytes, 4, [](uint64_t* out, const uint8_t* zc) { cuda::mlkem_hash::j_zc<K>(out, zc, zc + 32); },
      [](uint8_t* want, const Bytes& zc) { keccak::shake256(want, 32, zc.data(), zc.size()); }, "J(z || c), " + k);
}

TEST(KeccakRegs, MlKemHashesEqualCoreSponge) {
  Rng rng(31);
  check_set<2>(rng);
  check_set<3>(rng);
  check_set<4>(rng);
  expect_same(
      rng, 64, 8,
      [](uint64_t* out, const uint8_t* mh) {
        cuda::mlkem_hash::g_mh(out, mh, reinterpret_cast<const uint64_t*>(mh + 32));
      },
      [](uint8_t* want, const Bytes& mh) { keccak::sha3_512(want, mh.data(), 64); }, "G(m || h)");
}

TEST(KeccakRegs, PrfEqualsShake256) {
  Rng rng(33);
  for (int eta : {2, 3})
    for (int q = 0; q < 9; ++q)
      expect_same(
          rng, 32, size_t(8 * eta),
          [&](uint64_t* out, const uint8_t* r) { cuda::mlkem_hash::prf(out, r, uint8_t(q), eta); },
          [&](uint8_t* want, const Bytes& r) {
            Bytes in(r);
            in.push_back(uint8_t(q));
            keccak::shake256(want, size_t(64 * eta), in.data(), in.size());
          },
          "eta " + std::to_string(eta) + " q " + std::to_string(q));
}

}  // namespace
}  // namespace zkgpu::test
