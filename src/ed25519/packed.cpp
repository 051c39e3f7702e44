// The packed Ed25519 batches of the public API: their checks, then the shared dispatch
// (batch.hpp) for host arrays, or the CUDA kernels straight on the caller's device arrays; and
// the callback pieces of the filled batch (item_source.hpp).
#include <omp.h>

#include <algorithm>
#include <string>

#include "ed25519/batch.hpp"
#include "zkgpu/ed25519.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "ed25519/cuda/backend.hpp"
#include "runtime/cuda/caller_memory.hpp"
#endif

namespace zkgpu {
namespace {

std::string str(size_t v) { return std::to_string(v); }

// n (from the key bytes) after checking that the other arrays' sizes follow from it.
size_t packed_count(const Ed25519PackedBatch& b, const std::string& op) {
  if (b.public_keys.size() % ED25519_PUBLIC_KEY_BYTES)
    throw_invalid(op + ": public_keys has " + str(b.public_keys.size()) + " bytes, not a multiple of 32");
  const size_t n = b.public_keys.size() / ED25519_PUBLIC_KEY_BYTES;
  if (b.signatures.size() != ED25519_SIGNATURE_BYTES * n)
    throw_invalid(op + ": signatures has " + str(b.signatures.size()) + " bytes for " + str(n) +
                  " public keys (expected 64 * " + str(n) + ")");
  if (b.message_offsets.size() != n + 1 && !(n == 0 && b.message_offsets.empty()))
    throw_invalid(op + ": message_offsets has " + str(b.message_offsets.size()) + " entries for " + str(n) +
                  " items (expected n + 1 = " + str(n + 1) + ")");
  return n;
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte (as addresses).
bool overlaps(const void* a, size_t a_bytes, const void* b, size_t b_bytes) {
  const auto a0 = reinterpret_cast<uintptr_t>(a), b0 = reinterpret_cast<uintptr_t>(b);
  return a_bytes && b_bytes && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

void check_out_disjoint(const Ed25519PackedBatch& b, const void* out, size_t n, const std::string& op) {
  const struct {
    const void* p;
    size_t bytes;
    const char* name;
  } inputs[] = {{b.public_keys.data(), b.public_keys.size(), "public_keys"},
                {b.signatures.data(), b.signatures.size(), "signatures"},
                {b.messages.data(), b.messages.size(), "messages"},
                {b.message_offsets.data(), b.message_offsets.size_bytes(), "message_offsets"}};
  for (const auto& in : inputs)
    if (overlaps(out, n, in.p, in.bytes)) throw_invalid(op + ": the verdicts overlap " + in.name);
}

void check_offsets(const Ed25519PackedBatch& b, size_t n, const std::string& op) {
  if (n == 0) {
    if (!b.messages.empty()) throw_invalid(op + ": no items but " + str(b.messages.size()) + " message bytes");
    if (!b.message_offsets.empty() && b.message_offsets[0] != 0)
      throw_invalid(op + ": message_offsets[0] = " + str(b.message_offsets[0]) + " (must be 0)");
    return;
  }
  ed25519::check_offsets(b.message_offsets.data(), n, op);
  const uint64_t last = b.message_offsets[n];
  if (last != b.messages.size())
    throw_invalid(op + ": message_offsets[" + str(n) + "] = " + str(last) + " but messages has " +
                  str(b.messages.size()) + " bytes (they must be equal)");
}

[[noreturn]] void throw_decrease(const uint64_t* off, size_t i, const std::string& op) {
  throw_invalid(op + ": message_offsets[" + str(i + 1) + "] = " + str(off[i + 1]) + " is below message_offsets[" +
                str(i) + "] = " + str(off[i]) + " (offsets must not decrease)");
}

}  // namespace

void ed25519::check_first_offset(const uint64_t* off, const std::string& op) {
  if (off[0] != 0) throw_invalid(op + ": message_offsets[0] = " + str(off[0]) + " (must be 0)");
}

void ed25519::check_offsets(const uint64_t* off, size_t n, const std::string& op) {
  check_first_offset(off, op);
  const size_t i = ed25519::first_bad(n, [&](size_t k) { return off[k] > off[k + 1]; });
  if (i < n) throw_decrease(off, i, op);
}

void ed25519::check_nondecreasing(const uint64_t* off, size_t lo, size_t hi, const std::string& op) {
  for (size_t i = lo; i < hi; ++i)
    if (off[i] > off[i + 1]) throw_decrease(off, i, op);
}

void ed25519::fill_items(const FilledItems& items, uint8_t* keys, uint8_t* sigs, uint8_t* msgs) {
  const size_t n = items.size();
  if (n == 0) return;
  const auto pieces = static_cast<int64_t>(
      std::clamp<size_t>(n / FILL_PIECE_ITEMS, 1, static_cast<size_t>(std::max(1, omp_get_max_threads()))));
  const uint64_t base = items.offsets[0];
#pragma omp parallel for schedule(static, 1) if (pieces > 1)
  for (int64_t p = 0; p < pieces; ++p) {
    const size_t lo = n * static_cast<size_t>(p) / static_cast<size_t>(pieces);
    const size_t hi = n * static_cast<size_t>(p + 1) / static_cast<size_t>(pieces);
    items.fill(items.ctx, items.first + lo, hi - lo, keys + ED25519_PUBLIC_KEY_BYTES * lo,
               sigs + ED25519_SIGNATURE_BYTES * lo, msgs + (items.offsets[lo] - base));
  }
}

void ed25519_verify_batch(const Ed25519PackedBatch& batch, std::span<uint8_t> out, Ed25519Mode mode,
                          const Ed25519BatchOptions& options) {
  const std::string op = "ed25519_verify_batch (packed)";
  const size_t n = packed_count(batch, op);
  if (out.size() != n) throw_invalid(op + ": " + str(n) + " items but room for " + str(out.size()) + " verdicts");
  check_offsets(batch, n, op);
  check_out_disjoint(batch, out.data(), n, op);
  const ed25519::PackedItems items{batch.public_keys.data(), batch.signatures.data(), batch.messages.data(),
                                   batch.message_offsets.data(), n};
  ed25519::verify_batch(items, out, mode, options);
}

void ed25519_verify_batch_device(const Ed25519PackedBatch& on_device, uint8_t* verdicts_on_device, Ed25519Mode mode,
                                 GpuStream stream, const Ed25519BatchOptions& options) {
  const std::string op = "ed25519_verify_batch_device";
  const size_t n = packed_count(on_device, op);
  if (options.backend == Backend::Cpu)
    throw_invalid(op + ": Backend::Cpu asked for arrays in device memory (use Auto or Cuda, or the host call)");
  if (n == 0) return;
  if (verdicts_on_device == nullptr) throw_invalid(op + ": verdicts_on_device is null");
  check_out_disjoint(on_device, verdicts_on_device, n, op);
  resolve_backend(Backend::Cuda, n, 0);  // Error(Unavailable) without a usable GPU
#if ZKGPU_HAVE_CUDA
  cuda::require_device_pointer(on_device.public_keys.data(), on_device.public_keys.size(),
                               (op + ": public_keys").c_str());
  cuda::require_device_pointer(on_device.signatures.data(), on_device.signatures.size(), (op + ": signatures").c_str());
  cuda::require_device_pointer(on_device.messages.data(), on_device.messages.size(), (op + ": messages").c_str());
  cuda::require_device_pointer(on_device.message_offsets.data(), on_device.message_offsets.size_bytes(),
                               (op + ": message_offsets").c_str());
  cuda::require_device_pointer(verdicts_on_device, n, (op + ": verdicts_on_device").c_str());
  const ed25519::cuda::ItemArrays arrays{on_device.public_keys.data(),     on_device.signatures.data(),
                                         on_device.message_offsets.data(), on_device.messages.data(),
                                         on_device.messages.size(),        n};
  ed25519::cuda::verify_on_stream(arrays, verdicts_on_device, static_cast<ed25519::VerifyMode>(mode), stream.handle);
#else
  (void)mode, (void)stream;
#endif
}

}  // namespace zkgpu
