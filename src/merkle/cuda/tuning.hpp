// Tuning hooks of the CUDA hash kernels, plain C++ so benchmarks can pick the permutation code form
// and the Merkle build structure and compare them in one device run. Not part of the library's API.
#pragma once
#include <cstddef>

namespace zkgpu::cuda {

// 1: fully unrolled standard-diag permutation (default), 2: round loops kept rolled, 0: the core
// generic permutation (multiplies by p.diag). Applies to later calls with standard-diag params;
// throws Error(InvalidArgument) for other values. Not thread-safe with concurrent hash calls.
// Kind 0 also forces the generic permutation into every Merkle variant.
void set_poseidon2_kernel_kind(int kind);
int poseidon2_kernel_kind();

// How merkle_build_device builds the tree (every variant writes the same nodes):
//  0 fused:      a block hashes 256 rows and compresses 3 levels in shared memory; the permutation
//                form is poseidon2_kernel_kind()'s.
//  1 layered:    one launch per level, one node per thread (unrolled permutation); the levels of
//                <= 128 nodes in one single-block launch (rolled permutation).
//  2 layered, rolled permutation everywhere.
//  3 layered, unrolled permutation everywhere (tail too).
//  4 subtree-1:  each thread computes 2 base nodes and their parent (unrolled; tail rolled).
//  5 subtree-2:  each thread computes 4 base nodes and the 3 nodes above them (unrolled; tail rolled).
//  6 subtree-2, rolled permutation everywhere.
// Variants 1-6 run one permutation call site per kernel (instruction-cache footprint of one
// permutation). Throws Error(InvalidArgument) outside [0, merkle_variant_count()).
// Not thread-safe with concurrent hash calls.
void set_merkle_variant(int variant);
int merkle_variant();
int merkle_variant_count();
const char* merkle_variant_name(int variant);

// Subtree variants compute h > 1 levels per thread only while a launch keeps at least this many
// threads (default 2^17, about an H200's resident-thread capacity for these kernels); tests set 1
// to drive every subtree height through small trees. Throws Error(InvalidArgument) for 0.
void set_merkle_subtree_min_threads(size_t threads);
size_t merkle_subtree_min_threads();

}  // namespace zkgpu::cuda
