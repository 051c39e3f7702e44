// Element-wise driver over a packed BabyBear type, instantiated once per ISA file so the test
// can compare every packing with scalar BabyBear on the same inputs.
#pragma once
#include <cstddef>

#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::test {

// out[k] receives op k over n elements (n a multiple of P::LANES):
// 0: a+b, 1: a-b, 2: a*b, 3: -a, 4: a.dbl(), 5: ((a+=b)-=c)*=b, 6: broadcast(b[0])*a, 7: load/store, 8: zero()+a.
inline constexpr int PACKED_OPS = 9;

template <class P>
void packed_ops(const BabyBear* a, const BabyBear* b, const BabyBear* c, size_t n, BabyBear* const out[PACKED_OPS]) {
  for (size_t i = 0; i < n; i += P::LANES) {
    P x = P::load(a + i), y = P::load(b + i), z = P::load(c + i);
    (x + y).store(out[0] + i);
    (x - y).store(out[1] + i);
    (x * y).store(out[2] + i);
    (-x).store(out[3] + i);
    x.dbl().store(out[4] + i);
    P w = x;
    w += y;
    w -= z;
    w *= y;
    w.store(out[5] + i);
    (P::broadcast(b[0]) * x).store(out[6] + i);
    x.store(out[7] + i);
    (P::zero() + x).store(out[8] + i);
  }
}

void packed_ops_avx2(const BabyBear* a, const BabyBear* b, const BabyBear* c, size_t n,
                     BabyBear* const out[PACKED_OPS]);
void packed_ops_avx512(const BabyBear* a, const BabyBear* b, const BabyBear* c, size_t n,
                       BabyBear* const out[PACKED_OPS]);

}  // namespace zkgpu::test
