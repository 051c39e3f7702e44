// CPU Pippenger with signed digits: all digits first (int16, window-major), then one task per
// (window, chunk of points) with its own buckets, each reduced by running sums to sum_j j*B_j;
// the chunks of a window are added and the windows combined by Horner's rule (c doublings each).
#include "msm/msm_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "core/bls12_377/signed_digits.hpp"

namespace zkgpu::bls12_377::cpu {

TeExtended msm_te(const TePrecomputed* points, const Scalar* scalars, size_t n, unsigned c) {
  if (n == 0) return TeExtended::identity();
  const unsigned W = msm_window_count(c);
  const size_t buckets = size_t{1} << (c - 1);
  std::vector<int16_t> digits(static_cast<size_t>(W) * n);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    uint32_t carry = 0;
    for (unsigned w = 0; w < W; ++w) digits[w * n + i] = static_cast<int16_t>(next_signed_digit(scalars[i], w, c, carry));
  }

  // About four tasks per thread, so W tasks on a similar thread count do not leave most threads idle
  // in a last round; but each chunk keeps at least 2^c points, since every chunk pays its own
  // bucket reduction (2^c additions).
  const size_t threads = static_cast<size_t>(omp_get_max_threads());
  const size_t chunks = std::clamp<size_t>((4 * threads + W - 1) / W, 1, std::max<size_t>(1, n >> c));
  const size_t tasks = W * chunks;
  std::vector<TeExtended> partial(tasks, TeExtended::identity());
#pragma omp parallel
  {
    std::vector<TeExtended> bucket(buckets);
#pragma omp for schedule(dynamic, 1)
    for (size_t task = 0; task < tasks; ++task) {
      const size_t w = task / chunks, chunk = task % chunks;
      const size_t lo = n * chunk / chunks, hi = n * (chunk + 1) / chunks;
      std::fill(bucket.begin(), bucket.end(), TeExtended::identity());
      const int16_t* d = digits.data() + w * n;
      for (size_t i = lo; i < hi; ++i) {
        int32_t v = d[i];
        if (v > 0) bucket[v - 1] = te_add_precomputed(bucket[v - 1], points[i]);
        else if (v < 0) bucket[-v - 1] = te_add_precomputed(bucket[-v - 1], points[i].neg());
      }
      // sum_j (j+1) * B_j: the running sum picks up B_j at j and is added j+1 times.
      TeExtended run = TeExtended::identity(), acc = TeExtended::identity();
      for (size_t j = buckets; j-- > 0;) {
        run = te_add(run, bucket[j]);
        acc = te_add(acc, run);
      }
      partial[task] = acc;
    }
  }
  TeExtended result = TeExtended::identity();
  for (size_t w = W; w-- > 0;) {
    for (unsigned k = 0; k < c; ++k) result = te_double(result);
    for (size_t chunk = 0; chunk < chunks; ++chunk) result = te_add(result, partial[w * chunks + chunk]);
  }
  return result;
}

}  // namespace zkgpu::bls12_377::cpu
