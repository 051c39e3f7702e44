// Keccak on a warp, two ways (device only):
// - WarpKeccak: one sponge spread over the warp, lane i = x + 5y holding state lane s[i]
//   (core/keccak/keccak_lanes.hpp, exchanged by shuffles). For a sequential hash over a whole
//   item (mu, rho'', the challenge c~, SampleInBall's XOF), which on one thread would keep 31
//   lanes idle for ~4600 instructions per permutation; spread, a permutation is ~24 x 9 64-bit
//   shuffles plus a few ALU steps per lane.
// - shake256_words: one SHAKE256 stream per thread with the state in registers (keccak_permute
//   inlined), for the independent ExpandMask streams.
#pragma once
#include <cstddef>
#include <cstdint>

#include "zkgpu/core/keccak/keccak.hpp"
#include "zkgpu/core/keccak/keccak_lanes.hpp"
#include "pq/cuda/keccak_regs.cuh"

namespace zkgpu::cuda {

class WarpKeccak {
 public:
  // Lanes 25..31 mirror the sources of lanes 0..6; nobody reads their (meaningless) state.
  __device__ explicit WarpKeccak(int lane) : src_(lane < 25 ? lane : lane - 25), lane_(lane) {}
  __device__ int lane() const { return lane_; }

  // Keccak-f[1600] of the state whose lane `lane` this thread holds in a. All 32 lanes call it.
  __device__ uint64_t permute(uint64_t a) const {
    constexpr unsigned ALL = 0xffffffffu;
#pragma unroll 1
    for (int round = 0; round < 24; ++round) {
      const uint64_t c = keccak::lanes::column_parity(a, src_, [&](int s) { return __shfl_sync(ALL, a, s); });
      const uint64_t t = keccak::lanes::theta(a, src_, [&](int s) { return __shfl_sync(ALL, c, s); });
      const uint64_t u = keccak::lanes::rho_pi(src_, [&](int s) { return __shfl_sync(ALL, t, s); });
      a = keccak::lanes::chi_iota(u, src_, round, [&](int s) { return __shfl_sync(ALL, u, s); });
    }
    return a;
  }

  // SHAKE (domain 0x1F) of len bytes, byte p given by get(p), at `rate` bytes: absorbs with the
  // padding and returns this lane's word of the first output block (bytes 8 lane .. 8 lane + 7).
  // len is the same on all lanes.
  template <class Get>
  __device__ uint64_t shake(size_t len, unsigned rate, Get&& get) const {
    uint64_t a = 0;
    const size_t blocks = len / rate + 1;  // the last one holds the padding
    for (size_t b = 0; b < blocks; ++b) {
      if (unsigned(lane_) < rate / 8) {
        uint64_t w = 0;
#pragma unroll
        for (int q = 0; q < 8; ++q) {
          const unsigned in_block = 8 * unsigned(lane_) + unsigned(q);
          const size_t p = b * rate + in_block;
          uint32_t byte = p < len ? uint32_t(get(p)) : 0u;
          if (p == len) byte ^= 0x1F;
          if (b + 1 == blocks && in_block == rate - 1) byte ^= 0x80;
          w |= uint64_t(byte) << (8 * q);
        }
        a ^= w;
      }
      a = permute(a);
    }
    return a;
  }

  // Writes bytes [0, n) of an output block held as above (n <= the rate).
  __device__ void store(uint64_t a, uint8_t* out, unsigned n) const {
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const unsigned p = 8 * unsigned(lane_) + unsigned(q);
      if (p < n) out[p] = uint8_t(a >> (8 * q));
    }
  }

 private:
  keccak::lanes::Sources src_;
  int lane_;
};

// SHAKE256(seed[0..64) || b0 || b1) for one thread, state in registers: writes the first `words`
// 8-byte words of the output (little-endian, as the sponge squeezes them) to out. The XOF of
// ExpandMask (sample_mask: rho'' || IntegerToBytes(kappa, 2)); seed is 8-byte aligned.
__device__ __forceinline__ void shake256_words(const uint8_t* seed, uint8_t b0, uint8_t b1, uint64_t* out, int words) {
  constexpr int RATE_WORDS = int(keccak::SHAKE256_RATE / 8);  // 17
  uint64_t st[25];
  keccak_regs::clear(st);
#pragma unroll
  for (int i = 0; i < 8; ++i) st[i] = keccak_regs::load64(seed + 8 * i);
  st[8] = uint64_t(b0) | uint64_t(b1) << 8;
  keccak_regs::pad<keccak::SHAKE256_RATE, 66>(st, 0x1F);  // permuted at the top of the squeeze loop
#pragma unroll 1
  for (int w0 = 0; w0 < words; w0 += RATE_WORDS) {
    keccak::keccak_permute(st);
#pragma unroll
    for (int q = 0; q < RATE_WORDS; ++q)
      if (w0 + q < words) out[w0 + q] = st[q];
  }
}

}  // namespace zkgpu::cuda
