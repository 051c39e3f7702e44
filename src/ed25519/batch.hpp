// The front end's batch dispatch over any item source (verify.cpp), shared by the public span and
// packed calls and the C ABI's pointer arrays (src/capi/ed25519.cpp), which reach it without
// building Ed25519Items first.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "ed25519/item_source.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu::ed25519 {

// out[i] = verdict of items[i] on the backend options choose (out.size() == items.size(), item
// lengths and offsets already checked; the source's malformed items get 0).
void verify_batch(const ItemSource& items, std::span<uint8_t> out, Ed25519Mode mode,
                  const Ed25519BatchOptions& options);
// The same for a batch the callback fills (a whole batch: items.offsets[0] == 0).
void verify_batch(const FilledItems& items, std::span<uint8_t> out, Ed25519Mode mode,
                  const Ed25519BatchOptions& options);

// message_offsets (n + 1 entries, n > 0) start at 0 and never decrease; else Error(InvalidArgument)
// naming the first entry that breaks a rule (op: the call's name, for the message).
void check_offsets(const uint64_t* message_offsets, size_t n, const std::string& op);
// Only the first rule: message_offsets[0] == 0.
void check_first_offset(const uint64_t* message_offsets, const std::string& op);

// The smallest i < n with bad(i), or n when there is none; on OpenMP threads from 2^15 items (the
// checks of a 2^20 batch read tens of MB). The caller's file is compiled with OpenMP.
template <class Bad>
size_t first_bad(size_t n, const Bad& bad) {
  size_t first = n;
  const auto m = static_cast<int64_t>(n);
#pragma omp parallel for schedule(static) reduction(min : first) if (m >= (int64_t{1} << 15))
  for (int64_t i = 0; i < m; ++i)
    if (bad(static_cast<size_t>(i)) && static_cast<size_t>(i) < first) first = static_cast<size_t>(i);
  return first;
}

}  // namespace zkgpu::ed25519
