// Device-pointer kernels of the GPU WHIR prover (the table operations of whir/prover_backend.hpp).
// Every function enqueues on `s`, never synchronises, and throws zkgpu::Error on a launch failure.
// Tables are laid out as on the host: BabyBear words, BabyBear4 as four consecutive words c0..c3;
// x_0 is the MSB of a table index. Arithmetic is the include/zkgpu/core field code, so every value is the
// exact field element the CPU backend computes (field sums do not depend on the reduction order).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/core/hash/sponge.hpp"

namespace zkgpu::whir::cuda {

using EF = BabyBear4;

// Reductions write one (a, b) pair of partial sums per block, at most this many blocks.
inline constexpr unsigned REDUCE_BLOCKS = 1024;
inline constexpr size_t PARTIALS_ELEMS = 2 * size_t(REDUCE_BLOCKS);

// out[j * cols + c] = in[c * rows + j]: the 2^m table viewed as `cols` blocks of `rows` values,
// laid out as the rows x cols matrix whose columns are those blocks (spec §3).
void transpose_device(const BabyBear* in, BabyBear* out, size_t rows, size_t cols, cudaStream_t s);
void transpose_device(const EF* in, EF* out, size_t rows, size_t cols, cudaStream_t s);

// Partial sums of (h(0), h(2)) over (T, W) of `len` entries (len >= 2, even): sum W_lo T_lo and
// sum (2 W_hi - W_lo)(2 T_hi - T_lo). Returns the number of pairs written to d_partials.
unsigned sumcheck_partials_device(const BabyBear* t, const EF* w, size_t len, EF* d_partials, cudaStream_t s);
unsigned sumcheck_partials_device(const EF* t, const EF* w, size_t len, EF* d_partials, cudaStream_t s);

// Binds x_0 of T (len entries, t_in) into t_out (len/2 EF) and of W in place; t_out may equal t_in
// (EF). When len/2 >= 2 it also writes the next round's (h(0), h(2)) partial sums and returns how
// many pairs; else returns 0.
unsigned bind_device(const BabyBear* t_in, EF* t_out, EF* w, size_t len, const EF& r, EF* d_partials, cudaStream_t s);
unsigned bind_device(const EF* t_in, EF* t_out, EF* w, size_t len, const EF& r, EF* d_partials, cudaStream_t s);

// d_out[0..2) = the sums of the first n_pairs pairs of d_partials (n_pairs <= REDUCE_BLOCKS).
void reduce_partials_device(const EF* d_partials, unsigned n_pairs, EF* d_out, cudaStream_t s);

// Partial sums (a, 0) of sum_j T[j] * hi[j >> lo_bits] * lo[j & (2^lo_bits - 1)] over len entries:
// the multilinear evaluation when hi, lo are the eq tables of the point's high and low halves.
unsigned eq_dot_partials_device(const BabyBear* t, size_t len, const EF* hi, const EF* lo, unsigned lo_bits,
                                EF* d_partials, cudaStream_t s);
unsigned eq_dot_partials_device(const EF* t, size_t len, const EF* hi, const EF* lo, unsigned lo_bits, EF* d_partials,
                                cudaStream_t s);

// W[j] += sum_p hi[p][j >> lo_bits] * lo[p][j & mask] + sum_l scale[l] * z[l]^j for j < len.
// hi: n_eq tables of len >> lo_bits entries (the scale folded in), lo: n_eq tables of 2^lo_bits.
struct WeightsArgs {
  EF* w = nullptr;
  size_t len = 0;
  unsigned lo_bits = 0;
  unsigned n_eq = 0;
  const EF* hi = nullptr;
  const EF* lo = nullptr;
  unsigned n_sel = 0;
  const BabyBear* z = nullptr;
  const EF* scale = nullptr;
};
void add_weights_device(const WeightsArgs& a, cudaStream_t s);

// Merkle openings of the rows x cols matrix d_matrix and its tree d_nodes (2 rows - 1 digests,
// leaves first): for each of the n indices, the row's cols words then log2(rows) sibling digests
// (leaf level first), packed into d_out at a stride of cols + 8 log2(rows) words.
void open_rows_device(const BabyBear* d_matrix, size_t rows, size_t cols, const Digest* d_nodes,
                      const uint64_t* d_indices, size_t n, BabyBear* d_out, cudaStream_t s);

}  // namespace zkgpu::whir::cuda
