// The public Ed25519 API: argument checks, mode names and backend dispatch.
#include <algorithm>
#include <string>
#include <vector>

#include "ed25519/batch.hpp"
#include "ed25519/cpu/verify_cpu.hpp"
#include "runtime/names.hpp"
#include "zkgpu/ed25519.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "ed25519/cuda/backend.hpp"
#endif

namespace zkgpu {

static_assert(static_cast<int>(Ed25519Mode::Openssl) == static_cast<int>(ed25519::VerifyMode::Openssl));
static_assert(static_cast<int>(Ed25519Mode::Strict) == static_cast<int>(ed25519::VerifyMode::Strict));
static_assert(static_cast<int>(Ed25519Mode::Zip215) == static_cast<int>(ed25519::VerifyMode::Zip215));

namespace {
constexpr EnumName<Ed25519Mode> MODE_NAMES[] = {
    {Ed25519Mode::Openssl, "openssl"}, {Ed25519Mode::Strict, "strict"}, {Ed25519Mode::Zip215, "zip215"}};
}  // namespace

std::optional<Ed25519Mode> parse_ed25519_mode(std::string_view s) { return parse_name(MODE_NAMES, s); }
const char* to_string(Ed25519Mode m) { return name_of(MODE_NAMES, m); }

bool ed25519_verify(std::span<const uint8_t> public_key, std::span<const uint8_t> signature,
                    std::span<const uint8_t> message, Ed25519Mode mode) {
  if (public_key.size() != ED25519_PUBLIC_KEY_BYTES || signature.size() != ED25519_SIGNATURE_BYTES) return false;
  return ed25519::ed25519_verify(static_cast<ed25519::VerifyMode>(mode), public_key.data(), signature.data(),
                                 message.data(), message.size(), ed25519::cpu::base_table());
}

namespace {
constexpr size_t ZIP215_RLC_MIN_ITEMS = 32;
constexpr size_t ZIP215_RLC_CHUNK = size_t{1} << 16;

void check_lengths(std::span<const Ed25519Item> items) {
  const ed25519::SpanItems src{items};
  const size_t i = ed25519::first_bad(items.size(), [&](size_t k) { return !src.well_formed(k); });
  if (i == items.size()) return;
  if (items[i].public_key.size() != ED25519_PUBLIC_KEY_BYTES)
    throw_invalid("ed25519: item " + std::to_string(i) + " has a " + std::to_string(items[i].public_key.size()) +
                  "-byte public key (expected 32)");
  throw_invalid("ed25519: item " + std::to_string(i) + " has a " + std::to_string(items[i].signature.size()) +
                "-byte signature (expected 64)");
}

}  // namespace

void ed25519::verify_batch(const ItemSource& items, std::span<uint8_t> out, Ed25519Mode mode,
                           const Ed25519BatchOptions& options) {
  if (items.size() == 0) return;
  const auto m = static_cast<ed25519::VerifyMode>(mode);
  if (resolve_backend(options.backend, items.size(), options.gpu_crossover) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    ed25519::cuda::verify_items(items, out, m, {.memory_budget = options.gpu_memory_budget});
    return;
#endif
  }
  // ZIP-215 is cofactored, so the batch equation gives the single verdicts (bisecting to name bad
  // items) at a fraction of the cost; small batches gain nothing from it.
  // Chunks bound the MSM's memory (2n + 1 points) on huge batches.
  if (m == ed25519::VerifyMode::Zip215 && items.size() >= ZIP215_RLC_MIN_ITEMS) {
    for (size_t first = 0; first < items.size(); first += ZIP215_RLC_CHUNK) {
      const size_t count = std::min(ZIP215_RLC_CHUNK, items.size() - first);
      ed25519::cpu::verify_zip215_rlc(items.slice(first, count), out.subspan(first, count), std::nullopt);
    }
    return;
  }
  ed25519::cpu::verify_items(items, out, m);
}

void ed25519::verify_batch(const FilledItems& items, std::span<uint8_t> out, Ed25519Mode mode,
                           const Ed25519BatchOptions& options) {
  const size_t n = items.size();
  if (n == 0) return;
  if (resolve_backend(options.backend, n, options.gpu_crossover) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    // The offsets are checked chunk by chunk there (ed25519::check_nondecreasing), each before
    // its chunk's callback.
    ed25519::cuda::verify_filled(items, out, static_cast<ed25519::VerifyMode>(mode),
                                 {.memory_budget = options.gpu_memory_budget});
    return;
#endif
  }
  // The CPU reads its items in place, so the callback fills one packed copy of the batch first
  // (a small cost next to the CPU's ~50 us of verification an item).
  ed25519::check_offsets(items.offsets, n, "zkgpu_ed25519_verify_batch_fill");
  std::vector<uint8_t> keys(ED25519_PUBLIC_KEY_BYTES * n), sigs(ED25519_SIGNATURE_BYTES * n),
      msgs(static_cast<size_t>(items.offsets[n]));
  ed25519::fill_items(items, keys.data(), sigs.data(), msgs.data());
  Ed25519BatchOptions on_cpu = options;
  on_cpu.backend = Backend::Cpu;
  verify_batch(PackedItems{keys.data(), sigs.data(), msgs.data(), items.offsets, n}, out, mode, on_cpu);
}

void ed25519_verify_batch(std::span<const Ed25519Item> items, std::span<uint8_t> out, Ed25519Mode mode,
                          const Ed25519BatchOptions& options) {
  if (out.size() != items.size())
    throw_invalid("ed25519: " + std::to_string(items.size()) + " items but room for " + std::to_string(out.size()) +
                  " results");
  check_lengths(items);
  ed25519::verify_batch(items, out, mode, options);
}

std::vector<uint8_t> ed25519_verify_batch(std::span<const Ed25519Item> items, Ed25519Mode mode,
                                          const Ed25519BatchOptions& options) {
  std::vector<uint8_t> out(items.size());
  ed25519_verify_batch(items, out, mode, options);
  return out;
}

void ed25519_verify_batch(std::span<const Ed25519Item> items, std::span<uint8_t> out, Ed25519Mode mode,
                          Backend backend) {
  ed25519_verify_batch(items, out, mode, Ed25519BatchOptions{.backend = backend});
}

std::vector<uint8_t> ed25519_verify_batch(std::span<const Ed25519Item> items, Ed25519Mode mode, Backend backend) {
  return ed25519_verify_batch(items, mode, Ed25519BatchOptions{.backend = backend});
}

}  // namespace zkgpu
