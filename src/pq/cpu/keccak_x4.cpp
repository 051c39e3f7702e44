// Dispatch and sponge bookkeeping of the four-way Keccak (keccak_x4.hpp).
#include "pq/cpu/keccak_x4.hpp"

#include <cstring>

#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu::pq::cpu {

void keccak_x4_permute_portable(KeccakX4& st) {
  for (int j = 0; j < 4; ++j) {
    uint64_t s[25];
    for (int w = 0; w < 25; ++w) s[w] = st.s[w][j];
    keccak::keccak_f1600(s);
    for (int w = 0; w < 25; ++w) st.s[w][j] = s[w];
  }
}

namespace {
using PermuteFn = void (*)(KeccakX4&);
PermuteFn pick_permute() {
  switch (simd_level()) {
    case SimdLevel::Avx512: return keccak_x4_permute_avx512;
    case SimdLevel::Avx2: return keccak_x4_permute_avx2;
    case SimdLevel::Scalar: break;
  }
  return keccak_x4_permute_portable;
}
}  // namespace

// simd_level() is read on every call (not cached) so tests can cap it to cover each version; it is
// one relaxed atomic load against a permutation of about a thousand cycles.
void keccak_x4_permute(KeccakX4& st) { pick_permute()(st); }

// Little-endian byte i of instance j's state, as keccak::Sponge numbers them.
static inline void xor_byte(KeccakX4& st, int j, unsigned i, uint8_t b) {
  st.s[i >> 3][j] ^= uint64_t(b) << (8 * (i & 7));
}

ShakeX4::ShakeX4(unsigned rate_bytes, const uint8_t* const in[4], size_t len) : st{}, rate(rate_bytes) {
  size_t off = 0;
  for (; len - off >= rate; off += rate) {  // whole blocks (long inputs only)
    for (int j = 0; j < 4; ++j)
      for (unsigned i = 0; i < rate; ++i) xor_byte(st, j, i, in[j][off + i]);
    keccak_x4_permute(st);
  }
  for (int j = 0; j < 4; ++j) {
    for (size_t i = 0; i < len - off; ++i) xor_byte(st, j, unsigned(i), in[j][off + i]);
    xor_byte(st, j, unsigned(len - off), 0x1F);  // SHAKE domain bits and the first pad bit
    xor_byte(st, j, rate - 1, 0x80);
  }
}

void ShakeX4::squeeze_blocks(uint8_t* const out[4], size_t blocks) {
  for (size_t b = 0; b < blocks; ++b) {
    keccak_x4_permute(st);
    for (int j = 0; j < 4; ++j) {
      uint8_t* o = out[j] + b * rate;
      for (unsigned w = 0; w < rate / 8; ++w) std::memcpy(o + 8 * w, &st.s[w][j], 8);  // little-endian host
    }
  }
}

}  // namespace zkgpu::pq::cpu
