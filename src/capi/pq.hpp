// Shared by the C ABI's ML-KEM and ML-DSA batches: packed item buffers and per-item status bytes.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "capi/capi.hpp"
#include "zkgpu/pq.hpp"

namespace zkgpu::capi {

// n items of `item` bytes back to back at p (NULL only when n is 0).
template <class T>
std::span<T> packed(T* p, size_t n, size_t item, const char* name) {
  const size_t bytes = checked_mul(n, item, name);
  require(p, bytes, name);
  return {p, bytes};
}

inline Region read_region(std::span<const uint8_t> s, const char* name) { return {s.data(), s.size(), name, false}; }
inline Region written_region(std::span<uint8_t> s, const char* name) { return {s.data(), s.size(), name, true}; }

// The key-generation batches of both schemes: n seeds in, two packed keys out, none overlapping.
struct KeyOut {
  uint8_t* ptr;
  size_t item;
  const char* name;
};
struct KeyGenBuffers {
  std::span<const uint8_t> seeds;
  std::span<uint8_t> first, second;
};
inline KeyGenBuffers keygen_buffers(size_t n, const uint8_t* seeds, size_t seed_bytes, KeyOut first, KeyOut second) {
  const KeyGenBuffers k{packed(seeds, n, seed_bytes, "seeds"), packed(first.ptr, n, first.item, first.name),
                        packed(second.ptr, n, second.item, second.name)};
  require_no_aliasing(
      {read_region(k.seeds, "seeds"), written_region(k.first, first.name), written_region(k.second, second.name)});
  return k;
}

// The status array of a batch: the C++ batch fills PqStatus values, commit() copies them out as
// the C ABI's zkgpu_pq_status bytes (the same values).
class StatusOut {
 public:
  StatusOut(uint8_t* out, size_t n) : out_(packed(out, n, 1, "status")), st_(n) {}
  std::span<PqStatus> span() { return st_; }
  Region region() const { return {out_.data(), out_.size(), "status", true}; }
  void commit() const {
    static_assert(uint8_t(PqStatus::Ok) == ZKGPU_PQ_OK && uint8_t(PqStatus::InvalidInput) == ZKGPU_PQ_INVALID_INPUT);
    for (size_t i = 0; i < st_.size(); ++i) out_[i] = static_cast<uint8_t>(st_[i]);
  }

 private:
  std::span<uint8_t> out_;
  std::vector<PqStatus> st_;
};

// A device call's status array (n bytes, written on the device as PqStatus values, which are the
// zkgpu_pq_status values).
inline PqStatus* device_status(uint8_t* out, size_t n) {
  static_assert(sizeof(PqStatus) == 1);
  return reinterpret_cast<PqStatus*>(packed(out, n, 1, "status").data());
}

}  // namespace zkgpu::capi
