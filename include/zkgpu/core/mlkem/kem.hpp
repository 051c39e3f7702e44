// ML-KEM (FIPS 203): K-PKE (Algorithms 13-15) and ML-KEM.KeyGen_internal / Encaps_internal /
// Decaps_internal (Algorithms 16-18) with the input checks of section 7. Header-only and
// allocation-free so a CUDA kernel can call the same code for one batch item. The matrix A is
// sampled one entry at a time where it is used, so no k*k polynomials are ever held.
// Each algorithm also has a *_with form that takes its building blocks (matrix entries, noise,
// NTTs, base products) from an Ops object: PortableOps below is the one the plain forms and the
// CUDA kernels use; the host backend passes a SIMD set (src/pq/cpu/mlkem_cpu.hpp) that samples
// four SHAKE streams at once. The algorithm, and so every output byte, is the same for both.
#pragma once
#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/core/mlkem/encode.hpp"
#include "zkgpu/core/mlkem/sample.hpp"
#include "zkgpu/core/pq/ct.hpp"

namespace zkgpu::mlkem {

template <int K>
struct Params {
  static_assert(K == 2 || K == 3 || K == 4, "ML-KEM has k = 2, 3 or 4");
  static constexpr int k = K;
  static constexpr int eta1 = K == 2 ? 3 : 2;
  static constexpr int eta2 = 2;
  static constexpr int du = K == 4 ? 11 : 10;
  static constexpr int dv = K == 4 ? 5 : 4;
  static constexpr size_t pke_sk_bytes = 384 * K;
  static constexpr size_t ek_bytes = 384 * K + 32;
  static constexpr size_t dk_bytes = 768 * K + 96;
  static constexpr size_t c_bytes = 32 * (du * K + dv);
};

// The portable building blocks: every matrix entry and noise polynomial is sampled where it is
// used, into the caller's scratch polynomial. The prepare_* calls announce what will be asked for,
// so an Ops that samples several streams at once can do so; here they do nothing.
struct PortableOps {
  ZKGPU_HD void prepare_matrix(const uint8_t* /*rho*/, int /*k*/) {}
  // SampleNTT(rho || b0 || b1).
  ZKGPU_HD const Poly& matrix(Poly& scratch, const uint8_t* rho, int b0, int b1) {
    sample_ntt(scratch, rho, uint8_t(b0), uint8_t(b1));
    return scratch;
  }
  // Nonces 0 .. count-1 of PRF(seed, .), the first n_a of them with eta_a, the others with eta_b.
  ZKGPU_HD void prepare_noise(const uint8_t* /*seed*/, int /*count*/, int /*n_a*/, int /*eta_a*/, int /*eta_b*/) {}
  // r = SamplePolyCBD_eta(PRF_eta(seed, nonce)), nonce and eta as announced.
  ZKGPU_HD void noise(Poly& r, const uint8_t* seed, int nonce, int eta) { sample_cbd(r, seed, uint8_t(nonce), eta); }
  ZKGPU_HD void ntt(Poly& p) { mlkem::ntt(p); }
  ZKGPU_HD void invntt_tomont(Poly& p) { mlkem::invntt_tomont(p); }
  ZKGPU_HD void basemul_acc(Poly& r, const Poly& a, const Poly& b) { mlkem::basemul_acc(r, a, b); }
};

// K-PKE.KeyGen from the 32-byte d: writes ek and the encoded s-hat.
template <int K, class Ops>
ZKGPU_HD void pke_keygen_with(Ops& ops, uint8_t* ek, uint8_t* pke_sk, const uint8_t d[32]) {
  uint8_t in[33], g[64];
  for (int i = 0; i < 32; ++i) in[i] = d[i];
  in[32] = uint8_t(K);  // the final standard's domain separator: G(d || k)
  keccak::sha3_512(g, in, 33);
  const uint8_t* rho = g;
  const uint8_t* sigma = g + 32;
  pq::ct_declassify(rho, 32);  // rho is published in ek; SampleNTT may branch on it
  ops.prepare_matrix(rho, K);
  ops.prepare_noise(sigma, 2 * K, 2 * K, Params<K>::eta1, Params<K>::eta1);
  Poly s[K];
  for (int i = 0; i < K; ++i) {
    ops.noise(s[i], sigma, i, Params<K>::eta1);
    ops.ntt(s[i]);
  }
  for (int i = 0; i < K; ++i) {
    Poly t, a, e;
    poly_zero(t);
    for (int j = 0; j < K; ++j) ops.basemul_acc(t, ops.matrix(a, rho, j, i), s[j]);
    poly_tomont(t);
    ops.noise(e, sigma, K + i, Params<K>::eta1);
    ops.ntt(e);
    poly_add(t, e);
    poly_reduce(t);
    poly_tobytes(ek + 384 * i, t);
    poly_tobytes(pke_sk + 384 * i, s[i]);
  }
  for (int i = 0; i < 32; ++i) ek[384 * K + i] = rho[i];
}
template <int K>
ZKGPU_HD void pke_keygen(uint8_t* ek, uint8_t* pke_sk, const uint8_t d[32]) {
  PortableOps ops;
  pke_keygen_with<K>(ops, ek, pke_sk, d);
}

// K-PKE.Encrypt(ek, m, r). ek must already have passed the modulus check (or come from dk).
template <int K, class Ops>
ZKGPU_HD void pke_encrypt_with(Ops& ops, uint8_t* c, const uint8_t* ek, const uint8_t m[32], const uint8_t r[32]) {
  using P = Params<K>;
  const uint8_t* rho = ek + 384 * K;
  ops.prepare_matrix(rho, K);
  ops.prepare_noise(r, 2 * K + 1, K, P::eta1, P::eta2);
  Poly y[K];
  for (int i = 0; i < K; ++i) {
    ops.noise(y[i], r, i, P::eta1);
    ops.ntt(y[i]);
  }
  for (int i = 0; i < K; ++i) {  // u_i = NTT^-1(sum_j A[j][i] y_j) + e1_i
    Poly u, a, e1;
    poly_zero(u);
    for (int j = 0; j < K; ++j) ops.basemul_acc(u, ops.matrix(a, rho, i, j), y[j]);
    ops.invntt_tomont(u);
    ops.noise(e1, r, K + i, P::eta2);
    poly_add(u, e1);
    poly_reduce(u);
    poly_compress(c + 32 * P::du * i, u, P::du);
  }
  Poly v, t, e2, mu;
  poly_zero(v);
  for (int j = 0; j < K; ++j) {
    poly_frombytes(t, ek + 384 * j);
    ops.basemul_acc(v, t, y[j]);
  }
  ops.invntt_tomont(v);
  // e1 and e2 get polynomials of their own (not a reused scratch one): nvcc spills three times
  // more in the encapsulation kernels otherwise.
  ops.noise(e2, r, 2 * K, P::eta2);
  poly_frommsg(mu, m);
  poly_add(v, e2);
  poly_add(v, mu);
  poly_reduce(v);
  poly_compress(c + 32 * P::du * K, v, P::dv);
}
template <int K>
ZKGPU_HD void pke_encrypt(uint8_t* c, const uint8_t* ek, const uint8_t m[32], const uint8_t r[32]) {
  PortableOps ops;
  pke_encrypt_with<K>(ops, c, ek, m, r);
}

// K-PKE.Decrypt(dk_pke, c) -> m.
template <int K, class Ops>
ZKGPU_HD void pke_decrypt_with(Ops& ops, uint8_t m[32], const uint8_t* pke_sk, const uint8_t* c) {
  using P = Params<K>;
  Poly w, u, s;
  poly_zero(w);
  for (int i = 0; i < K; ++i) {
    poly_decompress(u, c + 32 * P::du * i, P::du);
    ops.ntt(u);
    poly_frombytes(s, pke_sk + 384 * i);
    ops.basemul_acc(w, s, u);
  }
  ops.invntt_tomont(w);
  Poly v;
  poly_decompress(v, c + 32 * P::du * K, P::dv);
  poly_sub_from(w, v);  // w = v - s^T u
  poly_reduce(w);
  poly_tomsg(m, w);
}
template <int K>
ZKGPU_HD void pke_decrypt(uint8_t m[32], const uint8_t* pke_sk, const uint8_t* c) {
  PortableOps ops;
  pke_decrypt_with<K>(ops, m, pke_sk, c);
}

// ML-KEM.KeyGen_internal(d, z) (Algorithm 16).
template <int K, class Ops>
ZKGPU_HD void keygen_with(Ops& ops, uint8_t* ek, uint8_t* dk, const uint8_t d[32], const uint8_t z[32]) {
  constexpr size_t PK = Params<K>::pke_sk_bytes, EK = Params<K>::ek_bytes;
  pke_keygen_with<K>(ops, ek, dk, d);
  for (size_t i = 0; i < EK; ++i) dk[PK + i] = ek[i];
  keccak::sha3_256(dk + PK + EK, ek, EK);
  for (int i = 0; i < 32; ++i) dk[PK + EK + 32 + i] = z[i];
}
template <int K>
ZKGPU_HD void keygen(uint8_t* ek, uint8_t* dk, const uint8_t d[32], const uint8_t z[32]) {
  PortableOps ops;
  keygen_with<K>(ops, ek, dk, d, z);
}

// The encapsulation-key check of FIPS 203 section 7.2 (length is the caller's).
template <int K>
ZKGPU_HD bool ek_valid(const uint8_t* ek) {
  bool ok = true;
  for (int i = 0; i < K; ++i) ok &= bytes12_reduced(ek + 384 * i);
  return ok;
}

// ML-KEM.Encaps_internal(ek, m) (Algorithm 17) after the modulus check; false rejects ek.
template <int K, class Ops>
ZKGPU_HD bool encaps_with(Ops& ops, uint8_t* c, uint8_t key[32], const uint8_t* ek, const uint8_t m[32]) {
  if (!ek_valid<K>(ek)) return false;  // public input: a branch is fine
  uint8_t in[64], kr[64];
  for (int i = 0; i < 32; ++i) in[i] = m[i];
  keccak::sha3_256(in + 32, ek, Params<K>::ek_bytes);
  keccak::sha3_512(kr, in, 64);
  pke_encrypt_with<K>(ops, c, ek, m, kr + 32);
  for (int i = 0; i < 32; ++i) key[i] = kr[i];
  return true;
}
template <int K>
ZKGPU_HD bool encaps(uint8_t* c, uint8_t key[32], const uint8_t* ek, const uint8_t m[32]) {
  PortableOps ops;
  return encaps_with<K>(ops, c, key, ek, m);
}

// The decapsulation-key check of section 7.3: H(ek) equals the hash stored in dk.
template <int K>
ZKGPU_HD bool dk_valid(const uint8_t* dk) {
  constexpr size_t PK = Params<K>::pke_sk_bytes, EK = Params<K>::ek_bytes;
  uint8_t h[32];
  keccak::sha3_256(h, dk + PK, EK);
  return pq::ct_differ(h, dk + PK + EK, 32) == 0;
}

// ML-KEM.Decaps_internal(dk, c) (Algorithm 18) with implicit rejection: the re-encryption is
// compared over its full length and the key selected with a mask, so neither reveals which key
// was returned. False only when dk fails its hash check (a property of the key, not of c).
template <int K, class Ops>
ZKGPU_HD bool decaps_with(Ops& ops, uint8_t key[32], const uint8_t* dk, const uint8_t* c) {
  using P = Params<K>;
  constexpr size_t PK = P::pke_sk_bytes, EK = P::ek_bytes;
  if (!pq::ct_declassify_value(dk_valid<K>(dk))) return false;
  const uint8_t* ek = dk + PK;
  pq::ct_declassify(ek, EK);  // the embedded ek is the public key (SampleNTT branches on its rho)
  const uint8_t* h = dk + PK + EK;
  const uint8_t* z = dk + PK + EK + 32;
  uint8_t in[64], kr[64];
  pke_decrypt_with<K>(ops, in, dk, c);
  for (int i = 0; i < 32; ++i) in[32 + i] = h[i];
  keccak::sha3_512(kr, in, 64);
  uint8_t c2[P::c_bytes];
  pke_encrypt_with<K>(ops, c2, ek, in, kr + 32);
  keccak::Sponge j = keccak::shake256();  // K-bar = J(z || c)
  j.absorb(z, 32);
  j.absorb(c, P::c_bytes);
  j.squeeze(key, 32);
  pq::ct_cmov(key, kr, 32, 1u - pq::ct_differ(c, c2, P::c_bytes));
  return true;
}
template <int K>
ZKGPU_HD bool decaps(uint8_t key[32], const uint8_t* dk, const uint8_t* c) {
  PortableOps ops;
  return decaps_with<K>(ops, key, dk, c);
}

}  // namespace zkgpu::mlkem
