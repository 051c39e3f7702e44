#include "merkle/cpu/merkle_cpu.hpp"

#include "poseidon2/cpu/batch.hpp"

namespace zkgpu::cpu {

// Leaves, then one level at a time: each level is one batched (SIMD + OpenMP) call over
// independent hashes, and a level is at most half the size of the one below.
void merkle_build(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* nodes) {
  hash_rows(matrix, rows, cols, p, nodes);
  Digest* level = nodes;
  for (size_t n = rows; n > 1; n /= 2) {
    compress_pairs(level, n / 2, p, level + n);
    level += n;
  }
}

}  // namespace zkgpu::cpu
