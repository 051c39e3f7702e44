// The GPU MSM's size choices (plan.hpp), with the measurements behind them.
#include "msm/plan.hpp"

#include <algorithm>
#include <string>

#include "msm/signed_digits.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::bls12_377::gpu_plan {

unsigned default_window_bits(size_t n) {
  unsigned lg = 0;
  while ((size_t{1} << lg) < n) ++lg;
  // About n/16 buckets per window, between 2^5 and 2^17 (per-window buckets; measured on the H200 at
  // 2^24: c = 18 127.5 ms, 17 130.5, 20 130.8, 16 137.3; at 2^20: 16 13.6 ms, 13 15.2).
  return std::clamp(lg >= 4 ? lg - 4 : 2u, 6u, 18u);
}

unsigned table_window_bits(size_t n) {
  // With one shared bucket set the cost is about n*W additions into buckets plus 2.5 per bucket
  // (identity fill, running sums).
  unsigned best = 8;
  double best_cost = 1e300;
  for (unsigned c = 8; c <= TABLE_MAX_WINDOW; ++c) {
    const double cost = static_cast<double>(n) * msm_window_count_half(c) + 2.5 * static_cast<double>(1u << (c - 1));
    if (cost < best_cost) best_cost = cost, best = c;
  }
  return best;
}

// Scalars (and bases) from host memory are processed in slices, so that the upload of one slice
// overlaps the sort and bucket sums of the slices before it: only the first slice's upload is
// exposed. Later slices add onto the buckets in place (their level-0 runs start from the sums so
// far; before, they summed into a second bucket set, merged after their levels by one unified
// addition per bucket, 3.7 ms at 2^22 buckets on the H200, or for the last slice by a third lane
// of the reduction).
// The first slice is n/div points (at least min_first); each later one is `ratio` times all
// points before it. The bucket sums of a slice must outlast the upload of the next, or the GPU
// waits for the host (H200, 2^24, slices 1/8 and 7/8: 8.5 ms of sums against 13 ms of upload, the
// difference idle): resident bases 1/11, 3/11, 7/11 (ratio 3; session 5's faster sums made the
// first slice of 1/5, about 10.5 ms of sums at 2^24, shorter than the 4/5 upload on slower hosts:
// H200 A/B, two alternating rounds, 2^24: 1/5 + 4/5 66.7 and 77.0 ms, 1/11 ratio 3 65.4 and 66.2,
// 1/16 ratio 2 65.6 and 66.0; 2^20: 7.01 and 7.74, 7.17 and 7.08, 7.26 and 7.25), and no slices
// below 2^20 points, where the
// second slice's launches and bucket set cost about what the upload they hide does (2^20 with a
// separate merge pass: 9.9 ms either way). Bases from host (upload 44-48 ms against 88 of sums
// plus about 30 of the bases' conversion on the GPU): 1/8, 2/8, 5/8 (ratio 2), one merge fewer
// than 1/8, 1/8, 1/4, 1/2 (H200 run 3: merges 3.3 ms, device 148 ms), each slice's work still
// longer than the next slice's upload.
std::vector<Slice> plan_slices(uint32_t n, uint32_t min_first, unsigned div, unsigned ratio) {
  std::vector<Slice> out;
  uint32_t done = 0;
  uint32_t next = div == 1 ? n : std::max<uint32_t>(n / div, min_first);
  while (done < n) {
    uint32_t count = std::min(next, n - done);
    if (n - done - count < min_first / 2) count = n - done;  // no sliver at the end
    out.push_back({done, count});
    done += count;
    next = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{ratio} * done, n));
  }
  return out;
}

// Scalars go up in chunks, so the host's copy of one chunk into pinned memory overlaps the upload
// of the one before and a slice waits about one chunk's copy beyond its upload: a quarter of the
// slice, 1 to 32 MiB (2^20's first slice, 6.7 MB, was one 32 MiB chunk: copy, then upload, in a
// row, all of it exposed). (H200 run of 2930d61, upload phase at 2^24 resident: 3.7-5.3 ms with
// these chunks, 12.8-20.4 with 32 MiB for every slice; at 2^20 too noisy on that host to tell.)
size_t scalar_chunk_bytes(size_t slice_bytes) {
  return std::clamp<size_t>(slice_bytes / 4, size_t{1} << 20, size_t{32} << 20);
}

// At most MAX_CHUNK, at least 4, and such that the chunks fill whole waves of resident threads:
// every thread does the same work, so a last wave a sixth full (2^20 points: 2^18 chunks of 52
// entries made 5.17 waves, with the fixed 2^18 chunks this rule replaced) costs as long as a full
// one.
uint32_t chunk_entries(size_t L, size_t resident) {
  const size_t maxc = MAX_CHUNK;
  const size_t cap = resident;
  const size_t waves = std::max<size_t>(1, (L + maxc * cap - 1) / (maxc * cap));
  const size_t S = std::clamp<size_t>((L + waves * cap - 1) / (waves * cap), 4, maxc);
  // Even: a later level's entries are mostly pairs (the tail partial of chunk t, the head partial
  // of chunk t + 1, at offsets 2t + 1, 2t + 2 once chunk 0's missing head shifts them), which even
  // chunks never split, so that level leaves almost nothing for the next.
  return static_cast<uint32_t>(std::min(S + (S & 1), maxc));
}
size_t chunks_for(size_t L, size_t resident) {
  return std::max<size_t>(1, (L + chunk_entries(L, resident) - 1) / chunk_entries(L, resident));
}
// Buffers sized by it fit the first level (L = the nonzero digits) and every later one (at most
// 2 * chunks entries): S >= 4 gives at most L/4 chunks; with W waves of C threads, S >= L/(W*C)
// gives at most W*C <= L/64 + C chunks (C taken as at least 2^18, the bound of the former fixed
// rule).
size_t chunk_capacity(size_t entries, size_t resident) {
  const size_t cap = std::max<size_t>(resident, size_t{1} << 18);
  return std::max<size_t>(1, std::min<size_t>((entries + 3) / 4, (entries + MAX_CHUNK - 1) / MAX_CHUNK + cap));
}

uint32_t reduce_len(size_t nbuckets, uint32_t buckets_per_window, size_t target_parts) {
  uint32_t len = 1;
  while (len < MAX_REDUCE_LEN && 2 * len <= buckets_per_window && nbuckets / (2 * len) >= target_parts) len *= 2;
  return len;
}

uint32_t host_fold_pairs(unsigned windows, uint32_t per_window, uint32_t total) {
  uint32_t p = 1;
  while (2 * p <= per_window && 2 * p * windows <= total) p *= 2;
  return p;
}

void check_options(const cuda::MsmGpuOptions& opt) {
  if (opt.min_slice == 0) throw_invalid("MSM min_slice must be at least 1");
  if (opt.table_window != 0 && (opt.table_window < 2 || opt.table_window > TABLE_MAX_WINDOW))
    throw_invalid("MSM table_window = " + std::to_string(opt.table_window) + " is outside 2.." +
                  std::to_string(TABLE_MAX_WINDOW));
}

namespace {
// The reduction's shape: parts, the lanes kernel's fold groups, the GPU fold levels and what they
// leave for the host.
void plan_reduction(MsmPlan& p, const cuda::MsmGpuOptions& opt) {
  p.reduce_len = reduce_len(p.buckets, p.buckets_per_window, opt.reduce_parts);
  p.parts = static_cast<uint32_t>(p.buckets / p.reduce_len);
  p.parts_per_window = p.buckets_per_window / p.reduce_len;
  p.group = std::min<uint32_t>(LANE_PARTS, p.parts_per_window);
  p.lane_pairs = p.parts / p.group;
  size_t remaining = p.lane_pairs;
  uint32_t per_window = p.parts_per_window / p.group;
  const uint32_t host_pairs = host_fold_pairs(p.bucket_sets, per_window, opt.host_fold_pairs);
  while (per_window > host_pairs) {
    const uint32_t g = std::min<uint32_t>(per_window / host_pairs, FOLD_PAIRS);
    p.fold_groups.push_back(g);
    per_window /= g;
    remaining /= g;
  }
  p.host_pairs = remaining;
  p.host_pairs_per_window = per_window;
}
}  // namespace

MsmPlan plan_msm(uint32_t n, unsigned c, unsigned table_windows, Inputs inputs, const cuda::MsmGpuOptions& opt,
                 size_t resident) {
  check_options(opt);
  MsmPlan p;
  p.shared = table_windows != 0;
  p.c = c;
  p.windows = p.shared ? msm_window_count_half(c) : msm_window_count(c);
  if (p.shared && table_windows != p.windows) throw_invalid("MSM window table built for another window size");
  p.bucket_sets = p.shared ? 1 : p.windows;
  p.buckets_per_window = 1u << (c - 1);
  p.sentinel = p.bucket_sets << (c - 1);
  p.entries = static_cast<size_t>(p.windows) * n;
  if (p.entries >= (size_t{1} << 31)) throw_invalid("MSM too large for 32-bit entry indices; use a wider window");
  p.end_bit = 1;
  while ((uint64_t{1} << p.end_bit) <= p.sentinel) ++p.end_bit;

  const SliceRatios ratios{};
  p.slices = {{0, n}};
  if (inputs == Inputs::FromHost)
    p.slices = plan_slices(n, opt.min_slice, ratios.div_from_host, ratios.ratio_from_host);
  else if (inputs == Inputs::HostScalars && n >= opt.resident_slice_min_n)
    p.slices = plan_slices(n, opt.min_slice, ratios.div_resident, ratios.ratio_resident);
  for (const Slice& sl : p.slices) p.max_slice = std::max(p.max_slice, sl.count);

  p.buckets = size_t{p.bucket_sets} * p.buckets_per_window;
  p.max_chunks = chunk_capacity(p.entries, resident);
  p.max_parts = 2 * p.max_chunks;
  plan_reduction(p, opt);
  // A rough upper bound: keys and values twice, the chunk positions, the partial sums and their keys
  // twice, the buckets and the reduction's pairs twice.
  p.workspace_bytes = p.entries * 4 * 4 + p.max_chunks * 4 + p.max_parts * (2 * sizeof(TeExtended) + 8) +
                      p.buckets * sizeof(TeExtended) + size_t{p.parts} * 6 * sizeof(TeExtended);
  if (inputs != Inputs::Device) p.workspace_bytes += size_t{n} * sizeof(Scalar);
  return p;
}

WorkspaceSizes workspace_sizes(const MsmPlan& plan, Inputs inputs, uint32_t n, size_t temp_bytes) {
  WorkspaceSizes s;
  s.entries = plan.entries;
  s.max_parts = plan.max_parts;
  s.pairs = 3 * size_t{plan.parts};
  s.max_chunks = plan.max_chunks;
  s.buckets = plan.buckets;
  if (inputs != Inputs::Device) s.scalars = n;
  if (inputs == Inputs::FromHost) s.bases = n;
  s.temp = temp_bytes;
  return s;
}

size_t WorkspaceSizes::bytes() const {
  // Every buffer an MSM always uses holds at least one element (ArenaBuffer::ensure).
  auto one = [](size_t count) { return std::max<size_t>(count, 1); };
  return 4 * one(entries) * 4 + 2 * one(max_parts) * (4 + sizeof(TeExtended)) + 2 * one(pairs) * sizeof(TeExtended) +
         one(max_chunks) * 4 + one(counters) * 4 + one(buckets) * sizeof(TeExtended) + one(temp) +
         scalars * sizeof(Scalar) + bases * (sizeof(G1Affine) + sizeof(TePrecomputed)) + 2 * 4;  // + ws.bad
}

}  // namespace zkgpu::bls12_377::gpu_plan
