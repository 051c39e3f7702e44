// The host backend's samplers for the ML-DSA algorithms of core/mldsa/dsa.hpp (the Ops of its
// *_with forms): the ExpandA entries, the ExpandS polynomials and each signing attempt's ExpandMask
// polynomials are sampled four SHAKE streams at a time with the four-way Keccak (keccak_x4.hpp)
// when the algorithm announces them, then handed out from the cache; NTTs and pointwise products
// use AVX2 where the CPU has it (mldsa_simd.hpp). Results are those of mldsa::PortableOps, byte
// for byte. About 80 KB (uninitialized until used).
#pragma once
#include "zkgpu/core/mldsa/dsa.hpp"

namespace zkgpu::pq::cpu {

struct MlDsaOps {
  MlDsaOps();  // reads simd_level() once: the AVX2 ring operations or the portable ones
  static constexpr int MAX_K = 8, MAX_L = 7;
  mldsa::Poly a[MAX_K][MAX_L];   // a[r][s] = RejNTTPoly(rho || s || r)
  mldsa::Poly s[MAX_K + MAX_L];  // s[nonce] = RejBoundedPoly(rho' || nonce)
  mldsa::Poly y[MAX_L];          // y[i] = ExpandMask entry kappa + i
  int mask_kappa = 0;

  void prepare_matrix(const uint8_t* rho, int k, int l);
  void matrix(mldsa::Poly& out, const uint8_t* /*rho*/, int col, int row) const { out = a[row][col]; }
  void prepare_eta(const uint8_t* rhop, int count, int eta);
  void eta(mldsa::Poly& out, const uint8_t* /*rhop*/, int nonce, int /*eta*/) const { out = s[nonce]; }
  void prepare_mask(const uint8_t* rhopp, int kappa, int count, int gamma1_bits);
  void mask(mldsa::Poly& out, const uint8_t* /*rhopp*/, int kappa, int /*gamma1_bits*/) const {
    out = y[kappa - mask_kappa];
  }
  void ntt(mldsa::Poly& p) const;
  void invntt_tomont(mldsa::Poly& p) const;
  void pointwise(mldsa::Poly& r, const mldsa::Poly& x, const mldsa::Poly& z) const;
  void pointwise_acc(mldsa::Poly& r, const mldsa::Poly& x, const mldsa::Poly& z) const;

 private:
  bool avx2_;
};

}  // namespace zkgpu::pq::cpu
