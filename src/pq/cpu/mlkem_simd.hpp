// AVX2 versions of ML-KEM pieces of core/mlkem (mlkem_avx2.cpp). Each gives exactly the portable
// function's output (the ring operations run the same int16 operations per lane). Call only when
// simd_level() >= Avx2.
#pragma once
#include "zkgpu/core/mlkem/poly.hpp"

namespace zkgpu::pq::cpu {

void mlkem_ntt_avx2(mlkem::Poly& p);
void mlkem_invntt_tomont_avx2(mlkem::Poly& p);
// mlkem::rej_uniform on whole 24-byte groups: parses buf[0, len) (len a multiple of 24, and four
// more bytes readable after it) while n < 256. out needs 16 spare entries after out[255]: the last
// group may write accepted values past 256, which the caller ignores (as the portable loop never
// writes them).
int mlkem_rej_uniform_avx2(int16_t* out, int n, const uint8_t* buf, unsigned len);
void mlkem_basemul_acc_avx2(mlkem::Poly& r, const mlkem::Poly& a, const mlkem::Poly& b);

}  // namespace zkgpu::pq::cpu
