// The GPU backend of the WHIR prover (plain C++ declarations; implemented in backend.cu, built only
// when ZKGPU_HAVE_CUDA). The witness is uploaded once; the tables, codewords and Merkle trees stay
// on the device in a workspace per device (the host layer's context) whose buffers grow and are
// reused across calls.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/poseidon2/poseidon2.hpp"
#include "whir/prover_backend.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::whir::cuda {

// Device bytes a prove of this shape needs in all (the check made before anything is allocated).
size_t memory_need(const detail::ProverShape& shape);

// What one prove on this backend may ask for besides the witness.
struct BackendOptions {
  // Each stage call's device time, in order (ProveOptions::phase_times), written when the backend
  // is destroyed after a prove that did not throw.
  PhaseTimes* phase_times = nullptr;
  // Tests: fill every workspace buffer with 0xff words (not field elements) before the prove, so a
  // read of anything not written by that prove shows up as a different proof.
  bool workspace_poison = false;
  // Device bytes the prove may hold (ProveOptions::gpu_memory_budget): a prove that needs more is
  // Error(OutOfMemory) before anything is allocated (WHIR has no smaller pieces to run). 0: none.
  uint64_t memory_budget = 0;
};

// Takes the current device's workspace (one prove at a time per device: a second caller waits),
// checks the budget and free device memory (Error(OutOfMemory) naming the need) and uploads the
// witness.
// p2: the Merkle hash's Poseidon2-16 parameters (detail::whir_poseidon2()).
std::unique_ptr<detail::ProverBackend> make_backend(std::span<const BabyBear> evals, const detail::ProverShape& shape,
                                                    const Poseidon2Params<16>& p2, const BackendOptions& options = {});

// Frees the workspace's device and pinned memory (the next prove allocates again).
void release_workspace();

}  // namespace zkgpu::whir::cuda
