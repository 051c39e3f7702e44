// Host-facing entry points of the ML-KEM / ML-DSA CUDA kernels (src/pq/cuda/*.cu), plain C++ so
// the batch front ends can call them; declared for every build, defined only with ZKGPU_HAVE_CUDA.
// Pointers are host memory with items packed back to back, as in the public batch API, except in
// the *_device calls at the end. The kernels run the same include/zkgpu/core steps as the CPU
// backend (docs/pq-gpu.md), most calls in chunks that overlap transfers and kernels; results are
// byte-identical to the CPU. Errors throw zkgpu::Error. PqGpuOptions carries the PqBatchOptions that reach the device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "zkgpu/mldsa.hpp"
#include "zkgpu/profile.hpp"

namespace zkgpu::cuda {

struct PqGpuOptions {
  PhaseTimes* phases = nullptr;  // the phases of every chunk (PqBatchOptions::phase_times)
  // Device bytes the call may hold (PqBatchOptions::gpu_memory_budget): chunks shrink so that the
  // chunks in flight fit; 0: no budget.
  uint64_t memory_budget = 0;
};

// k = 2, 3, 4 (ML-KEM-512/768/1024). ok[i] = 1 for an accepted item, 0 for a rejected one.
void mlkem_keygen(int k, size_t n, const uint8_t* seeds, uint8_t* ek, uint8_t* dk, const PqGpuOptions& options = {});
void mlkem_encaps(int k, size_t n, const uint8_t* ek, const uint8_t* m, uint8_t* c, uint8_t* key, uint8_t* ok,
                  const PqGpuOptions& options = {});
void mlkem_decaps(int k, size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* key, uint8_t* ok,
                  const PqGpuOptions& options = {});
// level = 44, 65, 87. mu: 64 bytes per item (computed on the host from tr, ctx and the message).
void mldsa_keygen(int level, size_t n, const uint8_t* seeds, uint8_t* pk, uint8_t* sk,
                  const PqGpuOptions& options = {});

struct MlDsaSignGpuOptions {
  // The persistent kernel runs as many blocks as are resident at once, at most this many when it
  // is nonzero (the GPU tests pass a few, so that each warp signs several items in turn at small
  // sizes).
  unsigned max_blocks = 0;
  PhaseTimes* phases = nullptr;
  MlDsaSignProfile* profile = nullptr;  // the warps' cycle counters, added up over the chunks
  uint64_t memory_budget = 0;           // as in PqGpuOptions
};
// Signs the items i with ok[i] == 1 (lengths and context size already checked by the caller) into
// sigs + i * SIG_BYTES and sets ok[i] (0: malformed expanded key or the kappa limit); items with
// ok[i] == 0 are left alone. mu is computed on the device; an empty rnd means deterministic.
void mldsa_sign_items(int level, std::span<const MlDsaSignItem> items, uint8_t* sigs, uint8_t* ok,
                      const MlDsaSignGpuOptions& options = {});
// Verifies the items i with ok[i] == 1 (lengths and context size already checked by the caller) and
// sets ok[i] to the result; items with ok[i] == 0 are left alone. tr and mu are computed on the
// device (or the external mu is used), in chunks that overlap packing, transfers and kernels.
void mldsa_verify_items(int level, std::span<const MlDsaVerifyItem> items, uint8_t* ok,
                        const PqGpuOptions& options = {});

// The device-pointer calls (zkgpu/mlkem.hpp, mldsa.hpp *_device): the same kernels on the caller's
// device buffers (checked by the front end), enqueued on `stream` (a cudaStream_t) in chunks that
// reuse one stream-ordered scratch buffer (pq/cuda/pq_device.cuh). Statuses are PqStatus bytes.
void mlkem_keygen_device(int k, size_t n, const uint8_t* seeds, uint8_t* ek, uint8_t* dk, void* stream,
                         const PqGpuOptions& options);
void mlkem_encaps_device(int k, size_t n, const uint8_t* ek, const uint8_t* m, uint8_t* c, uint8_t* key,
                         uint8_t* status, void* stream, const PqGpuOptions& options);
// m drawn on the host (fill_random) and copied to a stream-ordered buffer first.
void mlkem_encaps_random_device(int k, size_t n, const uint8_t* ek, uint8_t* c, uint8_t* key, uint8_t* status,
                                void* stream, const PqGpuOptions& options);
void mlkem_decaps_device(int k, size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* key, uint8_t* status,
                         void* stream, const PqGpuOptions& options);
void mldsa_keygen_device(int level, size_t n, const uint8_t* seeds, uint8_t* pk, uint8_t* sk, void* stream,
                         const PqGpuOptions& options);
void mldsa_sign_device(int level, const MlDsaPackedSignBatch& batch, uint8_t* sigs, uint8_t* status, void* stream,
                       const PqGpuOptions& options);
void mldsa_verify_device(int level, const MlDsaPackedVerifyBatch& batch, uint8_t* verdicts, void* stream,
                         const PqGpuOptions& options);

}  // namespace zkgpu::cuda
