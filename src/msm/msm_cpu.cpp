// CPU Pippenger with signed digits. The work is split by (window, bucket range), not by chunks of
// points: each task owns S consecutive buckets of one window and adds every point whose digit
// falls there, so
//  - the bucket reduction is paid once per window (2 * 2^(c-1) unified additions), not once per
//    chunk of points (the earlier (window, chunk) split paid it 4 times per window on 16 threads);
//  - a task's buckets (S = 1024 of 192 bytes) stay in L2 instead of 2^(c-1) * 192 bytes = 3 MiB
//    at c = 15, which missed L2 on every random bucket update;
//  - there are ~W * 2^(c-1) / S similar tasks (272 at 2^20), so 16 threads stay balanced.
// Entries are grouped by (window, range) with a parallel counting sort over blocks of points, so
// each task reads only its own point indices (in increasing order). A task returns
// A_r = sum_j (j - lo + 1) B_j and S_r = sum_j B_j over its range [lo, lo + S); the window sum is
// sum_r A_r + lo_r * S_r, and the windows are combined by Horner's rule (c doublings each).
#include "msm/msm_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "core/bls12_377/signed_digits.hpp"

namespace zkgpu::bls12_377::cpu {

namespace {

// k * P for a small k >= 0 (the range offset lo_r < 2^14), double-and-add from the top bit.
TeExtended te_mul_small(const TeExtended& p, size_t k) {
  TeExtended acc = TeExtended::identity();
  for (int bit = 63 - __builtin_clzll(k | 1); bit >= 0; --bit) {
    acc = te_double(acc);
    if ((k >> bit) & 1) acc = te_add(acc, p);
  }
  return acc;
}

// Buckets per task: 1024 * 192 B = 192 KiB stays in L2, and the task's points are dense enough
// (one in R = 2^(c-1) / 1024 of the window's digits) to stream well. One Zen 4 core, 2^18,
// c = 15, CPU seconds: 256 buckets 1.9-2.0, 1024 and 4096 1.8, all 16384 (3 MiB) 2.2.
constexpr size_t RANGE_BUCKETS = 1024;

}  // namespace

TeExtended msm_te(const TePrecomputed* points, const Scalar* scalars, size_t n, unsigned c) {
  if (n == 0) return TeExtended::identity();
  const size_t W = msm_window_count(c);
  const size_t buckets = size_t{1} << (c - 1);
  // Smaller ranges when there would be fewer than ~4 tasks per thread (small n, many threads).
  const size_t threads = static_cast<size_t>(omp_get_max_threads());
  size_t S = std::min(buckets, RANGE_BUCKETS);
  while (S > 64 && W * (buckets / S) < 4 * threads) S /= 2;
  const size_t R = buckets / S;  // ranges per window (both powers of two)
  const size_t groups = W * R;   // group g = w * R + r

  // Blocks of points for the counting sort: enough for all threads, each with its own histogram.
  const size_t blocks = std::clamp<size_t>(n / 4096, 1, 4 * threads);
  // Digits and entries are written in full by the parallel loops below: left uninitialised here
  // (100 MiB at 2^20), so their pages are first touched by those threads, not zeroed serially.
  auto digits = std::make_unique_for_overwrite<int16_t[]>(W * n);
  std::vector<uint32_t> count(blocks * groups, 0);  // count[b * groups + g], then its offset

#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < blocks; ++b) {
    const size_t lo = n * b / blocks, hi = n * (b + 1) / blocks;
    uint32_t* cnt = count.data() + b * groups;
    for (size_t i = lo; i < hi; ++i) {
      uint32_t carry = 0;
      for (size_t w = 0; w < W; ++w) {
        const int32_t d = next_signed_digit(scalars[i], static_cast<unsigned>(w), c, carry);
        digits[w * n + i] = static_cast<int16_t>(d);
        if (d != 0) ++cnt[w * R + (static_cast<size_t>(d < 0 ? -d : d) - 1) / S];
      }
    }
  }
  // Exclusive prefix over (group, block): group g's entries are contiguous, blocks in order, so
  // each group lists its point indices in increasing order.
  std::vector<size_t> group_start(groups + 1);
  {
    size_t run = 0;
    for (size_t g = 0; g < groups; ++g) {
      group_start[g] = run;
      for (size_t b = 0; b < blocks; ++b) {
        const uint32_t k = count[b * groups + g];
        count[b * groups + g] = static_cast<uint32_t>(run - group_start[g]);
        run += k;
      }
    }
    group_start[groups] = run;
  }
  auto entries = std::make_unique_for_overwrite<uint32_t[]>(group_start[groups]);  // point indices (n <= 2^26)
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < blocks; ++b) {
    const size_t lo = n * b / blocks, hi = n * (b + 1) / blocks;
    uint32_t* off = count.data() + b * groups;
    for (size_t w = 0; w < W; ++w) {
      const int16_t* d = digits.get() + w * n;
      for (size_t i = lo; i < hi; ++i) {
        const int32_t v = d[i];
        if (v == 0) continue;
        const size_t g = w * R + (static_cast<size_t>(v < 0 ? -v : v) - 1) / S;
        entries[group_start[g] + off[g]++] = static_cast<uint32_t>(i);
      }
    }
  }

  std::vector<TeExtended> partial(groups);
#pragma omp parallel
  {
    std::vector<TeExtended> bucket(S);
#pragma omp for schedule(dynamic, 1)
    for (size_t g = 0; g < groups; ++g) {
      const size_t w = g / R, r = g % R;
      std::fill(bucket.begin(), bucket.end(), TeExtended::identity());
      const int16_t* d = digits.get() + w * n;
      const uint32_t* e = entries.get() + group_start[g];
      const size_t m = group_start[g + 1] - group_start[g];
      const size_t base = r * S + 1;  // |digit| of bucket 0 of this range
      for (size_t k = 0; k < m; ++k) {
        // The point four entries ahead: its 144 bytes are 3 cache lines, the addition ~7 products.
        if (k + 4 < m) {
          const char* q = reinterpret_cast<const char*>(points + e[k + 4]);
          __builtin_prefetch(q);
          __builtin_prefetch(q + 64);
          __builtin_prefetch(q + 128);
        }
        const uint32_t i = e[k];
        const int32_t v = d[i];
        if (v > 0) {
          TeExtended& bk = bucket[static_cast<size_t>(v) - base];
          bk = te_add_precomputed(bk, points[i]);
        } else {
          TeExtended& bk = bucket[static_cast<size_t>(-v) - base];
          bk = te_add_precomputed(bk, points[i].neg());
        }
      }
      // A_r = sum_j (j+1) * B_j over the range and S_r = sum_j B_j: the running sum picks up B_j
      // at j and is added j+1 times.
      TeExtended run = TeExtended::identity(), acc = TeExtended::identity();
      for (size_t j = S; j-- > 0;) {
        run = te_add(run, bucket[j]);
        acc = te_add(acc, run);
      }
      partial[g] = r == 0 ? acc : te_add(acc, te_mul_small(run, r * S));
    }
  }
  TeExtended result = TeExtended::identity();
  for (size_t w = W; w-- > 0;) {
    for (unsigned k = 0; k < c; ++k) result = te_double(result);
    for (size_t r = 0; r < R; ++r) result = te_add(result, partial[w * R + r]);
  }
  return result;
}

}  // namespace zkgpu::bls12_377::cpu
