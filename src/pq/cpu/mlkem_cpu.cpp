// Four-stream sampling for MlKemOps (mlkem_cpu.hpp).
#include "pq/cpu/mlkem_cpu.hpp"

#include <algorithm>
#include <cstring>

#include "pq/cpu/keccak_x4.hpp"
#include "pq/cpu/mlkem_simd.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu::pq::cpu {

using mlkem::N;

MlKemOps::MlKemOps() : avx2_(simd_level() >= SimdLevel::Avx2) {}

void MlKemOps::ntt(mlkem::Poly& p) const { avx2_ ? mlkem_ntt_avx2(p) : mlkem::ntt(p); }
void MlKemOps::invntt_tomont(mlkem::Poly& p) const { avx2_ ? mlkem_invntt_tomont_avx2(p) : mlkem::invntt_tomont(p); }
void MlKemOps::basemul_acc(mlkem::Poly& r, const mlkem::Poly& x, const mlkem::Poly& y) const {
  avx2_ ? mlkem_basemul_acc_avx2(r, x, y) : mlkem::basemul_acc(r, x, y);
}

// The rejection step on whole 24-byte groups (a block of 168 or 504 bytes is 7 or 21 of them).
// p must be followed by 16 spare int16 (the AVX2 parser may write accepted values past 256).
int MlKemOps::rej_uniform(mlkem::Poly& p, int n, const uint8_t* buf, unsigned len) const {
  return avx2_ ? mlkem_rej_uniform_avx2(p.c, n, buf, len) : mlkem::rej_uniform(p, n, buf, len);
}

void MlKemOps::prepare_matrix(const uint8_t* rho, int k) {
  const int count = k * k;
  for (int first = 0; first < count; first += 4) {
    uint8_t in[4][34];
    mlkem::Poly* out[4];
    for (int j = 0; j < 4; ++j) {
      const int idx = std::min(first + j, count - 1);  // spare lanes repeat the last entry
      std::memcpy(in[j], rho, 32);
      in[j][32] = uint8_t(idx / k);
      in[j][33] = uint8_t(idx % k);
      out[j] = &a[idx / k][idx % k];
    }
    const uint8_t* const ins[4] = {in[0], in[1], in[2], in[3]};
    ShakeX4 xof(keccak::SHAKE128_RATE, ins, 34);
    // Three blocks (168 candidates of 12 bits x 2) give 256 accepted values with probability
    // about 0.99 (each is below q with probability 0.81); further blocks come one at a time.
    constexpr size_t FIRST = 3;
    alignas(32) uint8_t buf[4][FIRST * keccak::SHAKE128_RATE + 8];  // + the AVX2 parser's overread
    struct Padded {
      mlkem::Poly p;
      int16_t spare[16];  // the AVX2 parser's overwrite
    };
    Padded got[4];
    uint8_t* const outs[4] = {buf[0], buf[1], buf[2], buf[3]};
    for (auto& b : buf) std::memset(b + FIRST * keccak::SHAKE128_RATE, 0, 8);  // defined, for valgrind
    xof.squeeze_blocks(outs, FIRST);
    int n[4] = {0, 0, 0, 0};
    unsigned len = FIRST * keccak::SHAKE128_RATE;
    for (;;) {
      for (int j = 0; j < 4; ++j) n[j] = rej_uniform(got[j].p, n[j], buf[j], len);
      if (std::min({n[0], n[1], n[2], n[3]}) >= N) break;
      xof.squeeze_blocks(outs, 1);
      len = keccak::SHAKE128_RATE;
    }
    for (int j = 0; j < 4; ++j) *out[j] = got[j].p;
  }
}

void MlKemOps::prepare_noise(const uint8_t* seed, int count, int n_a, int eta_a, int eta_b) {
  for (int first = 0; first < count; first += 4) {
    uint8_t in[4][33];
    int eta[4];
    for (int j = 0; j < 4; ++j) {
      const int nonce = std::min(first + j, count - 1);
      std::memcpy(in[j], seed, 32);
      in[j][32] = uint8_t(nonce);
      eta[j] = nonce < n_a ? eta_a : eta_b;
    }
    const uint8_t* const ins[4] = {in[0], in[1], in[2], in[3]};
    ShakeX4 prf(keccak::SHAKE256_RATE, ins, 33);
    // 64 * eta bytes: one block of 136 for eta 2, two for eta 3 (a longer read has the same prefix).
    const size_t blocks = std::max({eta[0], eta[1], eta[2], eta[3]}) == 3 ? 2 : 1;
    alignas(32) uint8_t buf[4][2 * keccak::SHAKE256_RATE];
    uint8_t* const outs[4] = {buf[0], buf[1], buf[2], buf[3]};
    prf.squeeze_blocks(outs, blocks);
    for (int j = 0; j < 4 && first + j < count; ++j) mlkem::cbd_from_bytes(e[first + j], buf[j], eta[j]);
  }
}

}  // namespace zkgpu::pq::cpu
