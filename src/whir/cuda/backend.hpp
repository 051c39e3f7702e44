// The GPU backend of the WHIR prover (plain C++ declarations; implemented in backend.cu, built only
// when ZKGPU_HAVE_CUDA). The witness is uploaded once; the tables, codewords and Merkle trees stay
// on the device in one process-wide workspace whose buffers grow and are reused across calls.
//
// Set ZKGPU_WHIR_PROFILE=1 to print a per-stage wall-time breakdown of each prove to stderr (it
// synchronises after every stage, so the total is a little slower than an unprofiled run).
#pragma once
#include <cstddef>
#include <memory>
#include <span>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"
#include "whir/prover_backend.hpp"

namespace zkgpu::whir::cuda {

// Device bytes a prove of this shape needs in all (the check made before anything is allocated).
size_t memory_need(const detail::ProverShape& shape);

// Takes the workspace (one prove at a time per process: a second caller waits), checks free device
// memory (Error(OutOfMemory) naming the need) and uploads the witness.
// p2: the Merkle hash's Poseidon2-16 parameters (detail::whir_poseidon2()).
std::unique_ptr<detail::ProverBackend> make_backend(std::span<const BabyBear> evals, const detail::ProverShape& shape,
                                                    const Poseidon2Params<16>& p2);

// Frees the workspace's device and pinned memory (the next prove allocates again).
void release_workspace();
// Tests: fill every workspace buffer with 0xff words (not field elements) before each prove, so a
// read of anything not written by that prove shows up as a different proof.
void set_workspace_poison(bool on);

}  // namespace zkgpu::whir::cuda
