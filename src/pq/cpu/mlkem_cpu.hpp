// The host backend's building blocks for the ML-KEM algorithms of core/mlkem/kem.hpp (the Ops of
// its *_with forms): the k*k matrix entries and the CBD noise polynomials are sampled four SHAKE
// streams at a time with the four-way Keccak (keccak_x4.hpp) when the algorithm announces them,
// then handed out from the cache; NTTs and base products use AVX2 where the CPU has it
// (mlkem_simd.hpp). Results are those of mlkem::PortableOps, byte for byte.
#pragma once
#include "zkgpu/core/mlkem/kem.hpp"

namespace zkgpu::pq::cpu {

struct MlKemOps {
  MlKemOps();           // reads simd_level() once: the AVX2 ring operations or the portable ones
  mlkem::Poly a[4][4];  // a[b0][b1] = SampleNTT(rho || b0 || b1)
  mlkem::Poly e[9];     // e[nonce] = CBD(PRF(seed, nonce)), up to 2k + 1 of them

  void prepare_matrix(const uint8_t* rho, int k);
  const mlkem::Poly& matrix(mlkem::Poly& /*scratch*/, const uint8_t* /*rho*/, int b0, int b1) const {
    return a[b0][b1];
  }
  void prepare_noise(const uint8_t* seed, int count, int n_a, int eta_a, int eta_b);
  void noise(mlkem::Poly& r, const uint8_t* /*seed*/, int nonce, int /*eta*/) const { r = e[nonce]; }
  void ntt(mlkem::Poly& p) const;
  void invntt_tomont(mlkem::Poly& p) const;
  void basemul_acc(mlkem::Poly& r, const mlkem::Poly& x, const mlkem::Poly& y) const;

 private:
  int rej_uniform(mlkem::Poly& p, int n, const uint8_t* buf, unsigned len) const;
  bool avx2_;
};

}  // namespace zkgpu::pq::cpu
