// The one view of a batch that both backends read (cpu::verify_items, the ZIP-215 batch equation
// and the CUDA chunk pack): the public span of Ed25519Item, the arrays of an Ed25519PackedBatch,
// or the C ABI's pointer and length arrays, each read in place. Why: building a vector of items
// first cost ~10 ns an item (fresh pages, serial) before the backend read them again.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>

#include "zkgpu/ed25519.hpp"

namespace zkgpu::ed25519 {

// Ed25519Item views. The batch API refuses wrong lengths up front; the ZIP-215 functions take
// them as malformed items (verdict 0), hence the check here too (two compares an item).
struct SpanItems {
  std::span<const Ed25519Item> items;

  size_t size() const { return items.size(); }
  bool well_formed(size_t i) const {
    return items[i].public_key.size() == ED25519_PUBLIC_KEY_BYTES &&
           items[i].signature.size() == ED25519_SIGNATURE_BYTES;
  }
  const uint8_t* public_key(size_t i) const { return items[i].public_key.data(); }
  const uint8_t* signature(size_t i) const { return items[i].signature.data(); }
  std::span<const uint8_t> message(size_t i) const { return items[i].message; }
  size_t message_size(size_t i) const { return items[i].message.size(); }
  SpanItems slice(size_t first, size_t count) const { return {items.subspan(first, count)}; }
};

// An Ed25519PackedBatch whose offsets the front end has checked. A slice keeps the whole message
// array: offsets stay absolute, so message(i) needs no shift.
struct PackedItems {
  const uint8_t* public_keys = nullptr;  // 32 * n
  const uint8_t* signatures = nullptr;   // 64 * n
  const uint8_t* messages = nullptr;
  const uint64_t* offsets = nullptr;  // n + 1 entries into messages
  size_t n = 0;

  size_t size() const { return n; }
  static constexpr bool well_formed(size_t) { return true; }
  const uint8_t* public_key(size_t i) const { return public_keys + 32 * i; }
  const uint8_t* signature(size_t i) const { return signatures + 64 * i; }
  std::span<const uint8_t> message(size_t i) const { return {messages + offsets[i], message_size(i)}; }
  size_t message_size(size_t i) const { return static_cast<size_t>(offsets[i + 1] - offsets[i]); }
  PackedItems slice(size_t first, size_t count) const {
    return {public_keys + 32 * first, signatures + 64 * first, messages, offsets + first, count};
  }
};

// The C ABI's pointers and lengths: item i is (public_keys[i s], public_key_lens[i s]), ... with
// stride s = 1 for its six arrays, and s = 6 for its array of zkgpu_ed25519_item structs (the six
// pointers then point at the first struct's fields: one view, so both calls run the same loops).
// A pointer is NULL only with length 0 (the C ABI checks it). A key or signature of the wrong
// length makes the item malformed: its verdict is 0, and its message reads as empty (the CUDA
// pack does not copy it).
struct PointerItems {
  static_assert(sizeof(size_t) == sizeof(const uint8_t*), "one stride, in words, for pointers and lengths");
  const uint8_t* const* public_keys = nullptr;
  const size_t* public_key_lens = nullptr;
  const uint8_t* const* signatures = nullptr;
  const size_t* signature_lens = nullptr;
  const uint8_t* const* messages = nullptr;
  const size_t* message_lens = nullptr;
  size_t n = 0;
  size_t stride = 1;  // words from one item's entry to the next's

  size_t size() const { return n; }
  size_t public_key_len(size_t i) const { return public_key_lens[i * stride]; }
  size_t signature_len(size_t i) const { return signature_lens[i * stride]; }
  size_t message_len(size_t i) const { return message_lens[i * stride]; }
  bool well_formed(size_t i) const {
    return public_key_len(i) == ED25519_PUBLIC_KEY_BYTES && signature_len(i) == ED25519_SIGNATURE_BYTES;
  }
  const uint8_t* public_key(size_t i) const { return public_keys[i * stride]; }
  const uint8_t* signature(size_t i) const { return signatures[i * stride]; }
  const uint8_t* message_data(size_t i) const { return messages[i * stride]; }
  std::span<const uint8_t> message(size_t i) const {
    if (!well_formed(i) || message_len(i) == 0) return {};
    return {message_data(i), message_len(i)};
  }
  size_t message_size(size_t i) const { return well_formed(i) ? message_len(i) : 0; }
  PointerItems slice(size_t first, size_t count) const {
    const size_t at = first * stride;
    return {public_keys + at, public_key_lens + at, signatures + at, signature_lens + at,
            messages + at,    message_lens + at,    count,           stride};
  }
};

// A batch whose bytes a callback writes straight into the backend's buffers (the C ABI's
// zkgpu_ed25519_verify_batch_fill): only the message offsets are known up front. Why: a binding
// whose items cannot be handed over as pointers (Go: cgo forbids arrays of Go pointers) must copy
// them once anyway; this way it copies into the GPU's pinned staging, chunk by chunk, while the
// GPU verifies the chunk before, instead of into a buffer of its own that the library copies again.
// Not an ItemSource (its items cannot be read in place): the CPU backend has the callback fill a
// packed buffer first.
struct FilledItems {
  // Writes items [first, first + count): count keys (32 bytes each) back to back at keys, count
  // signatures (64) at sigs, their messages back to back at msgs.
  using Fill = void (*)(void* ctx, size_t first, size_t count, uint8_t* keys, uint8_t* sigs, uint8_t* msgs);
  const uint64_t* offsets = nullptr;  // n + 1 entries, checked: from 0, nondecreasing
  size_t n = 0;
  size_t first = 0;  // of the slice in the caller's batch: what the callback is told
  Fill fill = nullptr;
  void* ctx = nullptr;

  size_t size() const { return n; }
  size_t message_size(size_t i) const { return static_cast<size_t>(offsets[i + 1] - offsets[i]); }
  FilledItems slice(size_t at, size_t count) const { return {offsets + at, count, first + at, fill, ctx}; }
};

// Has the callback write all of `items` (keys, sigs, msgs laid out as FilledItems::Fill says), in
// pieces of at least FILL_PIECE_ITEMS items on OpenMP threads at once. Why: the copy is the
// binding's (Go: ~30 ns an item on one core), and its own threads would each be a scheduler
// wake-up inside the call, while the library's threads are already awake (ed25519/packed.cpp).
inline constexpr size_t FILL_PIECE_ITEMS = 256;
void fill_items(const FilledItems& items, uint8_t* keys, uint8_t* sigs, uint8_t* msgs);

// message_offsets[i] <= message_offsets[i + 1] for i in [lo, hi), on the calling thread, else
// Error(InvalidArgument) naming the entry (ed25519/packed.cpp). The GPU checks a filled batch so,
// chunk by chunk before each callback: overlapped with the chunks before, and without waking
// OpenMP threads, which would then spin against the binding's copying threads.
void check_nondecreasing(const uint64_t* message_offsets, size_t lo, size_t hi, const std::string& op);

// One of the three. Backends visit it once per call and run a loop templated on the source, so
// the per-item accessors inline.
class ItemSource {
 public:
  ItemSource(std::span<const Ed25519Item> items) : v_(SpanItems{items}) {}  // NOLINT: a view, as the span
  ItemSource(const SpanItems& s) : v_(s) {}                                 // NOLINT
  ItemSource(const PackedItems& s) : v_(s) {}                               // NOLINT
  ItemSource(const PointerItems& s) : v_(s) {}                              // NOLINT

  size_t size() const {
    return std::visit([](const auto& s) { return s.size(); }, v_);
  }
  ItemSource slice(size_t first, size_t count) const {
    return std::visit([&](const auto& s) { return ItemSource(s.slice(first, count)); }, v_);
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), v_);
  }

 private:
  std::variant<SpanItems, PackedItems, PointerItems> v_;
};

}  // namespace zkgpu::ed25519
