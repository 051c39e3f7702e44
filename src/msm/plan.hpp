// The GPU MSM's plan (docs/msm.md) as plain C++: the window sizes, the slices of inputs from host
// memory, the chunks of the bucket sums, the shape of the window reduction and the workspace the
// MSM needs. src/msm/cuda/ runs what these functions choose; nothing here touches the device (the
// one device fact the chunk sizes depend on, how many threads of the level-0 bucket-sum kernel the
// GPU holds at once, is an argument), so the CPU tests check every choice.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "msm/cuda/api.hpp"

namespace zkgpu::bls12_377::gpu_plan {

// Entries summed by one thread of the bucket sums (fewer when that leaves the GPU idle). Longer
// chunks leave fewer partial sums for the next level: about two per chunk when buckets span several
// chunks.
inline constexpr uint32_t MAX_CHUNK = 64;
// Bucket reduction: parts of at most this many buckets, each a chain of about that many additions
// per lane (bucket_lanes_kernel), then folds of up to FOLD_PAIRS pairs per block until at most
// MsmGpuOptions::host_fold_pairs pairs are left in all.
inline constexpr uint32_t MAX_REDUCE_LEN = 256;
inline constexpr unsigned FOLD_PAIRS = 128;
// Parts per block of bucket_lanes_kernel: its fold groups hold at most this many parts.
inline constexpr unsigned LANE_PARTS = 32;
// The largest window of a window table: c <= 23 keeps the sorted keys at 23 bits (three radix passes).
inline constexpr unsigned TABLE_MAX_WINDOW = 23;

// The window for n points with per-window buckets (c = 0 asked for).
unsigned default_window_bits(size_t n);
// The window of n bases' window table (one shared bucket set).
unsigned table_window_bits(size_t n);

// A slice of the points: [first, first + count); its entries are keys/vals[k][W*first, W*(first + count)).
struct Slice {
  uint32_t first, count;
  bool operator==(const Slice&) const = default;
};
// Slices of n points: the first n/div points (at least min_first), each later one `ratio` times all
// points before it, no sliver below min_first/2 at the end; div = 1 gives one slice. min_first >= 1.
std::vector<Slice> plan_slices(uint32_t n, uint32_t min_first, unsigned div, unsigned ratio);
// Div and ratio with resident bases, then with bases from host (why: plan.cpp).
struct SliceRatios {
  unsigned div_resident = 11, ratio_resident = 3, div_from_host = 8, ratio_from_host = 2;
};
// The staging chunk of a slice's scalars: a quarter of the slice, 1 to 32 MiB.
size_t scalar_chunk_bytes(size_t slice_bytes);

// Entries per chunk for L sorted entries when the GPU holds `resident` threads of the level-0 sums
// at once: even, 4..MAX_CHUNK, the chunks filling whole waves of resident threads.
uint32_t chunk_entries(size_t L, size_t resident);
size_t chunks_for(size_t L, size_t resident);
// The most chunks any L <= entries gives (and so any later level: at most 2 * chunks entries).
size_t chunk_capacity(size_t entries, size_t resident);

// Buckets per part in the reduction's first stage: up to MAX_REDUCE_LEN while that leaves at least
// target_parts parts (a power of two dividing the buckets of a window).
uint32_t reduce_len(size_t nbuckets, uint32_t buckets_per_window, size_t target_parts);
// Pairs per window the GPU folds leave for the host: a power of two, at most `total` in all (one per
// window when the windows alone reach that), at most `per_window`.
uint32_t host_fold_pairs(unsigned windows, uint32_t per_window, uint32_t total);

// Where the inputs of one MSM are: both on the device; resident (or device) bases with scalars in
// host memory; SW bases and scalars in host memory.
enum class Inputs { Device, HostScalars, FromHost };

struct MsmPlan {
  bool shared = false;  // the bases are a window table: one bucket set for all windows
  unsigned c = 0, windows = 0, bucket_sets = 0;
  uint32_t buckets_per_window = 0, sentinel = 0;  // sentinel: the key of zero digits, sorted last
  int end_bit = 0;                                // the keys' bits the radix sort looks at
  size_t entries = 0;                             // windows * n (key, value) pairs
  std::vector<Slice> slices;
  uint32_t max_slice = 0;  // the largest slice's point count
  size_t buckets = 0, max_chunks = 0, max_parts = 0;
  // Reduction: parts of reduce_len buckets, parts_per_window per window, folded in groups of
  // `group` by the lanes kernel into lane_pairs pairs; then one GPU fold level per fold_groups entry
  // (pairs per block), leaving host_pairs pairs, host_pairs_per_window per window, for the host.
  uint32_t reduce_len = 0, parts = 0, parts_per_window = 0, group = 0;
  size_t lane_pairs = 0;
  std::vector<uint32_t> fold_groups;
  size_t host_pairs = 0;
  uint32_t host_pairs_per_window = 0;
  // Device bytes of the workspace buffers this MSM needs (the bases from host come on top).
  size_t workspace_bytes = 0;
};

// The element counts prepare_workspace grows the workspace's buffers to for one MSM of n points
// (scalars and bases 0 when this MSM does not use them; every other buffer at least 1), and their
// bytes: what the call's device-memory budget must hold. temp: the bytes of the sorts' and scans'
// temporary storage (CUB's answer, asked on the device side).
struct WorkspaceSizes {
  size_t entries = 0;     // keys[k], vals[k]
  size_t max_parts = 0;   // part_keys[k], sums[k]
  size_t pairs = 0;       // parts[k]
  size_t max_chunks = 0;  // pos
  size_t counters = 2;
  size_t buckets = 0;
  size_t scalars = 0;  // inputs from host memory
  size_t bases = 0;    // sw_points and points, bases from host memory
  size_t temp = 0;
  size_t bytes() const;
};
WorkspaceSizes workspace_sizes(const MsmPlan& plan, Inputs inputs, uint32_t n, size_t temp_bytes);

// The plan of one MSM of n >= 1 points with window c (nonzero). table_windows: the windows of the
// window table the bases are (0: plain bases). Throws Error(InvalidArgument) when the table was
// built for another window, when the entries overflow 32-bit indices, or for options out of range.
MsmPlan plan_msm(uint32_t n, unsigned c, unsigned table_windows, Inputs inputs, const cuda::MsmGpuOptions& opt,
                 size_t resident);

// Error(InvalidArgument) for options out of range (min_slice 0, table_window outside 0, 2..23).
void check_options(const cuda::MsmGpuOptions& opt);

}  // namespace zkgpu::bls12_377::gpu_plan
