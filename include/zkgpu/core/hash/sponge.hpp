// Plonky3's PaddingFreeSponge<Perm16, 16, 8, 8> and TruncatedPermutation<Perm16, 2, 8, 16>
// (spec §5), the leaf hash and 2-to-1 compression of the Merkle tree.
#pragma once
#include "zkgpu/core/poseidon2/poseidon2.hpp"

namespace zkgpu {

struct Digest {
  static constexpr int ELEMS = 8;
  BabyBear e[ELEMS];
  ZKGPU_HD bool operator==(const Digest& o) const {
    bool eq = true;
    ZKGPU_UNROLL
    for (int i = 0; i < ELEMS; ++i) eq &= e[i] == o.e[i];
    return eq;
  }
  ZKGPU_HD bool operator!=(const Digest& o) const { return !(*this == o); }
};
static_assert(sizeof(Digest) == 32, "a digest is 8 words");

// Overwrite-mode sponge, rate 8, no padding: a short last chunk leaves the other rate lanes as the
// previous permutation output. n = 0 gives the zero digest without permuting.
ZKGPU_HD Digest sponge_hash(const BabyBear* x, size_t n, const Poseidon2Params<16>& p) {
  BabyBear s[16];
  ZKGPU_UNROLL
  for (int i = 0; i < 16; ++i) s[i] = BabyBear::zero();
  for (size_t off = 0; off < n; off += 8) {
    size_t len = n - off < 8 ? n - off : 8;
    for (size_t i = 0; i < len; ++i) s[i] = x[off + i];
    poseidon2_permute<16>(s, p);
  }
  Digest d;
  ZKGPU_UNROLL
  for (int i = 0; i < 8; ++i) d.e[i] = s[i];
  return d;
}

ZKGPU_HD Digest compress(const Digest& l, const Digest& r, const Poseidon2Params<16>& p) {
  BabyBear s[16];
  ZKGPU_UNROLL
  for (int i = 0; i < 8; ++i) {
    s[i] = l.e[i];
    s[8 + i] = r.e[i];
  }
  poseidon2_permute<16>(s, p);
  Digest d;
  ZKGPU_UNROLL
  for (int i = 0; i < 8; ++i) d.e[i] = s[i];
  return d;
}

}  // namespace zkgpu
