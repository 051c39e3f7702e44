// The messages of an ML-DSA sign or verify chunk on the device, so that mu is computed there:
// per item a MsgMeta, and a blob holding each item's context and message back to back (or its
// external mu). Host packing helpers and the device-side mu.
#pragma once
#include <cstring>
#include <span>

#include "zkgpu/core/mldsa/dsa.hpp"

namespace zkgpu::cuda::mldsa_msg {

struct MsgMeta {
  uint64_t off;  // of the item's bytes in the blob
  uint32_t msg_len;
  uint8_t ctx_len;
  uint8_t external_mu;  // the 64 bytes at off are mu itself
  uint16_t pad;
};
static_assert(sizeof(MsgMeta) == 16);

template <class Item>
size_t blob_bytes(const Item& it) {
  return it.external_mu ? 64 : it.ctx.size() + it.msg.size();
}

// meta[j] for items[index[j]], j < n: the offsets are a prefix sum (serial, and cheap).
template <class Item>
void set_meta(MsgMeta* meta, std::span<const Item> items, const uint32_t* index, size_t n) {
  uint64_t pos = 0;
  for (size_t j = 0; j < n; ++j) {
    const Item& it = items[index[j]];
    meta[j] = {pos, uint32_t(it.external_mu ? 64 : it.msg.size()), uint8_t(it.external_mu ? 0 : it.ctx.size()),
               uint8_t(it.external_mu ? 1 : 0), 0};
    pos += blob_bytes(it);
  }
}

// Copies one item's bytes to its place in the blob.
template <class Item>
void copy_message(uint8_t* blob, const MsgMeta& m, const Item& it) {
  uint8_t* b = blob + m.off;
  if (it.external_mu) {
    std::memcpy(b, it.msg.data(), 64);
    return;
  }
  if (!it.ctx.empty()) std::memcpy(b, it.ctx.data(), it.ctx.size());
  if (!it.msg.empty()) std::memcpy(b + it.ctx.size(), it.msg.data(), it.msg.size());
}

#if defined(__CUDACC__)
// mu = H(tr || 0 || |ctx| || ctx || M) (mldsa::compute_mu), or the external mu.
__device__ inline void item_mu(uint8_t mu[64], const uint8_t tr[64], const MsgMeta& m, const uint8_t* blob) {
  const uint8_t* b = blob + m.off;
  if (m.external_mu) {
    for (int k = 0; k < 64; ++k) mu[k] = b[k];
    return;
  }
  mldsa::compute_mu(mu, tr, b, m.ctx_len, b + m.ctx_len, m.msg_len);
}
#endif

}  // namespace zkgpu::cuda::mldsa_msg
