// The messages of an ML-DSA sign or verify chunk on the device, so that mu is computed there:
// per item a MsgMeta saying where its message (or external mu) and its context lie. The host
// calls pack each item's context and message back to back into one blob (both bases the blob);
// the device calls read the caller's own message and context buffers, the MsgMeta built on the
// device from the caller's offsets (device_meta). Host packing helpers and the device-side mu.
#pragma once
#include <cstring>
#include <span>

#include "zkgpu/core/mldsa/dsa.hpp"
#include "zkgpu/mldsa.hpp"

namespace zkgpu::cuda::mldsa_msg {

struct MsgMeta {
  uint64_t msg_off;  // of the item's message (or external mu) in the message bytes
  uint64_t ctx_off;  // of its context in the context bytes
  uint32_t msg_len;
  uint8_t ctx_len;
  uint8_t external_mu;  // the 64 bytes at msg_off are mu itself
  uint16_t pad;
};
static_assert(sizeof(MsgMeta) == 24);

// What the kernels read an item's message and context through.
struct MsgSource {
  const MsgMeta* meta;  // chunk-local
  const uint8_t* msgs;
  const uint8_t* ctxs;
};

template <class Item>
size_t blob_bytes(const Item& it) {
  return it.external_mu ? 64 : it.ctx.size() + it.msg.size();
}

// meta[j] for items[index[j]], j < n: the context at the item's place in the blob, the message
// after it; the places are a prefix sum (serial, and cheap).
template <class Item>
void set_meta(MsgMeta* meta, std::span<const Item> items, const uint32_t* index, size_t n) {
  uint64_t pos = 0;
  for (size_t j = 0; j < n; ++j) {
    const Item& it = items[index[j]];
    const uint8_t ctx_len = uint8_t(it.external_mu ? 0 : it.ctx.size());
    meta[j] = {
        pos + ctx_len, pos, uint32_t(it.external_mu ? 64 : it.msg.size()), ctx_len, uint8_t(it.external_mu ? 1 : 0), 0};
    pos += blob_bytes(it);
  }
}

// Copies one item's bytes to its place in the blob.
template <class Item>
void copy_message(uint8_t* blob, const MsgMeta& m, const Item& it) {
  if (it.external_mu) {
    std::memcpy(blob + m.msg_off, it.msg.data(), 64);
    return;
  }
  if (!it.ctx.empty()) std::memcpy(blob + m.ctx_off, it.ctx.data(), it.ctx.size());
  if (!it.msg.empty()) std::memcpy(blob + m.msg_off, it.msg.data(), it.msg.size());
}

#if defined(__CUDACC__)
// Device calls: meta[j] and valid[j] for the items first + j, j < m, of `batch` (device memory)
// on st. An item is valid when its message range lies inside the messages and does not run
// backwards (at most 2^32 - 1 bytes), and so does its context (at most 255 bytes); with external
// mu its message must be 64 bytes. An invalid item gets valid[j] = 0, which the kernels check
// before they read its bytes, and an empty MsgMeta.
void device_meta(cudaStream_t st, size_t first, size_t m, const MlDsaPackedMessages& batch, MsgMeta* meta,
                 uint8_t* valid);

// mu = H(tr || 0 || |ctx| || ctx || M) (mldsa::compute_mu), or the external mu.
__device__ inline void item_mu(uint8_t mu[64], const uint8_t tr[64], const MsgMeta& m, const MsgSource& src) {
  const uint8_t* msg = src.msgs + m.msg_off;
  if (m.external_mu) {
    for (int k = 0; k < 64; ++k) mu[k] = msg[k];
    return;
  }
  mldsa::compute_mu(mu, tr, src.ctxs + m.ctx_off, m.ctx_len, msg, m.msg_len);
}
#endif

}  // namespace zkgpu::cuda::mldsa_msg
