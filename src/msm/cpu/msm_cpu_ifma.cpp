// The CPU MSM's AVX-512 IFMA paths (msm_cpu_ifma.hpp; the arithmetic in field_ifma.hpp).
#include "msm/cpu/msm_cpu_ifma.hpp"

#if ZKGPU_MSM_IFMA
#include <algorithm>

namespace zkgpu::bls12_377::cpu {

namespace {

// The AVX-512 IFMA accumulation of one task (field_ifma.hpp): eight bucket additions per step.
// The task's entries are sorted by bucket (local counting sort) and cut into eight equal slices,
// one per lane, so every lane does the same number of additions whatever the bucket sizes. A lane
// accumulates its current bucket in registers and, when its slice moves on to the next bucket,
// writes the sum out and restarts from the identity. Two lanes never write the same bucket: a
// lane's first bucket (which may continue the previous lane's last one) goes to a per-lane head
// slot, added in at the end. Negative digits add -Q: the lane loads ymx and ypx swapped and the
// adder swaps F and G (field_ifma.hpp).
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

// Bucket j's record set to the identity (0 : 1 : 1 : 0).
inline void set_identity(IfmaScratch& sc, size_t j) {
  uint64_t* r = sc.out52.data() + j * WORDS52;
  std::fill(r, r + WORDS52, 0);
  r[8] = r[16] = 1;
}

// Counting sort of the task's entries by bucket. sorted[] gets AHEAD zero entries after the end,
// so the prefetches of the main loop read past a slice without a test (a zero entry prefetches
// point 0), and RUN_START on the first entry of every bucket.
ZKGPU_IFMA_INLINE void sort_entries(const uint32_t* e, const uint16_t* eb, size_t m, size_t S, IfmaScratch& sc) {
  sc.cnt.assign(S + 1, 0);
  sc.sorted.assign(m + AHEAD, 0);
  sc.bk.resize(m);
  for (size_t k = 0; k < m; ++k) ++sc.cnt[eb[k] + 1];
  // Buckets start as the identity (0 : 1 : 1 : 0) only where no flush writes them: empty ones
  // here, lanes' first buckets below (those sums go to the head slots and are added in at the
  // end). Every other bucket is written exactly once, by the one lane that finishes it. Setting
  // all S records (256 KiB per task, 70 MiB per MSM at 2^20) was part of the sort's cost.
  sc.out52.resize(S * WORDS52);
  for (size_t j = 0; j < S; ++j)
    if (sc.cnt[j + 1] == 0) set_identity(sc, j);
  for (size_t j = 0; j < S; ++j) sc.cnt[j + 1] += sc.cnt[j];
  for (size_t k = 0; k < m; ++k) {
    const uint32_t pos = sc.cnt[eb[k]]++;
    sc.sorted[pos] = e[k];
    sc.bk[pos] = eb[k];
  }
  // cnt[j] is now the end of bucket j, i.e. the start of bucket j + 1.
  for (size_t j = 0, start = 0; j < S; start = sc.cnt[j++])
    if (sc.cnt[j] > start) sc.sorted[start] |= RUN_START;
}

// The lanes' first buckets' sums (head slots; head_bucket[l] >= 0 once written).
struct LaneHeads {
  alignas(64) uint64_t head[LANES][WORDS52];
  int head_bucket[LANES];
  bool first_done[LANES];
};

// The lanes' slices of the m sorted entries, [lo[l], hi[l]), the most entries of one (returned),
// empty heads and the accumulators at the identity.
ZKGPU_IFMA_INLINE size_t start_lanes(size_t* lo, size_t* hi, LaneHeads& ls, IfmaScratch& sc, size_t m, Te8& acc) {
  size_t steps = 0;
  for (int l = 0; l < LANES; ++l) {
    lo[l] = m * static_cast<size_t>(l) / LANES;
    hi[l] = m * static_cast<size_t>(l + 1) / LANES;
    steps = std::max(steps, hi[l] - lo[l]);
    if (hi[l] > lo[l]) set_identity(sc, sc.bk[lo[l]]);
  }
  for (int l = 0; l < LANES; ++l) ls.head_bucket[l] = -1, ls.first_done[l] = false;
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
  for (int i = 0; i < 8; ++i) acc.x.l[i] = acc.y.l[i] = acc.z.l[i] = acc.t.l[i] = zero;
  acc.y.l[0] = acc.z.l[0] = one;
  return steps;
}

// Writes the listed lanes' sums out (bucket[l] of each) and resets them to the identity.
ZKGPU_IFMA_TARGET inline void flush(LaneHeads& ls, IfmaScratch& sc, Te8& acc, __mmask8 lanes,
                                    const size_t* lane_bucket) {
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
  // Lane l's column of each coordinate's eight limb registers, by masked permutes (limb i
  // into element i), stored as one 64-byte row per coordinate. Storing all 32 registers and
  // copying the lane's words out one by one (the per-lane loop before session 5) cost ~3 % of
  // the loop at 2^20 (Zen 4).
  for (int l = 0; l < LANES; ++l) {
    if (!((lanes >> l) & 1)) continue;
    uint64_t* dst;
    if (ls.first_done[l]) {
      dst = sc.out52.data() + lane_bucket[l] * WORDS52;
    } else {
      dst = ls.head[l];
      ls.head_bucket[l] = static_cast<int>(lane_bucket[l]);
      ls.first_done[l] = true;
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
}

// One step: the bases at byte offsets va (ymx), vb (ypx), vk (kt) from base_ptr, added to the
// lanes' buckets (negated in the lanes of `neg`).
ZKGPU_IFMA_INLINE void add_step(Te8& acc, const char* base_ptr, __m512i va, __m512i vb, __m512i vk, __mmask8 neg) {
  __m512i wa[6], wb[6], wk[6];
  for (int j = 0; j < 6; ++j) {
    wa[j] = ifma::gather(va, base_ptr + 8 * j);
    wb[j] = ifma::gather(vb, base_ptr + 8 * j);
    wk[j] = ifma::gather(vk, base_ptr + 8 * j);
  }
  ifma::te_add_precomputed(acc, ifma::from_words(wa), ifma::from_words(wb), ifma::from_words(wk), neg);
}

// The bucket additions of every lane's slice, each bucket's sum written out when its lane moves on
// (the lane's first bucket into its head slot).
ZKGPU_IFMA_INLINE void sum_lanes(const TePrecomputed* points, IfmaScratch& sc, const size_t* lo, const size_t* hi,
                                 size_t steps, LaneHeads& ls, Te8& acc) {
  const __m512i one = _mm512_set1_epi64(1);
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
      flush(ls, sc, acc, change, prev_bucket);
    }
    // ymx of the added point at +0, ypx at +48 (swapped for -Q), kt at +96.
    const __m512i va = _mm512_mask_add_epi64(o, neg, o, c48), vb = _mm512_mask_add_epi64(o, ~neg, o, c48),
                  vk = _mm512_add_epi64(o, c96);
    add_step(acc, base_ptr, va, vb, vk, neg);
  }
  size_t last[LANES];
  __mmask8 live = 0;
  for (int l = 0; l < LANES; ++l)
    if (hi[l] > lo[l]) live |= static_cast<__mmask8>(1u << l), last[l] = sc.bk[hi[l] - 1];
  if (live) flush(ls, sc, acc, live, last);
}

// Heads into their buckets (IFMA form). Lanes with the same head bucket (a bucket longer than
// a slice) are merged over several rounds so that no round writes a bucket twice.
ZKGPU_IFMA_INLINE void merge_heads(LaneHeads& ls, IfmaScratch& sc) {
  int64_t head_off[LANES];
  for (int l = 0; l < LANES; ++l) head_off[l] = static_cast<int64_t>(l) * WORDS52 * 8;
  for (;;) {
    __mmask8 take = 0;
    int64_t off[LANES];
    for (int l = 0; l < LANES; ++l) {
      off[l] = 0;
      if (ls.head_bucket[l] < 0) continue;
      bool dup = false;
      for (int l2 = 0; l2 < l; ++l2) dup |= ((take >> l2) & 1) && ls.head_bucket[l2] == ls.head_bucket[l];
      if (dup) continue;
      take |= static_cast<__mmask8>(1u << l);
      off[l] = static_cast<int64_t>(static_cast<size_t>(ls.head_bucket[l]) * WORDS52 * 8);
    }
    if (!take) break;
    Te8 b = load_records(sc.out52.data(), off), h = load_records(&ls.head[0][0], head_off);
    ifma::te_add(b, h);
    store_records(b, take, sc.out52.data(), off);
    for (int l = 0; l < LANES; ++l)
      if ((take >> l) & 1) ls.head_bucket[l] = -1;
  }
}

// The cold ends of a task (the scalar additions after the lanes) are kept out of accumulate_ifma:
// inlined there, they changed the register allocation of its hot loops (3-4 % slower sums and
// reduction on one Zen 5 thread).
#define ZKGPU_IFMA_COLD ZKGPU_IFMA_TARGET __attribute__((noinline))

// Tiny windows (S < 8): every bucket converted, reduced on the scalar path.
ZKGPU_IFMA_COLD void reduce_converted(const IfmaScratch& sc, size_t S, TeExtended* bucket, TeExtended& acc_out,
                                      TeExtended& run_out) {
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
}

// A = sum_l acc_l + q * sum_l l * run_l and S_r = sum_l run_l from the lanes' records (rec[l] the
// acc_l of lane l, rec[LANES + l] its run_l), the second sum by suffix sums (q a power of two).
ZKGPU_IFMA_COLD void combine_lanes(const uint64_t (*rec)[WORDS52], size_t q, TeExtended& acc_out, TeExtended& run_out) {
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
}

// Running sums on eight lanes: lane l takes buckets [l q, (l + 1) q), q = S / 8, and returns
// acc_l = sum_j (j - l q + 1) B_j and run_l = sum_j B_j (combined by combine_lanes).
ZKGPU_IFMA_INLINE void reduce_lanes(const IfmaScratch& sc, size_t S, TeExtended& acc_out, TeExtended& run_out) {
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
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
  combine_lanes(rec, q, acc_out, run_out);
}

}  // namespace

ZKGPU_IFMA_TARGET void accumulate_ifma(const TePrecomputed* points, const uint32_t* e, const uint16_t* eb, size_t m,
                                       size_t S, IfmaScratch& sc, TeExtended* bucket, TeExtended& acc_out,
                                       TeExtended& run_out, PhaseClock& clk) {
  int64_t t0 = clk.start();
  sort_entries(e, eb, m, S, sc);
  t0 = clk.lap(SORT, t0);
  size_t lo[LANES], hi[LANES];
  LaneHeads heads;
  Te8 acc;
  const size_t steps = start_lanes(lo, hi, heads, sc, m, acc);
  sum_lanes(points, sc, lo, hi, steps, heads, acc);
  merge_heads(heads, sc);
  t0 = clk.lap(SUMS, t0);
  if (S % LANES != 0)
    reduce_converted(sc, S, bucket, acc_out, run_out);
  else
    reduce_lanes(sc, S, acc_out, run_out);
  clk.lap(REDUCE, t0);
}

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

}  // namespace zkgpu::bls12_377::cpu
#endif
