// Montgomery's trick: the inverses of n elements for one field inversion and 3(n - 1)
// multiplications. Zeros are left as zero (the convention of BabyBear::inverse).
#pragma once
#include "zkgpu/core/common.hpp"

namespace zkgpu {

// scratch: n elements. Works for BabyBear and BabyBear4.
template <class F>
ZKGPU_HD void batch_inverse_serial(F* x, size_t n, F* scratch) {
  F acc = F::one();
  for (size_t i = 0; i < n; ++i) {
    scratch[i] = acc;  // product of the nonzero x[0..i)
    if (!x[i].is_zero()) acc *= x[i];
  }
  F inv = acc.inverse();  // inverse of the product of every nonzero x
  for (size_t i = n; i-- > 0;) {
    if (x[i].is_zero()) continue;
    const F xi = x[i];
    x[i] = inv * scratch[i];
    inv *= xi;
  }
}

}  // namespace zkgpu
