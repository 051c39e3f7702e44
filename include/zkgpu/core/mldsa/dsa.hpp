// ML-DSA (FIPS 204): KeyGen_internal, Sign_internal and Verify_internal (Algorithms 6-8) on the
// message representative mu, and mu itself for pure ML-DSA with a context (Algorithms 2-3).
// Header-only and allocation-free (one item per call), so CUDA kernels can call it per batch item.
// Each algorithm also has a *_with form that takes its samplers (ExpandA entries, ExpandS and
// ExpandMask polynomials), NTTs and pointwise products from an Ops object: PortableOps below is
// the one the plain forms and the CUDA kernels use; the host backend passes one that runs four
// SHAKE streams at once and uses AVX2 (src/pq/cpu/mldsa_cpu.hpp). The algorithm, and so every
// output byte, is the same for both.
#pragma once
#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/core/mldsa/pack.hpp"
#include "zkgpu/core/mldsa/params.hpp"
#include "zkgpu/core/mldsa/sample.hpp"
#include "zkgpu/core/pq/ct.hpp"

namespace zkgpu::mldsa {

// Signing gives up (and reports failure) once the ExpandMask counter kappa would no longer fit
// its two bytes (IntegerToBytes(kappa, 2)): 65536 / l >= 9362 attempts. Each attempt succeeds with
// probability about 1/4 to 1/5 for a well-formed key, so a correct key never gets near it, no
// mask is ever reused, and a malformed expanded key cannot make the loop run forever.
inline constexpr int KAPPA_LIMIT = 1 << 16;

// mu = H(tr || 0 || |ctx| || ctx || M, 64): pure ML-DSA's M' (Algorithm 2 line 10, Algorithm 7 line 6).
ZKGPU_HD void compute_mu(uint8_t mu[64], const uint8_t tr[64], const uint8_t* ctx, uint8_t ctxlen, const uint8_t* msg,
                         size_t msglen) {
  keccak::Sponge h = keccak::shake256();
  h.absorb(tr, 64);
  h.absorb_byte(0);
  h.absorb_byte(ctxlen);
  h.absorb(ctx, ctxlen);
  h.absorb(msg, msglen);
  h.squeeze(mu, 64);
}

// The portable samplers and ring operations: each polynomial is sampled where it is used. The
// prepare_* calls announce what will be asked for, so an Ops that samples several streams at once
// can do so; here they do nothing.
struct PortableOps {
  ZKGPU_HD void prepare_matrix(const uint8_t* /*rho*/, int /*k*/, int /*l*/) {}
  // out = RejNTTPoly(rho || s || r) = A[r][s].
  ZKGPU_HD void matrix(Poly& out, const uint8_t* rho, int s, int r) { sample_ntt(out, rho, uint8_t(s), uint8_t(r)); }
  // Nonces 0 .. count-1 of ExpandS.
  ZKGPU_HD void prepare_eta(const uint8_t* /*rhop*/, int /*count*/, int /*eta*/) {}
  ZKGPU_HD void eta(Poly& out, const uint8_t* rhop, int nonce, int eta) { sample_eta(out, rhop, uint16_t(nonce), eta); }
  // Counters kappa .. kappa+count-1 of ExpandMask.
  ZKGPU_HD void prepare_mask(const uint8_t* /*rhopp*/, int /*kappa*/, int /*count*/, int /*gamma1_bits*/) {}
  ZKGPU_HD void mask(Poly& y, const uint8_t* rhopp, int kappa, int gamma1_bits) {
    sample_mask(y, rhopp, uint16_t(kappa), gamma1_bits);
  }
  ZKGPU_HD void ntt(Poly& p) { mldsa::ntt(p); }
  ZKGPU_HD void invntt_tomont(Poly& p) { mldsa::invntt_tomont(p); }
  ZKGPU_HD void pointwise(Poly& r, const Poly& a, const Poly& b) { poly_pointwise(r, a, b); }
  ZKGPU_HD void pointwise_acc(Poly& r, const Poly& a, const Poly& b) { poly_pointwise_acc(r, a, b); }
};

template <class P>
struct SkLayout {  // byte offsets inside the expanded secret key (skEncode, Algorithm 24)
  static constexpr size_t RHO = 0, KEY = 32, TR = 64, S1 = 128;
  static constexpr size_t S2 = S1 + P::L * P::ETA_BYTES;
  static constexpr size_t T0 = S2 + P::K * P::ETA_BYTES;
};

// KeyGen_internal(xi) (Algorithm 6).
template <class P, class Ops>
ZKGPU_HD void keygen_with(Ops& ops, uint8_t* pk, uint8_t* sk, const uint8_t xi[32]) {
  using SK = SkLayout<P>;
  uint8_t seeds[128];  // rho || rho' || K
  keccak::Sponge h = keccak::shake256();
  h.absorb(xi, 32);
  h.absorb_byte(uint8_t(P::K));
  h.absorb_byte(uint8_t(P::L));
  h.squeeze(seeds, 128);
  const uint8_t* rho = seeds;
  const uint8_t* rhop = seeds + 32;
  pq::ct_declassify(rho, 32);  // rho is published in pk; ExpandA may branch on it
  ops.prepare_eta(rhop, P::L + P::K, P::ETA);
  ops.prepare_matrix(rho, P::K, P::L);
  Poly s1h[P::L];
  for (int i = 0; i < 32; ++i) {
    pk[i] = rho[i];
    sk[SK::RHO + i] = rho[i];
    sk[SK::KEY + i] = seeds[96 + i];
  }
  for (int i = 0; i < P::L; ++i) {
    ops.eta(s1h[i], rhop, i, P::ETA);
    pack_bits(sk + SK::S1 + i * P::ETA_BYTES, s1h[i], P::ETA_BITS, P::ETA);
    ops.ntt(s1h[i]);
  }
  for (int i = 0; i < P::K; ++i) {
    Poly t, a, s2;
    poly_zero(t);
    for (int j = 0; j < P::L; ++j) {
      ops.matrix(a, rho, j, i);
      ops.pointwise_acc(t, a, s1h[j]);
    }
    poly_reduce(t);
    ops.invntt_tomont(t);
    ops.eta(s2, rhop, P::L + i, P::ETA);
    pack_bits(sk + SK::S2 + i * P::ETA_BYTES, s2, P::ETA_BITS, P::ETA);
    poly_add(t, s2);
    Poly t0;
    for (int n = 0; n < N; ++n) t.c[n] = power2round(t0.c[n], freeze(t.c[n]));
    pack_simple(pk + 32 + i * P::T1_BYTES, t, 10);
    pack_bits(sk + SK::T0 + i * P::T0_BYTES, t0, D, 1 << (D - 1));
  }
  keccak::shake256(sk + SK::TR, 64, pk, P::PK_BYTES);
}
template <class P>
ZKGPU_HD void keygen(uint8_t* pk, uint8_t* sk, const uint8_t xi[32]) {
  PortableOps ops;
  keygen_with<P>(ops, pk, sk, xi);
}

// Packs c~ || z || h (sigEncode, Algorithm 26). Only called on an accepted, hence public, candidate.
template <class P>
ZKGPU_HD void pack_signature(uint8_t* sig, const uint8_t* ctilde, const Poly z[P::L], const Poly h[P::K]) {
  for (int i = 0; i < P::CTILDE_BYTES; ++i) sig[i] = ctilde[i];
  uint8_t* zb = sig + P::CTILDE_BYTES;
  for (int i = 0; i < P::L; ++i) pack_bits(zb + i * P::Z_BYTES, z[i], P::GAMMA1_BITS + 1, P::GAMMA1);
  uint8_t* hb = zb + P::L * P::Z_BYTES;
  for (int i = 0; i < P::OMEGA + P::K; ++i) hb[i] = 0;
  int k = 0;
  for (int i = 0; i < P::K; ++i) {
    for (int j = 0; j < N; ++j)
      if (h[i].c[j] != 0) hb[k++] = uint8_t(j);
    hb[P::OMEGA + i] = uint8_t(k);
  }
}

// Sign_internal(sk, mu, rnd) (Algorithm 7 from line 7; mu computed by the caller or external).
// False for an expanded key whose s1 or s2 coefficients lie outside [-eta, eta] (skDecode's
// domain), or if KAPPA_LIMIT was reached.
template <class P, class Ops>
ZKGPU_HD bool sign_mu_with(Ops& ops, uint8_t* sig, const uint8_t* sk, const uint8_t mu[64], const uint8_t rnd[32]) {
  using SK = SkLayout<P>;
  const uint8_t* rho = sk + SK::RHO;
  pq::ct_declassify(rho, 32);  // public (it is part of pk)
  Poly s1h[P::L], s2h[P::K], t0h[P::K];
  uint32_t bad_key = 0;
  for (int i = 0; i < P::L; ++i) {
    unpack_bits(s1h[i], sk + SK::S1 + i * P::ETA_BYTES, P::ETA_BITS, P::ETA);
    for (int n = 0; n < N; ++n) bad_key |= uint32_t(s1h[i].c[n] + P::ETA) >> 31;
    ops.ntt(s1h[i]);
  }
  for (int i = 0; i < P::K; ++i) {
    unpack_bits(s2h[i], sk + SK::S2 + i * P::ETA_BYTES, P::ETA_BITS, P::ETA);
    for (int n = 0; n < N; ++n) bad_key |= uint32_t(s2h[i].c[n] + P::ETA) >> 31;
    ops.ntt(s2h[i]);
    unpack_bits(t0h[i], sk + SK::T0 + i * P::T0_BYTES, D, 1 << (D - 1));
    ops.ntt(t0h[i]);
  }
  if (pq::ct_declassify_value(bad_key)) return false;  // reveals only that the key is malformed

  uint8_t rhopp[64];
  keccak::Sponge hr = keccak::shake256();
  hr.absorb(sk + SK::KEY, 32);
  hr.absorb(rnd, 32);
  hr.absorb(mu, 64);
  hr.squeeze(rhopp, 64);

  Poly A[P::K][P::L];
  ops.prepare_matrix(rho, P::K, P::L);
  for (int i = 0; i < P::K; ++i)
    for (int j = 0; j < P::L; ++j) ops.matrix(A[i][j], rho, j, i);

  for (int kappa = 0; kappa + P::L <= KAPPA_LIMIT; kappa += P::L) {
    Poly y[P::L], yh[P::L], w1[P::K], w0[P::K];
    ops.prepare_mask(rhopp, kappa, P::L, P::GAMMA1_BITS);
    for (int i = 0; i < P::L; ++i) {
      ops.mask(y[i], rhopp, kappa + i, P::GAMMA1_BITS);
      yh[i] = y[i];
      ops.ntt(yh[i]);
    }
    uint8_t ctilde[P::CTILDE_BYTES];
    {
      keccak::Sponge hc = keccak::shake256();
      hc.absorb(mu, 64);
      for (int i = 0; i < P::K; ++i) {
        Poly w;
        poly_zero(w);
        for (int j = 0; j < P::L; ++j) ops.pointwise_acc(w, A[i][j], yh[j]);
        poly_reduce(w);
        ops.invntt_tomont(w);
        poly_caddq(w);
        for (int n = 0; n < N; ++n) w1[i].c[n] = decompose<P::GAMMA2>(w0[i].c[n], w.c[n]);
        uint8_t packed[32 * 6];
        pack_simple(packed, w1[i], P::W1_BITS);
        hc.absorb(packed, size_t(32 * P::W1_BITS));
      }
      hc.squeeze(ctilde, sizeof ctilde);
    }
    // The challenge hash is treated as public, as in the reference code and mldsa-native: it is
    // a hash output that SampleInBall must branch on, and c~ of the accepted attempt is published.
    pq::ct_declassify(ctilde, sizeof ctilde);
    Poly c;
    sample_in_ball(c, ctilde, P::CTILDE_BYTES, P::TAU);
    ops.ntt(c);

    uint32_t reject = 0;
    Poly z[P::L];
    for (int i = 0; i < P::L; ++i) {
      ops.pointwise(z[i], c, s1h[i]);
      ops.invntt_tomont(z[i]);
      poly_add(z[i], y[i]);
      poly_reduce(z[i]);
      reject |= poly_norm_exceeds(z[i], P::GAMMA1 - P::BETA);
    }
    Poly h[P::K];
    uint32_t hints = 0;
    for (int i = 0; i < P::K; ++i) {
      Poly t;
      ops.pointwise(t, c, s2h[i]);
      ops.invntt_tomont(t);
      poly_sub(w0[i], t);  // r0 = LowBits(w - c*s2)
      poly_reduce(w0[i]);
      reject |= poly_norm_exceeds(w0[i], P::GAMMA2 - P::BETA);
      ops.pointwise(t, c, t0h[i]);
      ops.invntt_tomont(t);
      poly_reduce(t);
      reject |= poly_norm_exceeds(t, P::GAMMA2);
      for (int n = 0; n < N; ++n) {
        const uint32_t hint = make_hint<P::GAMMA2>(w0[i].c[n] + t.c[n], w1[i].c[n]);
        h[i].c[n] = int32_t(hint);
        hints += hint;
      }
    }
    reject |= uint32_t(P::OMEGA - int32_t(hints)) >> 31;
    if (pq::ct_declassify_value(reject)) continue;  // the one bit FIPS 204 lets a signer reveal
    for (int i = 0; i < P::L; ++i) pq::ct_declassify(z[i].c, sizeof z[i].c);
    for (int i = 0; i < P::K; ++i) pq::ct_declassify(h[i].c, sizeof h[i].c);
    pack_signature<P>(sig, ctilde, z, h);
    return true;
  }
  return false;
}
template <class P>
ZKGPU_HD bool sign_mu(uint8_t* sig, const uint8_t* sk, const uint8_t mu[64], const uint8_t rnd[32]) {
  PortableOps ops;
  return sign_mu_with<P>(ops, sig, sk, mu, rnd);
}

// HintBitUnpack (Algorithm 21) with its canonical-form checks: per-polynomial end indices
// non-decreasing and at most omega, indices strictly increasing within a polynomial, unused
// slots zero. Public data.
template <class P>
ZKGPU_HD bool unpack_hint(Poly h[P::K], const uint8_t* y) {
  for (int i = 0; i < P::K; ++i) poly_zero(h[i]);
  int k = 0;
  for (int i = 0; i < P::K; ++i) {
    const int end = y[P::OMEGA + i];
    if (end < k || end > P::OMEGA) return false;
    for (int j = k; j < end; ++j) {
      if (j > k && y[j] <= y[j - 1]) return false;
      h[i].c[y[j]] = 1;
    }
    k = end;
  }
  for (int j = k; j < P::OMEGA; ++j)
    if (y[j] != 0) return false;
  return true;
}

// Verify_internal(pk, mu, sigma) (Algorithm 8). Public inputs only: variable time is fine.
template <class P, class Ops>
ZKGPU_HD bool verify_mu_with(Ops& ops, const uint8_t* pk, const uint8_t mu[64], const uint8_t* sig) {
  const uint8_t* ctilde = sig;
  Poly z[P::L], h[P::K];
  const uint8_t* zb = sig + P::CTILDE_BYTES;
  for (int i = 0; i < P::L; ++i) {
    unpack_bits(z[i], zb + i * P::Z_BYTES, P::GAMMA1_BITS + 1, P::GAMMA1);
    if (poly_norm_exceeds(z[i], P::GAMMA1 - P::BETA)) return false;
  }
  if (!unpack_hint<P>(h, zb + P::L * P::Z_BYTES)) return false;
  Poly c;
  sample_in_ball(c, ctilde, P::CTILDE_BYTES, P::TAU);
  ops.ntt(c);
  for (int i = 0; i < P::L; ++i) ops.ntt(z[i]);
  ops.prepare_matrix(pk, P::K, P::L);
  keccak::Sponge hc = keccak::shake256();
  hc.absorb(mu, 64);
  for (int i = 0; i < P::K; ++i) {
    Poly w, a, t1;
    poly_zero(w);
    for (int j = 0; j < P::L; ++j) {
      ops.matrix(a, pk, j, i);
      ops.pointwise_acc(w, a, z[j]);
    }
    unpack_simple(t1, pk + 32 + i * P::T1_BYTES, 10);
    poly_shiftl(t1);
    ops.ntt(t1);
    ops.pointwise(a, c, t1);
    poly_sub(w, a);
    poly_reduce(w);
    ops.invntt_tomont(w);
    poly_caddq(w);
    for (int n = 0; n < N; ++n) w.c[n] = use_hint<P::GAMMA2>(w.c[n], uint32_t(h[i].c[n]));
    uint8_t packed[32 * 6];
    pack_simple(packed, w, P::W1_BITS);
    hc.absorb(packed, size_t(32 * P::W1_BITS));
  }
  uint8_t c2[P::CTILDE_BYTES];
  hc.squeeze(c2, sizeof c2);
  return pq::ct_differ(c2, ctilde, sizeof c2) == 0;
}
template <class P>
ZKGPU_HD bool verify_mu(const uint8_t* pk, const uint8_t mu[64], const uint8_t* sig) {
  PortableOps ops;
  return verify_mu_with<P>(ops, pk, mu, sig);
}

}  // namespace zkgpu::mldsa
