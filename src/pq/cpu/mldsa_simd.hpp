// AVX2 versions of the ML-DSA ring operations of core/mldsa/poly.hpp (mldsa_avx2.cpp). Each gives
// exactly the portable function's output (the same int32/int64 operations per lane). Call only
// when simd_level() >= Avx2.
#pragma once
#include "zkgpu/core/mldsa/poly.hpp"

namespace zkgpu::pq::cpu {

void mldsa_ntt_avx2(mldsa::Poly& p);
void mldsa_invntt_tomont_avx2(mldsa::Poly& p);
void mldsa_pointwise_avx2(mldsa::Poly& r, const mldsa::Poly& a, const mldsa::Poly& b);      // r = a * b
void mldsa_pointwise_acc_avx2(mldsa::Poly& r, const mldsa::Poly& a, const mldsa::Poly& b);  // r += a * b

}  // namespace zkgpu::pq::cpu
