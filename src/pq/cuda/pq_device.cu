// The two small kernels of the ML-KEM / ML-DSA device-pointer calls that the host calls do on the
// host instead: ok bytes to PqStatus values with rejected outputs zeroed (pq_device.cuh), and the
// MsgMeta of an ML-DSA chunk from the caller's offsets, each item's ranges checked (mldsa_msg.cuh).
#include <cstdint>

#include "pq/cuda/mldsa_msg.cuh"
#include "pq/cuda/pq_device.cuh"
#include "zkgpu/pq.hpp"

namespace zkgpu::cuda {

namespace {

using pq_launch::blocks_for;
using pq_launch::PQ_THREADS;
static_assert(uint8_t(PqStatus::Ok) == 0 && uint8_t(PqStatus::InvalidInput) == 1);
constexpr uint64_t MAX_CTX = MlDsaSizes::max_ctx;

__global__ void finish_statuses_kernel(size_t n, uint8_t* status, pq_device::RejectedOutput a,
                                       pq_device::RejectedOutput b) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (status[i] == 1) {  // the kernels' ok byte: accepted
    status[i] = uint8_t(PqStatus::Ok);
    return;
  }
  status[i] = uint8_t(PqStatus::InvalidInput);  // whether an item is rejected is public (the host calls say so too)
  for (size_t k = 0; k < a.bytes; ++k) a.base[i * a.bytes + k] = 0;
  for (size_t k = 0; k < b.bytes; ++k) b.base[i * b.bytes + k] = 0;
}

// The parts of MlDsaPackedMessages device_meta_kernel reads.
struct OffsetsView {
  const uint64_t* msg_off;
  uint64_t msg_bytes;
  const uint64_t* ctx_off;  // null: every context empty
  uint64_t ctx_bytes;
  bool external_mu;
};

// Whether [off[i], off[i + 1]) lies in [0, bytes) and holds at most max_len bytes; its start and
// length when it does.
__device__ bool item_range(const uint64_t* off, size_t i, uint64_t bytes, uint64_t max_len, uint64_t& start,
                           uint64_t& len) {
  start = off[i];
  const uint64_t end = off[i + 1];
  len = end - start;
  return start <= end && end <= bytes && len <= max_len;
}

__global__ void device_meta_kernel(size_t first, size_t m, OffsetsView v, mldsa_msg::MsgMeta* meta, uint8_t* valid) {
  const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= m) return;
  const size_t i = first + j;
  uint64_t msg_off = 0, msg_len = 0, ctx_off = 0, ctx_len = 0;
  bool ok = item_range(v.msg_off, i, v.msg_bytes, UINT32_MAX, msg_off, msg_len);
  if (v.external_mu)
    ok = ok && msg_len == 64;
  else if (v.ctx_off)
    ok = ok && item_range(v.ctx_off, i, v.ctx_bytes, MAX_CTX, ctx_off, ctx_len);
  meta[j] = ok ? mldsa_msg::MsgMeta{msg_off, ctx_off, uint32_t(msg_len), uint8_t(ctx_len), v.external_mu, 0}
               : mldsa_msg::MsgMeta{};
  valid[j] = ok ? 1 : 0;
}

}  // namespace

void pq_device::finish_statuses(cudaStream_t st, size_t n, uint8_t* status, RejectedOutput a, RejectedOutput b) {
  if (n == 0) return;
  finish_statuses_kernel<<<blocks_for(n), PQ_THREADS, 0, st>>>(n, status, a, b);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

void mldsa_msg::device_meta(cudaStream_t st, size_t first, size_t m, const MlDsaPackedMessages& batch, MsgMeta* meta,
                            uint8_t* valid) {
  if (m == 0) return;
  const bool ctx = !batch.external_mu && !batch.context_offsets.empty();
  const OffsetsView v{batch.message_offsets.data(), batch.messages.size(), ctx ? batch.context_offsets.data() : nullptr,
                      batch.contexts.size(), batch.external_mu};
  device_meta_kernel<<<blocks_for(m), PQ_THREADS, 0, st>>>(first, m, v, meta, valid);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

}  // namespace zkgpu::cuda
