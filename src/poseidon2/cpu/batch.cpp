#include "poseidon2/cpu/batch.hpp"

#include <omp.h>

#include <algorithm>

#include "poseidon2/cpu/kernels.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu::cpu {
namespace {

const p2::Kernels& kernels() {
  switch (simd_level()) {
    case SimdLevel::Avx512: return p2::kernels_avx512();
    case SimdLevel::Avx2: return p2::kernels_avx2();
    case SimdLevel::Scalar: break;
  }
  return p2::kernels_scalar();
}

// Work is cut into chunks of CHUNK items (a multiple of every lane count, so only the very last
// chunk has a partial SIMD block); a permutation is ~0.1-1 us, so a chunk is a few tens of us,
// and a batch shorter than two chunks stays on the calling thread.
constexpr size_t CHUNK = 128;

template <class F>
void for_chunks(size_t n, size_t chunk, F&& f) {
  const long long n_chunks = static_cast<long long>((n + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (n_chunks > 1)
  for (long long c = 0; c < n_chunks; ++c) {
    size_t begin = static_cast<size_t>(c) * chunk;
    f(begin, std::min(chunk, n - begin));
  }
}

}  // namespace

void poseidon2_permute_batch(BabyBear* states, size_t n_states, const Poseidon2Params<16>& p) {
  const auto& k = kernels();
  const bool fixed = p2::has_standard_diag(p);
  for_chunks(n_states, CHUNK, [&](size_t b, size_t n) { k.permute16(states + b * 16, n, p, fixed); });
}

void poseidon2_permute_batch(BabyBear* states, size_t n_states, const Poseidon2Params<24>& p) {
  const auto& k = kernels();
  const bool fixed = p2::has_standard_diag(p);
  for_chunks(n_states, CHUNK, [&](size_t b, size_t n) { k.permute24(states + b * 24, n, p, fixed); });
}

template <int W, class F>
void permute_scalar(F* states, size_t n_states, const Poseidon2Params<W, F>& p) {
  for_chunks(n_states, CHUNK, [&](size_t b, size_t n) {
    for (size_t i = b; i < b + n; ++i) poseidon2_permute<W>(*reinterpret_cast<F(*)[W]>(states + i * W), p);
  });
}

void poseidon2_permute_batch(KoalaBear* states, size_t n_states, const Poseidon2Params<16, KoalaBear>& p) {
  permute_scalar(states, n_states, p);
}

void poseidon2_permute_batch(KoalaBear* states, size_t n_states, const Poseidon2Params<24, KoalaBear>& p) {
  permute_scalar(states, n_states, p);
}

void hash_rows(const BabyBear* matrix, size_t rows, size_t cols, const Poseidon2Params<16>& p, Digest* out) {
  if (cols == 0) {
    std::fill(out, out + rows, Digest{});
    return;
  }
  const auto& k = kernels();
  const bool fixed = p2::has_standard_diag(p);
  // Rows cost ceil(cols/8) permutations each: keep a chunk near CHUNK permutations.
  size_t perms_per_row = (cols + 7) / 8;
  size_t chunk = std::max<size_t>(16, CHUNK / perms_per_row / 16 * 16);
  for_chunks(rows, chunk, [&](size_t b, size_t n) { k.hash_rows(matrix + b * cols, n, cols, p, fixed, out + b); });
}

void compress_pairs(const Digest* in, size_t n_out, const Poseidon2Params<16>& p, Digest* out) {
  const auto& k = kernels();
  const bool fixed = p2::has_standard_diag(p);
  for_chunks(n_out, CHUNK, [&](size_t b, size_t n) { k.compress_pairs(in + 2 * b, n, p, fixed, out + b); });
}

}  // namespace zkgpu::cpu
