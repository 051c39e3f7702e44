// The chunk pack of the CUDA backend (chunk_pack.hpp), on OpenMP threads.
#include "ed25519/chunk_pack.hpp"

#include <algorithm>
#include <cstring>

namespace zkgpu::ed25519 {
namespace {

// Below this many items one thread copies: a parallel region costs a few microseconds, about
// what 256 items take.
constexpr int64_t PARALLEL_ITEMS = 512;
// Packed input is copied in slices of this many bytes over the threads (a batch of 4096 items,
// 640 KiB, spreads over 20 of them).
constexpr size_t SLICE = size_t{32} << 10;

template <class Src>
void pack_each(uint8_t* dst, const Src& items, const ChunkLayout& lay) {
  const size_t n = items.size();
  auto* off = reinterpret_cast<uint64_t*>(dst + lay.offsets());
  uint64_t pos = 0;
  for (size_t i = 0; i < n; ++i) {
    off[i] = pos;
    pos += items.message_size(i);
  }
  off[n] = pos;
  const auto m = static_cast<int64_t>(n);
#pragma omp parallel for schedule(static) if (m >= PARALLEL_ITEMS)
  for (int64_t k = 0; k < m; ++k) {
    const auto i = static_cast<size_t>(k);
    uint8_t* pk = dst + lay.pk() + 32 * i;
    uint8_t* sig = dst + lay.sig() + 64 * i;
    if (!items.well_formed(i)) {
      std::memset(pk, 0, 32);
      std::memset(sig, 0, 64);
      continue;
    }
    std::memcpy(pk, items.public_key(i), 32);
    std::memcpy(sig, items.signature(i), 64);
    const std::span<const uint8_t> msg = items.message(i);
    if (!msg.empty()) std::memcpy(dst + lay.msgs() + off[i], msg.data(), msg.size());
  }
}

}  // namespace

void pack_chunk(uint8_t* dst, const SpanItems& items, const ChunkLayout& lay) { pack_each(dst, items, lay); }
void pack_chunk(uint8_t* dst, const PointerItems& items, const ChunkLayout& lay) { pack_each(dst, items, lay); }

void pack_chunk(uint8_t* dst, const FilledItems& items, const ChunkLayout& lay) {
  const size_t n = items.size();
  auto* off = reinterpret_cast<uint64_t*>(dst + lay.offsets());
  const uint64_t base = items.offsets[0];
  for (size_t i = 0; i <= n; ++i) off[i] = items.offsets[i] - base;
  fill_items(items, dst + lay.pk(), dst + lay.sig(), dst + lay.msgs());
}

void pack_chunk(uint8_t* dst, const PackedItems& items, const ChunkLayout& lay) {
  const size_t n = items.size();
  const uint64_t base = items.offsets[0];
  struct Piece {
    uint8_t* dst;
    const uint8_t* src;
    size_t bytes;
  };
  // Keys, signatures and messages as one sequence of bytes cut into slices.
  const Piece pieces[3] = {{dst + lay.pk(), items.public_keys, 32 * n},
                           {dst + lay.sig(), items.signatures, 64 * n},
                           {dst + lay.msgs(), items.messages + base, lay.msg_bytes}};
  const size_t total = 96 * n + lay.msg_bytes;
  const auto slices = static_cast<int64_t>((total + SLICE - 1) / SLICE);
  auto* off = reinterpret_cast<uint64_t*>(dst + lay.offsets());
  const auto m = static_cast<int64_t>(n) + 1;
#pragma omp parallel if (slices >= 4)
  {
#pragma omp for schedule(static) nowait
    for (int64_t s = 0; s < slices; ++s) {
      const size_t lo = static_cast<size_t>(s) * SLICE, hi = std::min(total, lo + SLICE);
      size_t start = 0;  // of the piece in the sequence
      for (const Piece& p : pieces) {
        const size_t b = std::max(lo, start), e = std::min(hi, start + p.bytes);
        if (b < e) std::memcpy(p.dst + (b - start), p.src + (b - start), e - b);
        start += p.bytes;
      }
    }
#pragma omp for schedule(static)
    for (int64_t i = 0; i < m; ++i) off[i] = items.offsets[i] - base;
  }
}

}  // namespace zkgpu::ed25519
