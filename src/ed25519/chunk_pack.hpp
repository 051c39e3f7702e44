// How the CUDA backend lays a chunk of items out in its pinned staging, one contiguous upload:
// n keys (32 bytes each), n signatures (64), n + 1 message offsets (u64, from 0), the message
// bytes. Host code with OpenMP, apart from cuda/ so it is compiled as such (nvcc gets no
// -fopenmp for this concept's .cu file) and so the CPU tests can check the bytes without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ed25519/item_source.hpp"

namespace zkgpu::ed25519 {

struct ChunkLayout {
  size_t n = 0, msg_bytes = 0;
  size_t pk() const { return 0; }
  size_t sig() const { return 32 * n; }
  size_t offsets() const { return 96 * n; }  // 8-byte aligned: 96 n is a multiple of 8
  size_t msgs() const { return 104 * n + 8; }
  size_t bytes() const { return msgs() + msg_bytes; }
  // The layout of the n items of `items` (msg_bytes: their messages' bytes).
  template <class Src>
  static ChunkLayout of(const Src& items) {
    ChunkLayout lay{items.size(), 0};
    for (size_t i = 0; i < items.size(); ++i) lay.msg_bytes += items.message_size(i);
    return lay;
  }
};

// Writes the items into dst in the layout `lay` (lay.n == items.size(), lay.msg_bytes their
// message bytes). A malformed item (the C ABI's wrong lengths) gets a zero key and signature and
// an empty message; its verdict is the caller's to override. Packed input is a few parallel
// memcpys and the offsets shifted to start at 0; the pointer and span sources are copied item by item.
void pack_chunk(uint8_t* dst, const SpanItems& items, const ChunkLayout& lay);
void pack_chunk(uint8_t* dst, const PackedItems& items, const ChunkLayout& lay);
void pack_chunk(uint8_t* dst, const PointerItems& items, const ChunkLayout& lay);
// The offsets shifted to 0, then the callback for the rest.
void pack_chunk(uint8_t* dst, const FilledItems& items, const ChunkLayout& lay);

}  // namespace zkgpu::ed25519
