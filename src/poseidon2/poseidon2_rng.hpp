// The random generators Plonky3 seeds Poseidon2 constants with (spec §4.2), replayed exactly so the
// pinned tables can be regenerated and Plonky3's *_random known-answer tests checked.
// - Xoshiro256PlusPlus: rand's SmallRng on 64-bit targets (rand src/rngs/xoshiro256plusplus.rs).
// - Xoroshiro128Plus: rand_xoshiro's generator used by Plonky3's test_poseidon2_width_*_random.
// Both seed_from_u64 expand the seed with SplitMix64; both next_u32 take the UPPER half of next_u64.
#pragma once
#include <cstdint>

namespace zkgpu::rng {

constexpr uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// SplitMix64 as rand_xoshiro and rand's Xoshiro256++::seed_from_u64 inline it.
struct SplitMix64 {
  uint64_t x;
  constexpr uint64_t next_u64() {
    x += 0x9e3779b97f4a7c15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

struct Xoshiro256PlusPlus {
  uint64_t s[4];
  static constexpr Xoshiro256PlusPlus seed_from_u64(uint64_t seed) {
    SplitMix64 sm{seed};
    Xoshiro256PlusPlus r{};
    for (auto& w : r.s) w = sm.next_u64();
    return r;
  }
  constexpr uint64_t next_u64() {
    uint64_t result = rotl64(s[0] + s[3], 23) + s[0];
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
  }
  constexpr uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }
};

struct Xoroshiro128Plus {
  uint64_t s0, s1;
  // rand_xoshiro: from_rng(SplitMix64::seed_from_u64(seed)), i.e. the first two SplitMix64 outputs
  // as little-endian seed bytes, which read back as s0, s1.
  static constexpr Xoroshiro128Plus seed_from_u64(uint64_t seed) {
    SplitMix64 sm{seed};
    uint64_t a = sm.next_u64();
    uint64_t b = sm.next_u64();
    return Xoroshiro128Plus{a, b};
  }
  constexpr uint64_t next_u64() {
    uint64_t r = s0 + s1;
    uint64_t t = s1 ^ s0;
    s0 = rotl64(s0, 24) ^ t ^ (t << 16);
    s1 = rotl64(t, 37);
    return r;
  }
  // The two lowest bits of xoroshiro128+ are weak, so rand_xoshiro returns the upper half.
  constexpr uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }
};

}  // namespace zkgpu::rng
