// Four-way Keccak-f[1600] with AVX-512VL on 256-bit registers: native 64-bit rotates and
// three-input logic (vpternlogq) shorten theta and chi (compiled with -mavx512vl; called only
// after the runtime check).
#include "pq/cpu/keccak_x4_impl.hpp"

namespace zkgpu::pq::cpu {
namespace {
struct Avx512 : detail::Ymm {
  static T xor3(T a, T b, T c) { return _mm256_ternarylogic_epi64(a, b, c, 0x96); }
  static T xor5(T a, T b, T c, T d, T e) { return xor3(xor3(a, b, c), d, e); }
  static T andnot_xor(T a, T b, T c) { return _mm256_ternarylogic_epi64(a, b, c, 0xD2); }  // a ^ (~b & c)
  template <int N>
  static T rotl(T x) {
    if constexpr (N == 0)
      return x;
    else
      return _mm256_rol_epi64(x, N);
  }
};
}  // namespace

void keccak_x4_permute_avx512(KeccakX4& st) { detail::keccak_x4<Avx512>(st); }

}  // namespace zkgpu::pq::cpu
