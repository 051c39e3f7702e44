// Serial batch drivers over packed_permute.hpp, instantiated once per ISA in
// poseidon2_{scalar,avx2,avx512}.cpp. batch.cpp picks the table for simd_level() and splits the
// work across threads; each driver handles any count (a partial last block is zero-padded).
#pragma once
#include <algorithm>
#include <cstddef>

#include "zkgpu/core/hash/sponge.hpp"
#include "poseidon2/cpu/packed_permute.hpp"

namespace zkgpu::cpu::p2 {

struct Kernels {
  unsigned lanes;
  void (*permute16)(BabyBear* states, size_t n, const Poseidon2Params<16>& p, bool fixed_diag);
  void (*permute24)(BabyBear* states, size_t n, const Poseidon2Params<24>& p, bool fixed_diag);
  void (*hash_rows)(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, bool fixed_diag,
                    Digest* out);
  void (*compress_pairs)(const Digest* in, size_t n_out, const Poseidon2Params<16>& p, bool fixed_diag, Digest* out);
};

const Kernels& kernels_scalar();
const Kernels& kernels_avx2();    // call only when simd_level() >= Avx2
const Kernels& kernels_avx512();  // call only when simd_level() == Avx512

template <class P, int W, bool FIXED>
void permute_states_t(BabyBear* states, size_t n, const Poseidon2Params<W>& p) {
  constexpr size_t L = P::LANES;
  const PackedRoundConstants<P, W> rc(p);
  for (size_t b = 0; b < n; b += L) {
    size_t used = std::min(L, n - b);
    P s[W];
    LaneIO<P>::gather(s, 0, W, states + b * W, W, used);
    permute<FIXED>(s, rc, p);
    LaneIO<P>::scatter(s, W, states + b * W, W, used);
  }
}

template <class P, int W>
void permute_states(BabyBear* states, size_t n, const Poseidon2Params<W>& p, bool fixed_diag) {
  fixed_diag ? permute_states_t<P, W, true>(states, n, p) : permute_states_t<P, W, false>(states, n, p);
}

// sponge_hash of LANES rows at once: every row has the same width, so the chunks line up.
template <class P, bool FIXED>
void hash_rows_t(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* out) {
  constexpr size_t L = P::LANES;
  const PackedRoundConstants<P, 16> rc(p);
  for (size_t b = 0; b < rows; b += L) {
    size_t used = std::min(L, rows - b);
    P s[16];
    for (auto& x : s) x = P::zero();
    const BabyBear* base = matrix + b * cols;
    for (size_t off = 0; off < cols; off += 8) {
      int len = static_cast<int>(std::min<size_t>(8, cols - off));
      LaneIO<P>::gather(s, 0, len, base + off, cols, used);
      permute<FIXED>(s, rc, p);
    }
    LaneIO<P>::scatter(s, Digest::ELEMS, &out[b].e[0], Digest::ELEMS, used);
  }
}

template <class P>
void hash_rows(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, bool fixed_diag,
               Digest* out) {
  fixed_diag ? hash_rows_t<P, true>(matrix, rows, cols, p, out) : hash_rows_t<P, false>(matrix, rows, cols, p, out);
}

// in[2j] || in[2j+1] are 16 consecutive words: exactly the state of compress(in[2j], in[2j+1]).
template <class P, bool FIXED>
void compress_pairs_t(const Digest* in, size_t n_out, const Poseidon2Params<16>& p, Digest* out) {
  constexpr size_t L = P::LANES;
  const PackedRoundConstants<P, 16> rc(p);
  for (size_t b = 0; b < n_out; b += L) {
    size_t used = std::min(L, n_out - b);
    P s[16];
    LaneIO<P>::gather(s, 0, 16, &in[2 * b].e[0], 16, used);
    permute<FIXED>(s, rc, p);
    LaneIO<P>::scatter(s, Digest::ELEMS, &out[b].e[0], Digest::ELEMS, used);
  }
}

template <class P>
void compress_pairs(const Digest* in, size_t n_out, const Poseidon2Params<16>& p, bool fixed_diag, Digest* out) {
  fixed_diag ? compress_pairs_t<P, true>(in, n_out, p, out) : compress_pairs_t<P, false>(in, n_out, p, out);
}

template <class P>
constexpr Kernels make_kernels() {
  return Kernels{P::LANES, &permute_states<P, 16>, &permute_states<P, 24>, &hash_rows<P>, &compress_pairs<P>};
}

}  // namespace zkgpu::cpu::p2
