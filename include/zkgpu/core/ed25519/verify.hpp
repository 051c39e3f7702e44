// One Ed25519 verification (RFC 8032 section 5.1.7) under a selectable rule set, for host and
// device. The three modes and their rules on each edge case are documented in docs/ed25519.md.
#pragma once
#include <cstddef>
#include <cstdint>

#include "zkgpu/core/common.hpp"
#include "zkgpu/core/ed25519/fe25519.hpp"
#include "zkgpu/core/ed25519/fe_generic.hpp"
#include "zkgpu/core/ed25519/point.hpp"
#include "zkgpu/core/ed25519/scalar.hpp"
#include "zkgpu/core/ed25519/scalarmult_fixed.hpp"
#include "zkgpu/core/ed25519/sha512.hpp"

namespace zkgpu::ed25519 {

// Kept in sync with zkgpu::Ed25519Mode (include/zkgpu/ed25519.hpp).
enum class VerifyMode : uint8_t {
  Openssl = 0,  // OpenSSL, Go, BoringSSL, dalek verify(): cofactorless, S < L, R compared as bytes
  Strict = 1,   // dalek verify_strict(): as Openssl, and small-order A or R rejected
  Zip215 = 2,   // ZIP-215: cofactored, non-canonical A and R accepted
};

inline constexpr int BASE_WINDOW = 8;  // odd multiples B, 3B, ..., 127B
inline constexpr int BASE_TABLE_SIZE = 1 << (BASE_WINDOW - 2);
inline constexpr int POINT_WINDOW = 5;  // A, 3A, ..., 15A per signature
inline constexpr int POINT_TABLE_SIZE = 1 << (POINT_WINDOW - 2);

// The fixed table of odd multiples of B, affine (one inversion each; built once per process on
// the host and uploaded once per device).
template <class F>
inline void ed25519_base_table(GePrecomp<F> out[BASE_TABLE_SIZE]) {
  const GeP3<F> b = ge_base<F>();
  const GeCached<F> b2 = ge_p3_to_cached(ge_p1p1_to_p3(ge_p3_dbl(b)));
  GeP3<F> cur = b;
  for (int i = 0; i < BASE_TABLE_SIZE; ++i) {
    out[i] = ge_p3_to_precomp(cur);
    cur = ge_p1p1_to_p3(ge_add_cached(cur, b2, false));
  }
}

// [a]P + [b]B for scalars a, b < 2^255, variable time (all inputs are public), as an extended point.
// M: how the products of one point operation are spread (SerialMul, or a group of GPU lanes).
template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP3<F> ge_double_scalarmult_vartime(const uint8_t a[32], const GeP3<F>& p, const uint8_t b[32],
                                              const GePrecomp<F>* base_table, const M& m = M{}) {
  int8_t aslide[256], bslide[256];
  scalar_slide(aslide, a, POINT_WINDOW);
  scalar_slide(bslide, b, BASE_WINDOW);

  GeCached<F> pi[POINT_TABLE_SIZE];  // P, 3P, ..., 15P
  pi[0] = ge_p3_to_cached(p);
  const GeP3<F> p2 = ge_p1p1_to_p3(ge_p3_dbl(p, m), m);
  for (int i = 1; i < POINT_TABLE_SIZE; ++i)
    pi[i] = ge_p3_to_cached(ge_p1p1_to_p3(ge_add_cached(p2, pi[i - 1], false, m), m));

  int i = 255;
  while (i >= 0 && !aslide[i] && !bslide[i]) --i;
  if (i < 0) return ge_identity<F>();
  GeP2<F> r = ge_p3_to_p2(ge_identity<F>());
  GeP1P1<F> t;
  for (; i >= 0; --i) {
    t = ge_p2_dbl(r, m);
    if (aslide[i]) {
      const GeP3<F> u = ge_p1p1_to_p3(t, m);
      t = ge_add_cached(u, pi[(aslide[i] > 0 ? aslide[i] : -aslide[i]) / 2], aslide[i] < 0, m);
    }
    if (bslide[i]) {
      const GeP3<F> u = ge_p1p1_to_p3(t, m);
      t = ge_add_precomp(u, base_table[(bslide[i] > 0 ? bslide[i] : -bslide[i]) / 2], bslide[i] < 0, m);
    }
    if (i > 0) r = ge_p1p1_to_p2(t, m);
  }
  return ge_p1p1_to_p3(t, m);
}

// The table type picks the method: odd multiples of B (sliding windows, the CPU's) or
// FixedBaseTable (fixed windows, the GPU's: scalarmult_fixed.hpp).
template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP3<F> ge_double_scalarmult(const uint8_t a[32], const GeP3<F>& p, const uint8_t b[32],
                                      const GePrecomp<F>* odd_multiples, const M& m = M{}) {
  return ge_double_scalarmult_vartime(a, p, b, odd_multiples, m);
}

template <class Table>
struct TableField;
template <class F>
struct TableField<const GePrecomp<F>*> {
  using type = F;
};
template <class F>
struct TableField<GePrecomp<F>*> {
  using type = F;
};
template <class F>
struct TableField<FixedBaseTable<F>> {
  using type = F;
};

// k = SHA-512(R || A || M) mod L over the raw bytes of R and A.
ZKGPU_HD Scalar ed25519_challenge(const uint8_t r[32], const uint8_t a[32], const uint8_t* msg, size_t len) {
  Sha512 h;
  h.init();
  h.update(r, 32);
  h.update(a, 32);
  h.update(msg, len);
  uint8_t digest[64];
  h.final(digest);
  return scalar_reduce_bytes(digest, 64);
}

// Every check before the curve equation: S < L, decodings, small-order rules. Fills A (and R
// where the mode needs it as a point).
template <class F>
ZKGPU_HD bool ed25519_precheck(VerifyMode mode, const uint8_t pk[32], const uint8_t sig[64], GeP3<F>& a, GeP3<F>& r) {
  if (!scalar_is_canonical(sig + 32)) return false;
  // All three modes decode leniently (y taken mod p, x = 0 with the sign bit accepted); what
  // differs is whether R is decoded at all and which orders are allowed.
  const DecodeRules lenient{false, false};
  if (!ge_frombytes(a, pk, lenient)) return false;
  if (mode == VerifyMode::Openssl) return true;
  if (!ge_frombytes(r, sig, lenient)) return false;
  if (mode == VerifyMode::Strict && (ge_has_small_order(a) || ge_has_small_order(r))) return false;
  return true;
}

// [S]B - [k]A, the point the equation compares with R.
template <class F, class Table, class M = SerialMul<F>>
ZKGPU_HD GeP3<F> ed25519_sb_minus_ka(const uint8_t sig[64], const GeP3<F>& a, const Scalar& k, const Table& base_table,
                                     const M& m = M{}) {
  GeP3<F> neg_a = a;
  neg_a.X = fe_neg(a.X);
  neg_a.T = fe_neg(a.T);
  uint8_t kb[32];
  scalar_to_bytes(kb, k);
  return ge_double_scalarmult(kb, neg_a, sig + 32, base_table, m);
}

// Cofactorless check: encode(q) == the R bytes, given z_inv = 1/q.Z (callers may batch the
// inversions of many signatures).
template <class F>
ZKGPU_HD bool ed25519_encoding_matches(const GeP3<F>& q, const F& z_inv, const uint8_t r_bytes[32]) {
  const F x = fe_mul(q.X, z_inv), y = fe_mul(q.Y, z_inv);
  uint8_t enc[32];
  fe_tobytes(enc, y);
  enc[31] ^= static_cast<uint8_t>(fe_is_negative(x) << 7);
  uint8_t diff = 0;
  for (int i = 0; i < 32; ++i) diff |= enc[i] ^ r_bytes[i];
  return diff == 0;
}

// Cofactored check: [8](q - R) = O.
template <class F>
ZKGPU_HD bool ed25519_cofactored_matches(const GeP3<F>& q, const GeP3<F>& r) {
  GeP2<F> d = ge_p1p1_to_p2(ge_add_cached(q, ge_p3_to_cached(r), true));
  for (int i = 0; i < 3; ++i) d = ge_p1p1_to_p2(ge_p2_dbl(d));
  return ge_p2_is_identity(d);
}

// The curve equation once k is known. Cofactorless modes compare encode([S]B - [k]A) with the
// R bytes; Zip215 checks [8]([S]B - [k]A - R) = O.
template <class F, class Table, class M = SerialMul<F>>
ZKGPU_HD bool ed25519_equation(VerifyMode mode, const uint8_t sig[64], const GeP3<F>& a, const GeP3<F>& r,
                               const Scalar& k, const Table& base_table, const M& m = M{}) {
  const GeP3<F> q = ed25519_sb_minus_ka(sig, a, k, base_table, m);
  if (mode == VerifyMode::Zip215) return ed25519_cofactored_matches(q, r);
  return ed25519_encoding_matches(q, fe_invert(q.Z), sig);
}

// Table: `const GePrecomp<F>*` (odd multiples of B) or FixedBaseTable<F>; F follows from it.
template <class Table, class M = SerialMul<typename TableField<Table>::type>>
ZKGPU_HD bool ed25519_verify(VerifyMode mode, const uint8_t pk[32], const uint8_t sig[64], const uint8_t* msg,
                             size_t len, Table base_table, const M& m = M{}) {
  using F = typename TableField<Table>::type;
  GeP3<F> a, r;
  if (!ed25519_precheck(mode, pk, sig, a, r)) return false;
  const Scalar k = ed25519_challenge(sig, pk, msg, len);
  return ed25519_equation(mode, sig, a, r, k, base_table, m);
}

// A decoded point and whether the decoding succeeded (a plain struct of 32-bit words, so GPU lanes
// can exchange it).
template <class F>
struct DecodedPoint {
  GeP3<F> p;
  uint32_t ok;
};

// The verdicts of ed25519_verify in the GPU's order of work: A and R are decoded as a pair (the
// lanes of a tile decode both at once, M::pair), and the cofactorless modes compare [S]B - [k]A
// with R projectively (X = x_R Z, Y = y_R Z) instead of inverting Z to encode it. R is decoded
// strictly there: an encoding has the canonical y and no negative zero, so "encode(q) == R bytes"
// holds exactly when the strict decoding succeeds and gives q. Both square-root chains then run
// side by side and the final inversion leaves a lone signature's chain of dependent products
// (~265 of them, of ~1000).
template <class Table, class M = SerialMul<typename TableField<Table>::type>>
ZKGPU_HD bool ed25519_verify_decoding_r(VerifyMode mode, const uint8_t pk[32], const uint8_t sig[64],
                                        const uint8_t* msg, size_t len, Table base_table, const M& m = M{}) {
  using F = typename TableField<Table>::type;
  if (!scalar_is_canonical(sig + 32)) return false;
  const bool strict_r = mode != VerifyMode::Zip215;
  DecodedPoint<F> d[2];  // A, R
  m.pair(d, [&](int which) {
    DecodedPoint<F> out;
    const DecodeRules rules{which == 1 && strict_r, which == 1 && strict_r};
    out.ok = ge_frombytes(out.p, which == 0 ? pk : sig, rules) ? 1u : 0u;
    return out;
  });
  if (!d[0].ok || !d[1].ok) return false;
  if (mode == VerifyMode::Strict && (ge_has_small_order(d[0].p) || ge_has_small_order(d[1].p))) return false;
  const Scalar k = ed25519_challenge(sig, pk, msg, len);
  const GeP3<F> q = ed25519_sb_minus_ka(sig, d[0].p, k, base_table, m);
  if (mode == VerifyMode::Zip215) return ed25519_cofactored_matches(q, d[1].p);
  return fe_equal(q.X, fe_mul(d[1].p.X, q.Z)) && fe_equal(q.Y, fe_mul(d[1].p.Y, q.Z));
}

}  // namespace zkgpu::ed25519
