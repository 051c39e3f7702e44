// Four-way Keccak-f[1600] with AVX2 (compiled with -mavx2; called only after the runtime check).
#include <immintrin.h>

#include "pq/cpu/keccak_x4_impl.hpp"

namespace zkgpu::pq::cpu {
namespace {
struct Avx2 {
  using T = __m256i;
  static T load(const uint64_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(uint64_t* p, T v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
  static T broadcast(uint64_t x) { return _mm256_set1_epi64x(int64_t(x)); }
  static T bxor(T a, T b) { return _mm256_xor_si256(a, b); }
  static T xor5(T a, T b, T c, T d, T e) { return bxor(bxor(bxor(a, b), bxor(c, d)), e); }
  static T andnot_xor(T a, T b, T c) { return bxor(a, _mm256_andnot_si256(b, c)); }
  template <int N>
  static T rotl(T x) {
    if constexpr (N == 0) return x;
    else return _mm256_or_si256(_mm256_slli_epi64(x, N), _mm256_srli_epi64(x, 64 - N));
  }
};
}  // namespace

void keccak_x4_permute_avx2(KeccakX4& st) { detail::keccak_x4<Avx2>(st); }

}  // namespace zkgpu::pq::cpu
