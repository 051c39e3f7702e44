// [a]P + [b]B with fixed signed windows: the GPU's double-scalar multiplication.
//
// Why not the sliding windows of verify.hpp: on a GPU, 32 signatures share one instruction
// stream (a warp), and a sliding window adds at positions that differ per scalar, so the warp
// executes every signature's additions at almost every bit (~2.5x the work). Fixed windows put
// the additions of every signature at the same positions: radix-16 digits for P (one addition
// per 4 doublings, table 0..8 P) and radix-256 digits for B (one per 8, fixed table 0..128 B),
// with the identity as the digit-0 entry, so no signature branches. On the CPU sliding windows
// stay cheaper (fewer additions, no warp); both give the same point, which the tests check.
#pragma once
#include <cstdint>

#include "zkgpu/core/common.hpp"
#include "zkgpu/core/ed25519/fe_generic.hpp"
#include "zkgpu/core/ed25519/point.hpp"

namespace zkgpu::ed25519 {

inline constexpr int BASE_MULTIPLES_SIZE = 129;  // 0B, 1B, ..., 128B

// The fixed table of j B, j = 0..128, as affine precomputed points (entry 0 is the identity).
template <class F>
inline void ed25519_base_multiples(GePrecomp<F> out[BASE_MULTIPLES_SIZE]) {
  out[0] = GePrecomp<F>{f_one<F>(), f_one<F>(), f_zero<F>()};
  const GeP3<F> b = ge_base<F>();
  const GeCached<F> bc = ge_p3_to_cached(b);
  GeP3<F> cur = b;
  for (int j = 1; j < BASE_MULTIPLES_SIZE; ++j) {
    out[j] = ge_p3_to_precomp(cur);
    cur = ge_p1p1_to_p3(ge_add_cached(cur, bc, false));
  }
}

// The table a kernel reads B's multiples from (an overload tag for the verifier's templates).
template <class F>
struct FixedBaseTable {
  const GePrecomp<F>* multiples;  // BASE_MULTIPLES_SIZE entries
};

// a = sum e[i] 16^i with e[i] in [-8, 8) for i < 63 and e[63] in [0, 8] (a < 2^255).
ZKGPU_HD void scalar_radix16(int8_t e[64], const uint8_t a[32]) {
  for (int i = 0; i < 32; ++i) {
    e[2 * i] = static_cast<int8_t>(a[i] & 15);
    e[2 * i + 1] = static_cast<int8_t>(a[i] >> 4);
  }
  int carry = 0;
  for (int i = 0; i < 63; ++i) {
    const int v = e[i] + carry;
    carry = (v + 8) >> 4;
    e[i] = static_cast<int8_t>(v - (carry << 4));
  }
  e[63] = static_cast<int8_t>(e[63] + carry);
}

// b = sum e[i] 256^i with e[i] in [-128, 128) for i < 31 and e[31] in [0, 128] (b < 2^255).
ZKGPU_HD void scalar_radix256(int16_t e[32], const uint8_t b[32]) {
  int carry = 0;
  for (int i = 0; i < 31; ++i) {
    const int v = b[i] + carry;
    carry = (v + 128) >> 8;
    e[i] = static_cast<int16_t>(v - (carry << 8));
  }
  e[31] = static_cast<int16_t>(b[31] + carry);
}

template <class F>
ZKGPU_HD GeCached<F> ge_cached_identity() {
  return GeCached<F>{f_one<F>(), f_one<F>(), f_one<F>(), f_zero<F>()};
}

// [a]P + [b]B for scalars a, b < 2^255 (public inputs; the control flow depends on nothing but
// the loop counters). M spreads a point operation's products as in verify.hpp.
template <class F, class M = SerialMul<F>>
ZKGPU_HD GeP3<F> ge_double_scalarmult(const uint8_t a[32], const GeP3<F>& p, const uint8_t b[32],
                                      const FixedBaseTable<F>& base, const M& m = M{}) {
  int8_t ea[64];
  int16_t eb[32];
  scalar_radix16(ea, a);
  scalar_radix256(eb, b);

  GeCached<F> pj[9];  // 0P (the identity), P, 2P, ..., 8P
  pj[0] = ge_cached_identity<F>();
  pj[1] = ge_p3_to_cached(p);
  pj[2] = ge_p3_to_cached(ge_p1p1_to_p3(ge_p3_dbl(p, m), m));
  for (int j = 3; j <= 8; ++j) pj[j] = ge_p3_to_cached(ge_p1p1_to_p3(ge_add_cached(p, pj[j - 1], false, m), m));

  // Horner from the top digit: 4 doublings, then P's digit, then (every other position) B's.
  GeP3<F> u = ge_identity<F>();
  GeP1P1<F> t;
  ZKGPU_NO_UNROLL
  for (int i = 63; i >= 0; --i) {
    if (i != 63) {
      ZKGPU_NO_UNROLL
      for (int k = 0; k < 4; ++k) t = ge_p2_dbl(ge_p1p1_to_p2(t, m), m);
      u = ge_p1p1_to_p3(t, m);
    }
    const int da = ea[i];
    t = ge_add_cached(u, pj[da < 0 ? -da : da], da < 0, m);
    if ((i & 1) == 0) {
      const int db = eb[i >> 1];
      u = ge_p1p1_to_p3(t, m);
      t = ge_add_precomp(u, base.multiples[db < 0 ? -db : db], db < 0, m);
    }
  }
  return ge_p1p1_to_p3(t, m);
}

}  // namespace zkgpu::ed25519
