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
#include "msm/cpu/msm_cpu.hpp"

#include <omp.h>

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "msm/signed_digits.hpp"
#include "runtime/huge_pages.hpp"
#include "runtime/env.hpp"
#include "zkgpu/status.hpp"
#if defined(__x86_64__)
#include "msm/cpu/field_ifma.hpp"
#define ZKGPU_MSM_IFMA 1
#else
#define ZKGPU_MSM_IFMA 0
#endif

namespace zkgpu::bls12_377::cpu {

namespace {

// ZKGPU_MSM_PHASES=1: one stderr line per CPU MSM with the CPU time of each phase summed over
// the threads (CLOCK_THREAD_CPUTIME_ID: on a shared or oversubscribed machine the wall clock
// says little about where one thread's time goes) and the wall time of the whole MSM.
enum Phase { DIGITS, SCATTER, SORT, SUMS, REDUCE, COMBINE, PHASES };
bool phases_enabled() {
  static const bool on = env_flag("ZKGPU_MSM_PHASES");
  return on;
}
struct PhaseClock {
  const bool on = phases_enabled();
  std::atomic<int64_t> ns[PHASES] = {};
  static int64_t now() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000ll + t.tv_nsec;
  }
  // Adds the thread time since t0 to phase p and returns the new mark.
  int64_t lap(Phase p, int64_t t0) {
    if (!on) return 0;
    const int64_t t = now();
    ns[p] += t - t0;
    return t;
  }
  int64_t start() const { return on ? now() : 0; }
};

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

// A_r = sum_j (j + 1) B_j and S_r = sum_j B_j over bucket[0..S): the running sum picks up B_j at
// j and is added j + 1 times.
void reduce_range(const TeExtended* bucket, size_t S, TeExtended& acc, TeExtended& run) {
  run = TeExtended::identity(), acc = TeExtended::identity();
  for (size_t j = S; j-- > 0;) {
    run = te_add(run, bucket[j]);
    acc = te_add(acc, run);
  }
}

#if ZKGPU_MSM_IFMA
// The AVX-512 IFMA accumulation of one task (field_ifma.hpp): eight bucket additions per step.
// The task's entries are sorted by bucket (local counting sort) and cut into eight equal slices,
// one per lane, so every lane does the same number of additions whatever the bucket sizes. A lane
// accumulates its current bucket in registers and, when its slice moves on to the next bucket,
// writes the sum out and restarts from the identity. Two lanes never write the same bucket: a
// lane's first bucket (which may continue the previous lane's last one) goes to a per-lane head
// slot, added in at the end. Negative digits add -Q: the lane loads ymx and ypx swapped and the
// adder swaps F and G (field_ifma.hpp).
struct IfmaScratch {
  std::vector<uint32_t> cnt, sorted;  // sorted: point index | (digit < 0) << 31
  std::vector<uint16_t> bk;           // bucket of each sorted entry
  std::vector<uint64_t> out52;        // S buckets of 32 words (X, Y, Z, T limb-major), IFMA form
};

constexpr int LANES = 8;
// Task-local entry: point index (< 2^26) | RUN_START (first entry of its bucket) | NEG (digit < 0).
constexpr uint32_t NEG = 0x80000000u, RUN_START = 0x40000000u, INDEX_MASK = 0x3ffffffu;
// The point AHEAD steps ahead (8 x 3 cache lines per step) is prefetched into L2 only
// (prefetcht1): into L1 (prefetcht0) the 24 lines per step held the core's L1 miss buffers and
// the prefetches stalled; one Zen 4 thread at 2^18 went from 645 to 555 ms. The gathers then
// hit L2. 2 and 6 steps ahead measured the same.
constexpr size_t AHEAD = 4;
constexpr int WORDS52 = 32;  // one Te8 lane: 4 coordinates x 8 limbs

using ifma::Fp8;
using ifma::Te8;

// 8 records of 32 words (X, Y, Z, T limbs of one bucket, IFMA form) to TeExtended; null dst
// pointers are skipped.
ZKGPU_IFMA_TARGET void records_to_te(const uint64_t* const src[LANES], TeExtended* const dst[LANES]) {
  alignas(64) uint64_t t[WORDS52][LANES];
  for (int l = 0; l < LANES; ++l)
    for (int q = 0; q < WORDS52; ++q) t[q][l] = src[l] ? src[l][q] : 0;
  for (int coord = 0; coord < 4; ++coord) {
    Fp8 a;
    for (int i = 0; i < 8; ++i) a.l[i] = _mm512_load_si512(t[coord * 8 + i]);
    __m512i w[6];
    ifma::to_words(a, w);
    alignas(64) uint64_t buf[6][LANES];
    for (int j = 0; j < 6; ++j) _mm512_store_si512(buf[j], w[j]);
    for (int l = 0; l < LANES; ++l) {
      if (!dst[l]) continue;
      Fp* f = coord == 0 ? &dst[l]->x : coord == 1 ? &dst[l]->y : coord == 2 ? &dst[l]->z : &dst[l]->t;
      for (int j = 0; j < 6; ++j) f->l[j] = buf[j][l];
    }
  }
}

// Eight 32-word records at byte offsets off[l] from base to Te8, and back for the lanes in `lanes`.
ZKGPU_IFMA_INLINE Te8 load_records(const uint64_t* base, const int64_t off[LANES]) {
  const __m512i idx = _mm512_loadu_si512(off);
  Te8 r;
  Fp8* c[4] = {&r.x, &r.y, &r.z, &r.t};
  for (int q = 0; q < WORDS52; ++q) c[q / 8]->l[q % 8] = ifma::gather(idx, base + q);
  return r;
}
ZKGPU_IFMA_INLINE void store_records(const Te8& r, __mmask8 lanes, uint64_t* base, const int64_t off[LANES]) {
  const __m512i idx = _mm512_loadu_si512(off);
  const Fp8* c[4] = {&r.x, &r.y, &r.z, &r.t};
  for (int q = 0; q < WORDS52; ++q) _mm512_mask_i64scatter_epi64(base + q, lanes, idx, c[q / 8]->l[q % 8], 1);
}

// One task on the IFMA path: acc_out = A_r and run_out = S_r of the range (see reduce_range) for
// the entries e[0..m) (point index | negative << 31) in buckets eb[0..m) (as in msm_te); bucket is
// scratch of S entries.
ZKGPU_IFMA_TARGET void accumulate_ifma(const TePrecomputed* points, const uint32_t* e, const uint16_t* eb, size_t m,
                                       size_t S, IfmaScratch& sc, TeExtended* bucket, TeExtended& acc_out,
                                       TeExtended& run_out, PhaseClock& clk) {
  int64_t t0 = clk.start();
  // Counting sort of the task's entries by bucket. sorted[] gets AHEAD zero entries after the end,
  // so the prefetches of the main loop read past a slice without a test (a zero entry prefetches
  // point 0), and RUN_START on the first entry of every bucket.
  sc.cnt.assign(S + 1, 0);
  sc.sorted.assign(m + AHEAD, 0);
  sc.bk.resize(m);
  for (size_t k = 0; k < m; ++k) ++sc.cnt[eb[k] + 1];
  // Buckets start as the identity (0 : 1 : 1 : 0) only where no flush writes them: empty ones
  // here, lanes' first buckets below (those sums go to the head slots and are added in at the
  // end). Every other bucket is written exactly once, by the one lane that finishes it. Setting
  // all S records (256 KiB per task, 70 MiB per MSM at 2^20) was part of the sort's cost.
  sc.out52.resize(S * WORDS52);
  auto set_identity = [&](size_t j) {
    uint64_t* r = sc.out52.data() + j * WORDS52;
    std::fill(r, r + WORDS52, 0);
    r[8] = r[16] = 1;
  };
  for (size_t j = 0; j < S; ++j)
    if (sc.cnt[j + 1] == 0) set_identity(j);
  for (size_t j = 0; j < S; ++j) sc.cnt[j + 1] += sc.cnt[j];
  for (size_t k = 0; k < m; ++k) {
    const uint32_t pos = sc.cnt[eb[k]]++;
    sc.sorted[pos] = e[k];
    sc.bk[pos] = eb[k];
  }
  // cnt[j] is now the end of bucket j, i.e. the start of bucket j + 1.
  for (size_t j = 0, start = 0; j < S; start = sc.cnt[j++])
    if (sc.cnt[j] > start) sc.sorted[start] |= RUN_START;

  t0 = clk.lap(SORT, t0);
  size_t lo[LANES], hi[LANES], steps = 0;
  for (int l = 0; l < LANES; ++l) {
    lo[l] = m * static_cast<size_t>(l) / LANES;
    hi[l] = m * static_cast<size_t>(l + 1) / LANES;
    steps = std::max(steps, hi[l] - lo[l]);
    if (hi[l] > lo[l]) set_identity(sc.bk[lo[l]]);
  }
  alignas(64) uint64_t head[LANES][WORDS52];
  int head_bucket[LANES];
  bool first_done[LANES];
  for (int l = 0; l < LANES; ++l) head_bucket[l] = -1, first_done[l] = false;

  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
  Te8 acc;
  for (int i = 0; i < 8; ++i) acc.x.l[i] = acc.y.l[i] = acc.z.l[i] = acc.t.l[i] = zero;
  acc.y.l[0] = acc.z.l[0] = one;

  // Writes the listed lanes' sums out (bucket[l] of each) and resets them to the identity.
  auto flush = [&](__mmask8 lanes, const size_t* lane_bucket) __attribute__((target("avx512f,avx512ifma"))) {
    // Lane l's column of each coordinate's eight limb registers, by masked permutes (limb i
    // into element i), stored as one 64-byte row per coordinate. Storing all 32 registers and
    // copying the lane's words out one by one (the per-lane loop before session 5) cost ~3 % of
    // the loop at 2^20 (Zen 4).
    for (int l = 0; l < LANES; ++l) {
      if (!((lanes >> l) & 1)) continue;
      uint64_t* dst;
      if (first_done[l]) {
        dst = sc.out52.data() + lane_bucket[l] * WORDS52;
      } else {
        dst = head[l];
        head_bucket[l] = static_cast<int>(lane_bucket[l]);
        first_done[l] = true;
      }
      const __m512i sel = _mm512_set1_epi64(l);
      const Fp8* coord[4] = {&acc.x, &acc.y, &acc.z, &acc.t};
      for (int cd = 0; cd < 4; ++cd) {
        __m512i row = zero;
        for (int i = 0; i < 8; ++i)
          row = _mm512_mask_permutexvar_epi64(row, static_cast<__mmask8>(1u << i), sel, coord[cd]->l[i]);
        _mm512_storeu_si512(dst + 8 * cd, row);
      }
    }
    for (int i = 0; i < 8; ++i) {
      acc.x.l[i] = _mm512_mask_mov_epi64(acc.x.l[i], lanes, zero);
      acc.t.l[i] = _mm512_mask_mov_epi64(acc.t.l[i], lanes, zero);
      acc.y.l[i] = _mm512_mask_mov_epi64(acc.y.l[i], lanes, i == 0 ? one : zero);
      acc.z.l[i] = _mm512_mask_mov_epi64(acc.z.l[i], lanes, i == 0 ? one : zero);
    }
  };

  // Lanes past the end of their slice add the identity (1, 1, 0) (byte offsets from `points`).
  static const TePrecomputed IDENTITY = TePrecomputed::identity();
  const char* base_ptr = reinterpret_cast<const char*>(points);
  const int64_t identity_off =
      static_cast<int64_t>(reinterpret_cast<uintptr_t>(&IDENTITY) - reinterpret_cast<uintptr_t>(base_ptr));
  // Raw pointers: through `sc` the compiler reloads the vectors' data pointers after every store.
  const uint32_t* const sorted = sc.sorted.data();
  const uint16_t* const bk = sc.bk.data();
  // Per step, the eight lanes' entries come in one 32-bit gather at positions lo[l] + k; lanes
  // past their slice (pos >= hi) add the identity. A lane whose entry starts a bucket (RUN_START,
  // not at its first step) writes its previous bucket's sum out first. The per-lane scalar
  // bookkeeping this replaces (offsets, signs and bucket changes lane by lane, with branches)
  // cost ~10 % of the step on one Zen 4 thread.
  alignas(64) uint64_t lo64[LANES], hi64[LANES];
  for (int l = 0; l < LANES; ++l) lo64[l] = lo[l], hi64[l] = hi[l];
  const __m512i hi_v = _mm512_load_si512(hi64), c48 = _mm512_set1_epi64(48), c96 = _mm512_set1_epi64(96),
                index_mask = _mm512_set1_epi64(INDEX_MASK), neg_bit = _mm512_set1_epi64(NEG),
                start_bit = _mm512_set1_epi64(RUN_START), identity_v = _mm512_set1_epi64(identity_off);
  __m512i pos = _mm512_load_si512(lo64);
  // One step: the bases at byte offsets va (ymx), vb (ypx), vk (kt) from `points`, added to
  // the lanes' buckets (negated in the lanes of `neg`).
  auto add_step = [&](__m512i va, __m512i vb, __m512i vk, __mmask8 neg)
      __attribute__((target("avx512f,avx512ifma"), always_inline)) {
    __m512i wa[6], wb[6], wk[6];
    for (int j = 0; j < 6; ++j) {
      wa[j] = ifma::gather(va, base_ptr + 8 * j);
      wb[j] = ifma::gather(vb, base_ptr + 8 * j);
      wk[j] = ifma::gather(vk, base_ptr + 8 * j);
    }
    ifma::te_add_precomputed(acc, ifma::from_words(wa), ifma::from_words(wb), ifma::from_words(wk), neg);
  };
  for (size_t k = 0; k < steps; ++k, pos = _mm512_add_epi64(pos, one)) {
    const __mmask8 valid = _mm512_cmplt_epu64_mask(pos, hi_v);
    const __m512i ent =
        _mm512_maskz_cvtepu32_epi64(0xff, _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), valid, pos, sorted, 4));
    const __mmask8 neg = _mm512_test_epi64_mask(ent, neg_bit);
    const __mmask8 change = k > 0 ? _mm512_test_epi64_mask(ent, start_bit) : 0;
    const __m512i idx = _mm512_and_si512(ent, index_mask);  // * 144 = 128 + 16
    const __m512i o =
        _mm512_mask_blend_epi64(valid, identity_v, _mm512_add_epi64(ifma::sll(idx, 7), ifma::sll(idx, 4)));
    for (int l = 0; l < LANES; ++l) {
      const char* q = base_ptr + (sorted[lo[l] + k + AHEAD] & INDEX_MASK) * sizeof(TePrecomputed);
      __builtin_prefetch(q, 0, 2);
      __builtin_prefetch(q + 64, 0, 2);
      __builtin_prefetch(q + 128, 0, 2);
    }
    if (change) {
      size_t prev_bucket[LANES];
      for (int l = 0; l < LANES; ++l)
        if ((change >> l) & 1) prev_bucket[l] = bk[lo[l] + k - 1];
      flush(change, prev_bucket);
    }
    // ymx of the added point at +0, ypx at +48 (swapped for -Q), kt at +96.
    const __m512i va = _mm512_mask_add_epi64(o, neg, o, c48), vb = _mm512_mask_add_epi64(o, ~neg, o, c48),
                  vk = _mm512_add_epi64(o, c96);
    add_step(va, vb, vk, neg);
  }
  {
    size_t last[LANES];
    __mmask8 live = 0;
    for (int l = 0; l < LANES; ++l)
      if (hi[l] > lo[l]) live |= static_cast<__mmask8>(1u << l), last[l] = sc.bk[hi[l] - 1];
    if (live) flush(live, last);
  }
  // Heads into their buckets (IFMA form). Lanes with the same head bucket (a bucket longer than
  // a slice) are merged over several rounds so that no round writes a bucket twice.
  int64_t head_off[LANES];
  for (int l = 0; l < LANES; ++l) head_off[l] = static_cast<int64_t>(l) * WORDS52 * 8;
  for (;;) {
    __mmask8 take = 0;
    int64_t off[LANES];
    for (int l = 0; l < LANES; ++l) {
      off[l] = 0;
      if (head_bucket[l] < 0) continue;
      bool dup = false;
      for (int l2 = 0; l2 < l; ++l2) dup |= ((take >> l2) & 1) && head_bucket[l2] == head_bucket[l];
      if (dup) continue;
      take |= static_cast<__mmask8>(1u << l);
      off[l] = static_cast<int64_t>(static_cast<size_t>(head_bucket[l]) * WORDS52 * 8);
    }
    if (!take) break;
    Te8 b = load_records(sc.out52.data(), off), h = load_records(&head[0][0], head_off);
    ifma::te_add(b, h);
    store_records(b, take, sc.out52.data(), off);
    for (int l = 0; l < LANES; ++l)
      if ((take >> l) & 1) head_bucket[l] = -1;
  }
  t0 = clk.lap(SUMS, t0);
  if (S % LANES != 0) {  // tiny windows (S < 8): convert every bucket, reduce on the scalar path
    for (size_t j0 = 0; j0 < S; j0 += LANES) {
      const uint64_t* src[LANES];
      TeExtended* dst[LANES];
      for (int l = 0; l < LANES; ++l) {
        const size_t j = j0 + static_cast<size_t>(l);
        src[l] = j < S ? sc.out52.data() + j * WORDS52 : nullptr;
        dst[l] = j < S ? bucket + j : nullptr;
      }
      records_to_te(src, dst);
    }
    reduce_range(bucket, S, acc_out, run_out);
    clk.lap(REDUCE, t0);
    return;
  }
  // Running sums on eight lanes: lane l takes buckets [l q, (l + 1) q), q = S / 8, and returns
  // acc_l = sum_j (j - l q + 1) B_j and run_l = sum_j B_j. Then
  // A = sum_l acc_l + q * sum_l l * run_l (the second sum by suffix sums, q a power of two).
  const size_t q = S / LANES;
  Te8 run, sum;
  for (int i = 0; i < 8; ++i) run.x.l[i] = run.y.l[i] = run.z.l[i] = run.t.l[i] = zero;
  run.y.l[0] = run.z.l[0] = one;
  sum = run;
  for (size_t jj = q; jj-- > 0;) {
    int64_t off[LANES];
    for (int l = 0; l < LANES; ++l) off[l] = static_cast<int64_t>((static_cast<size_t>(l) * q + jj) * WORDS52 * 8);
    const Te8 b = load_records(sc.out52.data(), off);
    ifma::te_add(run, b);
    ifma::te_add(sum, run);
  }
  alignas(64) uint64_t rec[2 * LANES][WORDS52];
  int64_t off[LANES];
  for (int l = 0; l < LANES; ++l) off[l] = static_cast<int64_t>(l) * WORDS52 * 8;
  store_records(sum, 0xff, &rec[0][0], off);
  store_records(run, 0xff, &rec[LANES][0], off);
  TeExtended lane_sum[LANES], lane_run[LANES];
  const uint64_t* src[LANES];
  TeExtended* dst[LANES];
  for (int l = 0; l < LANES; ++l) src[l] = rec[l], dst[l] = lane_sum + l;
  records_to_te(src, dst);
  for (int l = 0; l < LANES; ++l) src[l] = rec[LANES + l], dst[l] = lane_run + l;
  records_to_te(src, dst);
  TeExtended a = lane_sum[0], s_all = lane_run[0], suffix = TeExtended::identity(), weighted = TeExtended::identity();
  for (int l = LANES - 1; l >= 1; --l) {
    suffix = te_add(suffix, lane_run[l]);
    weighted = te_add(weighted, suffix);
    a = te_add(a, lane_sum[l]);
    s_all = te_add(s_all, lane_run[l]);
  }
  for (size_t k = q; k > 1; k /= 2) weighted = te_double(weighted);
  acc_out = te_add(a, weighted);
  run_out = s_all;
  clk.lap(REDUCE, t0);
}
#endif

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

#if ZKGPU_MSM_IFMA
// digits_one for eight points at a time on AVX-512 (a window's word index and shift are the same
// for every point), points [lo, lo + 8k); returns lo + 8k, the first point left to digits_one.
// Zero digits count in cnt[W * R], a slot past the groups, so the counts need no branch. (Zero-
// masked intrinsics throughout: the plain ones start from _mm512_undefined_epi32(), which GCC 12
// reports as uninitialised in target-attribute functions.)
ZKGPU_IFMA_TARGET size_t digits_avx512(const Scalar* scalars, size_t lo, size_t hi, size_t n, size_t W, unsigned c,
                                       size_t R, unsigned log2_s, int16_t* digits, uint32_t* cnt) {
  static_assert(sizeof(Scalar) == 32, "eight scalars are gathered at a 32-byte stride");
  const __m512i stride = _mm512_set_epi64(7 * 32, 6 * 32, 5 * 32, 4 * 32, 3 * 32, 2 * 32, 32, 0);
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>((uint64_t{1} << c) - 1)),
                half = _mm512_set1_epi64(1ll << (c - 1)), full = _mm512_set1_epi64(1ll << c),
                one = _mm512_set1_epi64(1), zero = _mm512_setzero_si512(),
                dummy = _mm512_set1_epi64(static_cast<long long>(W * R));
  size_t i = lo;
  for (; i + 8 <= hi; i += 8) {
    __m512i word[5];
    for (int k = 0; k < 4; ++k) word[k] = ifma::gather(stride, reinterpret_cast<const char*>(scalars + i) + 8 * k);
    word[4] = zero;
    __m512i carry = zero;
    for (size_t w = 0; w < W; ++w) {
      const unsigned pos = static_cast<unsigned>(w) * c, k = pos / 64, b = pos % 64;
      __m512i v = _mm512_maskz_srl_epi64(0xff, word[k], _mm_cvtsi32_si128(static_cast<int>(b)));
      if (b + c > 64)
        v = _mm512_or_si512(v, _mm512_maskz_sll_epi64(0xff, word[k + 1], _mm_cvtsi32_si128(static_cast<int>(64 - b))));
      v = _mm512_add_epi64(_mm512_and_si512(v, mask), carry);
      const __mmask8 up = _mm512_cmpgt_epu64_mask(v, half);  // the digit becomes v - 2^c
      const __m512i d = _mm512_mask_sub_epi64(v, up, v, full);
      carry = _mm512_maskz_mov_epi64(up, one);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(digits + w * n + i), _mm512_maskz_cvtepi64_epi16(0xff, d));
      const __m512i a = _mm512_sub_epi64(_mm512_maskz_abs_epi64(0xff, d), one);
      const __m512i g = _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(w * R)),
                                         _mm512_maskz_srl_epi64(0xff, a, _mm_cvtsi32_si128(static_cast<int>(log2_s))));
      alignas(64) uint64_t gs[8];
      _mm512_store_si512(gs, _mm512_mask_blend_epi64(_mm512_test_epi64_mask(d, d), dummy, g));
      for (int l = 0; l < 8; ++l) ++cnt[gs[l]];
    }
  }
  return i;
}
#endif

}  // namespace

bool ifma_available() {
#if ZKGPU_MSM_IFMA
  return ifma::AVAILABLE;
#else
  return false;
#endif
}

TeExtended msm_te(const TePrecomputed* points, const Scalar* scalars, size_t n, unsigned c, Accumulation acc_path) {
  if (n == 0) return TeExtended::identity();
  const bool use_ifma = acc_path == Accumulation::Ifma || (acc_path == Accumulation::Auto && ifma_available());
  if (use_ifma && !ifma_available()) throw Error(ErrorCode::Unavailable, "this CPU (or build) has no AVX-512 IFMA");
  PhaseClock clk;
  const auto wall0 = std::chrono::steady_clock::now();
  const size_t W = msm_window_count(c);
  const size_t buckets = size_t{1} << (c - 1);
  // Smaller ranges when there would be fewer than ~4 tasks per thread (small n, many threads).
  // 512-bucket ranges at 2^20, c = 15, on 16 threads (544 tasks instead of 272, for a shorter
  // tail) made no difference on the Sapphire Rapids host (153.6 against 153.7 and 156.5 ms) and a
  // slower scatter (more groups), so S stays 1024.
  const size_t threads = static_cast<size_t>(omp_get_max_threads());
  size_t S = std::min(buckets, RANGE_BUCKETS);
  while (S > 64 && W * (buckets / S) < 4 * threads) S /= 2;
  const size_t R = buckets / S;  // ranges per window (both powers of two)
  // |digit| - 1 >> log2 S is the range: S is a run-time value, and a division by it in the digit
  // and scatter loops was a 64-bit div per digit.
  const unsigned log2_s = static_cast<unsigned>(__builtin_ctzll(S));
  const size_t groups = W * R;  // group g = w * R + r

  // Blocks of points for the counting sort: enough for all threads, each with its own histogram.
  const size_t blocks = std::clamp<size_t>(n / 4096, 1, 4 * threads);
  // Digits and entries are written in full by the parallel loops below: left uninitialised
  // (135 MiB at 2^20), so a fresh array's pages are first touched by those threads, not zeroed
  // serially.
  std::unique_lock<std::mutex> ws_lock(g_workspace_mutex, std::try_to_lock);
  Workspace own;
  const bool keep = W * n * (2 * sizeof(int16_t) + sizeof(uint32_t)) <= KEEP_BYTES;
  Workspace& ws = ws_lock.owns_lock() && keep ? g_workspace : own;
  int16_t* const digits = ws.digits.get(W * n);
  // count[b * stride + g], then its offset; slot groups of each block is where the AVX-512 digit
  // pass counts the zero digits.
  const size_t stride = groups + 1;
  std::vector<uint32_t> count(blocks * stride, 0);

#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < blocks; ++b) {
    const int64_t t0 = clk.start();
    const size_t lo = n * b / blocks, hi = n * (b + 1) / blocks;
    uint32_t* cnt = count.data() + b * stride;
    size_t i = lo;
#if ZKGPU_MSM_IFMA
    if (ifma::AVAILABLE) i = digits_avx512(scalars, lo, hi, n, W, c, R, log2_s, digits, cnt);
#endif
    for (; i < hi; ++i) digits_one(scalars[i], i, n, W, c, R, log2_s, digits, cnt);
    clk.lap(DIGITS, t0);
  }
  // Exclusive prefix over (group, block): group g's entries are contiguous, blocks in order, so
  // each group lists its point indices in increasing order.
  std::vector<size_t> group_start(groups + 1);
  {
    size_t run = 0;
    for (size_t g = 0; g < groups; ++g) {
      group_start[g] = run;
      for (size_t b = 0; b < blocks; ++b) {
        const uint32_t k = count[b * stride + g];
        count[b * stride + g] = static_cast<uint32_t>(run - group_start[g]);
        run += k;
      }
    }
    group_start[groups] = run;
  }
  // Entry: point index (n <= 2^26) | (digit < 0) << 31, and its bucket within the range
  // (|digit| - 1 mod S) beside it, so the tasks sort their entries by bucket reading both
  // sequentially instead of looking up each entry's digit at random (2 MiB of digits per window).
  uint32_t* const entries = ws.entries.get(group_start[groups]);
  uint16_t* const entry_bucket = ws.entry_bucket.get(group_start[groups]);
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < blocks; ++b) {
    const int64_t t0 = clk.start();
    const size_t lo = n * b / blocks, hi = n * (b + 1) / blocks;
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

  // Largest tasks first: the last window's few ranges hold twice the entries of the others (at
  // 2^20, c = 15, its 13-bit digits fill 8 of 16 ranges), and in window order they came last,
  // leaving half the threads idle for the final two task lengths. Empty ranges are skipped.
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
      int64_t t0 = clk.start();
      if (!use_ifma) std::fill(bucket.begin(), bucket.end(), TeExtended::identity());
      for (size_t k = 0; !use_ifma && k < m; ++k) {
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
      if (!use_ifma) t0 = clk.lap(SUMS, t0);
      if (!use_ifma) reduce_range(bucket.data(), S, acc, run);
      partial[g] = r == 0 ? acc : te_add(acc, te_mul_small(run, r * S));
      clk.lap(REDUCE, t0);
    }
  }
  const int64_t t0 = clk.start();
  TeExtended result = TeExtended::identity();
  for (size_t w = W; w-- > 0;) {
    for (unsigned k = 0; k < c; ++k) result = te_double(result);
    for (size_t r = 0; r < R; ++r) result = te_add(result, partial[w * R + r]);
  }
  clk.lap(COMBINE, t0);
  if (clk.on) {
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
    auto ms = [&](Phase p) { return static_cast<double>(clk.ns[p].load()) * 1e-6; };
    std::fprintf(stderr,
                 "cpu msm phases: n %zu c %u threads %zu %s | CPU ms over all threads: digits %.1f scatter %.1f "
                 "sort %.1f sums %.1f reduce %.1f combine %.1f | wall %.1f ms\n",
                 n, c, threads, use_ifma ? "ifma" : "scalar", ms(DIGITS), ms(SCATTER), ms(SORT), ms(SUMS), ms(REDUCE),
                 ms(COMBINE), wall);
  }
  return result;
}

}  // namespace zkgpu::bls12_377::cpu
