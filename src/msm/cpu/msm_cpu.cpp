// CPU Pippenger with signed digits. The work is split by (window, bucket range), not by chunks of
// points: each task owns S consecutive buckets of one window and adds every point whose digit
// falls there, so
//  - the bucket reduction is paid once per window (2 * 2^(c-1) unified additions), not once per
//    chunk of points (the earlier (window, chunk) split paid it 4 times per window on 16 threads);
//  - a task's buckets (S = 1024 of 192 bytes) stay in L2 instead of 2^(c-1) * 192 bytes = 3 MiB
//    at c = 15, which missed L2 on every random bucket update;
//  - there are ~W * 2^(c-1) / S similar tasks (512 at 2^20, c = 16), so 16 threads stay balanced.
// Entries (point index and digit sign, with the bucket in the range beside them) are grouped by
// (window, range) with a parallel counting sort over blocks of points, so each task reads only its
// own entries (in increasing point order). A task returns
// A_r = sum_j (j - lo + 1) B_j and S_r = sum_j B_j over its range [lo, lo + S); the window sum is
// sum_r A_r + lo_r * S_r, and the windows are combined by Horner's rule (c doublings each).
// The AVX-512 IFMA paths are in msm_cpu_ifma.cpp.
#include "msm/cpu/msm_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "msm/cpu/msm_cpu_ifma.hpp"
#include "msm/cpu/msm_task.hpp"
#include "msm/signed_digits.hpp"
#include "runtime/huge_pages.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::bls12_377::cpu {

namespace {

// The digits (int16, W*n) and entries (u32 + u16, up to W*n) arrays, kept between MSMs. Fresh
// ones cost a page fault per 2 MiB (4 KiB where the kernel has no huge page at hand) and the
// kernel zeroing them on every call: one Zen 4 thread at 2^20 spent 178 ms in the digit pass and
// 181 ms in the scatter pass with fresh arrays, 105 and 35 ms when reused. One process-wide
// set (like the GPU workspace), taken by try_lock: concurrent MSMs allocate their own. Up to
// KEEP_BYTES stays allocated after an MSM; larger inputs get arrays freed on return.
template <class T>
struct HugeArray {
  std::unique_ptr<T[]> p;
  size_t cap = 0;
  T* get(size_t len) {
    if (len > cap) {
      p.reset();
      p = std::make_unique_for_overwrite<T[]>(len);
      advise_huge_pages(p.get(), len * sizeof(T));
      cap = len;
    }
    return p.get();
  }
};
struct Workspace {
  HugeArray<int16_t> digits;
  HugeArray<uint32_t> entries;
  HugeArray<uint16_t> entry_bucket;
};
constexpr size_t KEEP_BYTES = size_t{1} << 30;  // about 2^23 points at c = 15
std::mutex g_workspace_mutex;
Workspace g_workspace;

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

// The digit pass (next_signed_digit's digits) for point i: digits[w * n + i] for every window w,
// and the count of its nonzero digits per group (cnt[w * R + (|digit| - 1) / 2^log2_s]). Without
// next_signed_digit's branch on the carry (either way with probability 1/2 on random scalars: its
// mispredictions were ~40 % of this pass on one Zen 4 thread) and without a division by S (a
// 64-bit div per digit); the window's bits come from a 128-bit shift of two words (a fifth, zero
// word covers the top window: (W - 1) * c <= 253).
inline void digits_one(const Scalar& s, size_t i, size_t n, size_t W, unsigned c, size_t R, unsigned log2_s,
                       int16_t* digits, uint32_t* cnt) {
  const uint64_t words[5] = {s.l[0], s.l[1], s.l[2], s.l[3], 0};
  const uint64_t mask = (uint64_t{1} << c) - 1;
  const uint32_t half = 1u << (c - 1);
  uint32_t carry = 0;
  for (size_t w = 0; w < W; ++w) {
    const unsigned pos = static_cast<unsigned>(w) * c, k = pos / 64;
    const unsigned __int128 pair = (static_cast<unsigned __int128>(words[k + 1]) << 64) | words[k];
    const uint32_t v = static_cast<uint32_t>(static_cast<uint64_t>(pair >> (pos % 64)) & mask) + carry;
    carry = (half - v) >> 31;  // v > 2^(c-1): the digit becomes v - 2^c
    const int32_t d = static_cast<int32_t>(v) - static_cast<int32_t>(carry << c);
    digits[w * n + i] = static_cast<int16_t>(d);
    if (d != 0) ++cnt[w * R + ((static_cast<size_t>(d < 0 ? -d : d) - 1) >> log2_s)];
  }
}

// How one MSM splits into tasks: S consecutive buckets of a window per task (R ranges per window,
// groups = W * R tasks), and `blocks` blocks of points for the counting sort.
struct TaskPlan {
  size_t W, threads, S, R, groups, blocks;
  unsigned log2_s;
};
TaskPlan plan_tasks(size_t n, unsigned c) {
  TaskPlan p;
  p.W = msm_window_count(c);
  const size_t buckets = size_t{1} << (c - 1);
  // Smaller ranges when there would be fewer than ~4 tasks per thread (small n, many threads).
  // 512-bucket ranges at 2^20, c = 15, on 16 threads (544 tasks instead of 272, for a shorter
  // tail) made no difference on the Sapphire Rapids host (153.6 against 153.7 and 156.5 ms) and a
  // slower scatter (more groups), so S stays 1024.
  p.threads = static_cast<size_t>(omp_get_max_threads());
  p.S = std::min(buckets, RANGE_BUCKETS);
  while (p.S > 64 && p.W * (buckets / p.S) < 4 * p.threads) p.S /= 2;
  p.R = buckets / p.S;  // ranges per window (both powers of two)
  // |digit| - 1 >> log2 S is the range: S is a run-time value, and a division by it in the digit
  // and scatter loops was a 64-bit div per digit.
  p.log2_s = static_cast<unsigned>(__builtin_ctzll(p.S));
  p.groups = p.W * p.R;  // group g = w * R + r
  // Blocks of points for the counting sort: enough for all threads, each with its own histogram.
  p.blocks = std::clamp<size_t>(n / 4096, 1, 4 * p.threads);
  return p;
}

// The digits of every point (digits[w * n + i]) and, per block b of points, the count of each
// group's entries in count[b * (groups + 1) + g] (slot `groups` takes the AVX-512 pass's zeros).
void digit_pass(const Scalar* scalars, size_t n, unsigned c, const TaskPlan& tp, int16_t* digits,
                std::vector<uint32_t>& count, PhaseClock& clk) {
  const size_t stride = tp.groups + 1;
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < tp.blocks; ++b) {
    const int64_t t0 = clk.start();
    const size_t lo = n * b / tp.blocks, hi = n * (b + 1) / tp.blocks;
    uint32_t* cnt = count.data() + b * stride;
    size_t i = lo;
#if ZKGPU_MSM_IFMA
    if (ifma::AVAILABLE) i = digits_avx512(scalars, lo, hi, n, tp.W, c, tp.R, tp.log2_s, digits, cnt);
#endif
    for (; i < hi; ++i) digits_one(scalars[i], i, n, tp.W, c, tp.R, tp.log2_s, digits, cnt);
    clk.lap(DIGITS, t0);
  }
}

// Exclusive prefix over (group, block): group g's entries are contiguous, blocks in order, so
// each group lists its point indices in increasing order. Returns where each group starts
// (groups + 1 entries); count[b * stride + g] becomes block b's offset inside group g.
std::vector<size_t> group_offsets(const TaskPlan& tp, std::vector<uint32_t>& count) {
  const size_t stride = tp.groups + 1;
  std::vector<size_t> group_start(tp.groups + 1);
  size_t run = 0;
  for (size_t g = 0; g < tp.groups; ++g) {
    group_start[g] = run;
    for (size_t b = 0; b < tp.blocks; ++b) {
      const uint32_t k = count[b * stride + g];
      count[b * stride + g] = static_cast<uint32_t>(run - group_start[g]);
      run += k;
    }
  }
  group_start[tp.groups] = run;
  return group_start;
}

// Entry: point index (n <= 2^26) | (digit < 0) << 31, and its bucket within the range
// (|digit| - 1 mod S) beside it, so the tasks sort their entries by bucket reading both
// sequentially instead of looking up each entry's digit at random (2 MiB of digits per window).
void scatter_pass(const int16_t* digits, size_t n, const TaskPlan& tp, const std::vector<size_t>& group_start,
                  std::vector<uint32_t>& count, uint32_t* entries, uint16_t* entry_bucket, PhaseClock& clk) {
  const size_t stride = tp.groups + 1, W = tp.W, R = tp.R, S = tp.S;
  const unsigned log2_s = tp.log2_s;
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < tp.blocks; ++b) {
    const int64_t t0 = clk.start();
    const size_t lo = n * b / tp.blocks, hi = n * (b + 1) / tp.blocks;
    uint32_t* off = count.data() + b * stride;
    for (size_t w = 0; w < W; ++w) {
      const int16_t* d = digits + w * n;
      for (size_t i = lo; i < hi; ++i) {
        const int32_t v = d[i];
        if (v == 0) continue;
        const size_t a = static_cast<size_t>(v < 0 ? -v : v) - 1;
        const size_t g = w * R + (a >> log2_s);
        const size_t p = group_start[g] + off[g]++;
        // -2^15 is c = 16's digit +2^15 (msm_cpu.hpp): |v| - 1 is right for it, the sign is not.
        entries[p] = static_cast<uint32_t>(i) | (v < 0 && v != INT16_MIN ? 0x80000000u : 0u);
        entry_bucket[p] = static_cast<uint16_t>(a & (S - 1));
      }
    }
    clk.lap(SCATTER, t0);
  }
}

// One task on the scalar path: the entries e[0..m) added into bucket[0..S) (mixed additions),
// then acc = A_r and run = S_r of the range (reduce_range).
void accumulate_scalar(const TePrecomputed* points, const uint32_t* e, const uint16_t* eb, size_t m, size_t S,
                       TeExtended* bucket, TeExtended& acc, TeExtended& run, PhaseClock& clk) {
  int64_t t0 = clk.start();
  std::fill(bucket, bucket + S, TeExtended::identity());
  for (size_t k = 0; k < m; ++k) {
    // The point four entries ahead: its 144 bytes are 3 cache lines, the addition ~7 products.
    if (k + 4 < m) {
      const char* q = reinterpret_cast<const char*>(points + (e[k + 4] & 0x7fffffffu));
      __builtin_prefetch(q);
      __builtin_prefetch(q + 64);
      __builtin_prefetch(q + 128);
    }
    const uint32_t i = e[k] & 0x7fffffffu;
    TeExtended& bk = bucket[eb[k]];
    bk = te_add_precomputed(bk, (e[k] >> 31) ? points[i].neg() : points[i]);
  }
  t0 = clk.lap(SUMS, t0);
  reduce_range(bucket, S, acc, run);
  clk.lap(REDUCE, t0);
}

// Every task's A_r + lo_r * S_r (partial[g]), largest tasks first: the last window's few ranges
// hold twice the entries of the others (at 2^20, c = 15, its 13-bit digits fill 8 of 16 ranges),
// and in window order they came last, leaving half the threads idle for the final two task
// lengths. Empty ranges are skipped.
std::vector<TeExtended> run_tasks(const TePrecomputed* points, const TaskPlan& tp,
                                  const std::vector<size_t>& group_start, const uint32_t* entries,
                                  const uint16_t* entry_bucket, bool use_ifma, PhaseClock& clk) {
  const size_t groups = tp.groups, R = tp.R, S = tp.S;
  std::vector<uint32_t> order(groups);
  for (size_t g = 0; g < groups; ++g) order[g] = static_cast<uint32_t>(g);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return group_start[a + 1] - group_start[a] > group_start[b + 1] - group_start[b];
  });
  std::vector<TeExtended> partial(groups, TeExtended::identity());
#pragma omp parallel
  {
    std::vector<TeExtended> bucket(S);
#if ZKGPU_MSM_IFMA
    // Kept per thread (OpenMP's pool threads persist): no allocation per MSM.
    thread_local IfmaScratch scratch;
#endif
#pragma omp for schedule(dynamic, 1)
    for (size_t k = 0; k < groups; ++k) {
      const size_t g = order[k];
      if (group_start[g + 1] == group_start[g]) continue;  // partial[g] stays the identity
      const size_t r = g % R;
      const uint32_t* e = entries + group_start[g];
      const uint16_t* eb = entry_bucket + group_start[g];
      const size_t m = group_start[g + 1] - group_start[g];
      TeExtended run, acc;
#if ZKGPU_MSM_IFMA
      if (use_ifma) accumulate_ifma(points, e, eb, m, S, scratch, bucket.data(), acc, run, clk);
#endif
      if (!use_ifma) accumulate_scalar(points, e, eb, m, S, bucket.data(), acc, run, clk);
      const int64_t t0 = clk.start();
      partial[g] = r == 0 ? acc : te_add(acc, te_mul_small(run, r * S));
      clk.lap(REDUCE, t0);
    }
  }
  return partial;
}

// Horner's rule over the windows, each window the sum of its ranges' partials.
TeExtended combine_windows(const std::vector<TeExtended>& partial, const TaskPlan& tp, unsigned c, PhaseClock& clk) {
  const int64_t t0 = clk.start();
  TeExtended result = TeExtended::identity();
  for (size_t w = tp.W; w-- > 0;) {
    for (unsigned k = 0; k < c; ++k) result = te_double(result);
    for (size_t r = 0; r < tp.R; ++r) result = te_add(result, partial[w * tp.R + r]);
  }
  clk.lap(COMBINE, t0);
  return result;
}

}  // namespace

bool ifma_available() {
#if ZKGPU_MSM_IFMA
  return ifma::AVAILABLE;
#else
  return false;
#endif
}

TeExtended msm_te(const TePrecomputed* points, const Scalar* scalars, size_t n, unsigned c, Accumulation acc_path,
                  PhaseTimes* phases) {
  if (n == 0) return TeExtended::identity();
  const bool use_ifma = acc_path == Accumulation::Ifma || (acc_path == Accumulation::Auto && ifma_available());
  if (use_ifma && !ifma_available()) throw Error(ErrorCode::Unavailable, "this CPU (or build) has no AVX-512 IFMA");
  PhaseClock clk(phases != nullptr);
  const auto wall0 = std::chrono::steady_clock::now();
  const TaskPlan tp = plan_tasks(n, c);
  // Digits and entries are written in full by the parallel loops below: left uninitialised
  // (135 MiB at 2^20), so a fresh array's pages are first touched by those threads, not zeroed
  // serially.
  std::unique_lock<std::mutex> ws_lock(g_workspace_mutex, std::try_to_lock);
  Workspace own;
  const bool keep = tp.W * n * (2 * sizeof(int16_t) + sizeof(uint32_t)) <= KEEP_BYTES;
  Workspace& ws = ws_lock.owns_lock() && keep ? g_workspace : own;
  int16_t* const digits = ws.digits.get(tp.W * n);
  // count[b * stride + g], then its offset; slot groups of each block is where the AVX-512 digit
  // pass counts the zero digits.
  std::vector<uint32_t> count(tp.blocks * (tp.groups + 1), 0);
  digit_pass(scalars, n, c, tp, digits, count, clk);
  const std::vector<size_t> group_start = group_offsets(tp, count);
  uint32_t* const entries = ws.entries.get(group_start[tp.groups]);
  uint16_t* const entry_bucket = ws.entry_bucket.get(group_start[tp.groups]);
  scatter_pass(digits, n, tp, group_start, count, entries, entry_bucket, clk);
  const std::vector<TeExtended> partial = run_tasks(points, tp, group_start, entries, entry_bucket, use_ifma, clk);
  const TeExtended result = combine_windows(partial, tp, c, clk);
  if (phases) {
    clk.report(*phases);
    phases->wall_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
  }
  return result;
}

}  // namespace zkgpu::bls12_377::cpu
