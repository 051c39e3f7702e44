// Four-stream sampling for MlDsaOps (mldsa_cpu.hpp).
#include "pq/cpu/mldsa_cpu.hpp"

#include <algorithm>
#include <cstring>

#include "pq/cpu/keccak_x4.hpp"
#include "pq/cpu/mldsa_simd.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu::pq::cpu {

using mldsa::N;

MlDsaOps::MlDsaOps() : avx2_(simd_level() >= SimdLevel::Avx2) {}

void MlDsaOps::ntt(mldsa::Poly& p) const { avx2_ ? mldsa_ntt_avx2(p) : mldsa::ntt(p); }
void MlDsaOps::invntt_tomont(mldsa::Poly& p) const { avx2_ ? mldsa_invntt_tomont_avx2(p) : mldsa::invntt_tomont(p); }
void MlDsaOps::pointwise(mldsa::Poly& r, const mldsa::Poly& x, const mldsa::Poly& z) const {
  avx2_ ? mldsa_pointwise_avx2(r, x, z) : mldsa::poly_pointwise(r, x, z);
}
void MlDsaOps::pointwise_acc(mldsa::Poly& r, const mldsa::Poly& x, const mldsa::Poly& z) const {
  avx2_ ? mldsa_pointwise_acc_avx2(r, x, z) : mldsa::poly_pointwise_acc(r, x, z);
}

namespace {

// Runs `count` streams of one XOF four at a time. seed_of(idx, in) writes stream idx's input
// (len bytes) and returns its output polynomial; parse(poly, n, buf, len) is the rejection step.
// first_blocks are squeezed at once (enough in nearly every case), then one block at a time until
// every lane of the group has its 256 coefficients. Spare lanes repeat the group's last stream.
template <class SeedOf, class Parse>
void sample_x4(int count, unsigned rate, size_t len, size_t first_blocks, SeedOf seed_of, Parse parse) {
  for (int first = 0; first < count; first += 4) {
    uint8_t in[4][72];
    mldsa::Poly* out[4];
    mldsa::Poly spare;
    for (int j = 0; j < 4; ++j) {
      const bool used = first + j < count;
      mldsa::Poly* p = seed_of(used ? first + j : count - 1, in[j]);
      out[j] = used ? p : &spare;
    }
    const uint8_t* const ins[4] = {in[0], in[1], in[2], in[3]};
    ShakeX4 xof(rate, ins, len);
    alignas(32) uint8_t buf[4][5 * keccak::SHAKE128_RATE];  // room for five blocks of either rate
    uint8_t* const outs[4] = {buf[0], buf[1], buf[2], buf[3]};
    xof.squeeze_blocks(outs, first_blocks);
    int n[4] = {0, 0, 0, 0};
    unsigned got = unsigned(first_blocks * rate);
    for (;;) {
      for (int j = 0; j < 4; ++j) n[j] = parse(*out[j], n[j], buf[j], got);
      if (std::min({n[0], n[1], n[2], n[3]}) >= N) break;
      xof.squeeze_blocks(outs, 1);
      got = rate;
    }
  }
}

}  // namespace

void MlDsaOps::prepare_matrix(const uint8_t* rho, int k, int l) {
  // 256 candidates of 3 bytes each, nearly all below q: five blocks of 168 (280 candidates).
  sample_x4(
      k * l, keccak::SHAKE128_RATE, 34, 5,
      [&](int idx, uint8_t* in) {
        std::memcpy(in, rho, 32);
        in[32] = uint8_t(idx % l);  // s (column)
        in[33] = uint8_t(idx / l);  // r (row)
        return &a[idx / l][idx % l];
      },
      [](mldsa::Poly& p, int n, const uint8_t* b, unsigned len) { return mldsa::rej_uniform(p, n, b, len); });
}

void MlDsaOps::prepare_eta(const uint8_t* rhop, int count, int eta) {
  // Two blocks of 136 give 544 nibbles: enough for 256 accepted ones at eta 2 (15/16 accepted)
  // and nearly always at eta 4 (9/16).
  sample_x4(
      count, keccak::SHAKE256_RATE, 66, 2,
      [&](int idx, uint8_t* in) {
        std::memcpy(in, rhop, 64);
        in[64] = uint8_t(idx);
        in[65] = uint8_t(idx >> 8);
        return &s[idx];
      },
      [eta](mldsa::Poly& p, int n, const uint8_t* b, unsigned len) { return mldsa::rej_eta(p, n, b, len, eta); });
}

void MlDsaOps::prepare_mask(const uint8_t* rhopp, int kappa, int count, int gamma1_bits) {
  mask_kappa = kappa;
  const size_t bytes = size_t(32 * (gamma1_bits + 1));  // 576 or 640: five blocks of 136
  for (int first = 0; first < count; first += 4) {
    uint8_t in[4][66];
    for (int j = 0; j < 4; ++j) {
      const int c = kappa + std::min(first + j, count - 1);
      std::memcpy(in[j], rhopp, 64);
      in[j][64] = uint8_t(c);
      in[j][65] = uint8_t(c >> 8);
    }
    const uint8_t* const ins[4] = {in[0], in[1], in[2], in[3]};
    ShakeX4 h(keccak::SHAKE256_RATE, ins, 66);
    alignas(32) uint8_t buf[4][5 * keccak::SHAKE256_RATE];
    static_assert(5 * keccak::SHAKE256_RATE >= 640);
    uint8_t* const outs[4] = {buf[0], buf[1], buf[2], buf[3]};
    h.squeeze_blocks(outs, (bytes + keccak::SHAKE256_RATE - 1) / keccak::SHAKE256_RATE);
    for (int j = 0; j < 4 && first + j < count; ++j)
      mldsa::unpack_bits(y[first + j], buf[j], gamma1_bits + 1, int32_t(1) << gamma1_bits);
  }
}

}  // namespace zkgpu::pq::cpu
