// Four-way Keccak-f[1600] with AVX2 (compiled with -mavx2; called only after the runtime check).
#include "pq/cpu/keccak_x4_impl.hpp"

namespace zkgpu::pq::cpu {
namespace {
struct Avx2 : detail::Ymm {
  static T xor5(T a, T b, T c, T d, T e) { return bxor(bxor(bxor(a, b), bxor(c, d)), e); }
  static T andnot_xor(T a, T b, T c) { return bxor(a, _mm256_andnot_si256(b, c)); }
  template <int N>
  static T rotl(T x) {
    if constexpr (N == 0)
      return x;
    else
      return _mm256_or_si256(_mm256_slli_epi64(x, N), _mm256_srli_epi64(x, 64 - N));
  }
};
}  // namespace

void keccak_x4_permute_avx2(KeccakX4& st) { detail::keccak_x4<Avx2>(st); }

}  // namespace zkgpu::pq::cpu
