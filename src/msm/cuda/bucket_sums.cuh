// Bucket sums over the sorted entries of one slice, in fixed chunks per thread, level by level
// until no partial sums are left (docs/msm.md), and the identity fill of the bucket sets.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "msm/cuda/workspace.cuh"
#include "runtime/cuda/phase_profiler.cuh"

namespace zkgpu::bls12_377::cuda {

// Threads of the level-0 sums kernel the GPU holds at once (3 blocks of 128 per SM: 50688 on an H200).
size_t resident_sum_threads();

// n identity points at p, on `stream`.
void fill_identity(TeExtended* p, size_t n, cudaStream_t stream);

// One slice's sorted entries: `valid` (> 0) keys below the sentinel with their values (signed
// indices into `bases`), and a spare buffer of at least as many words for the per-chunk counts.
struct SortedEntries {
  const uint32_t* keys;
  const uint32_t* vals;
  uint32_t valid;
  uint32_t* counts;
};

// Adds the slice's entries into ws.buckets on `stream`: level 0 over the entries (each run starting
// from the buckets' values so far when `onto_buckets`, the slices after the first), then the levels
// of partial sums, waiting on the host for each level's size. Marks "sums0" and "sums1+".
void sum_buckets(Workspace& ws, const SortedEntries& in, const TePrecomputed* bases, bool onto_buckets,
                 ::zkgpu::cuda::PhaseProfiler& phases, cudaStream_t stream);

}  // namespace zkgpu::bls12_377::cuda
