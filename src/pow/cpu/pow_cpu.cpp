#include "pow/cpu/pow_cpu.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "poseidon2/cpu/batch.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cpu {
namespace {

// Nonces a thread claims at a time, and candidates permuted per batch within a claim. BATCH is a
// multiple of every SIMD lane count and below the batch permutation's own threading threshold, so
// each call runs on the calling thread.
constexpr uint32_t CHUNK = 1024;
constexpr uint32_t BATCH = 64;
constexpr uint32_t NONE = 0xffffffffu;  // > every canonical value

void validate(const PowInput& in) {
  if (in.bits < 1 || in.bits > 30)
    throw_invalid("proof-of-work bits = " + std::to_string(in.bits) + " is outside 1..30 (2^bits must be < p)");
  if (in.n_pending >= 8)
    throw_invalid("PowInput.n_pending = " + std::to_string(in.n_pending) +
                  " must be < 8 (a full input buffer is absorbed before grinding)");
  for (int i = 0; i < 16; ++i)
    if (in.state[i].v >= BabyBear::P)
      throw_invalid("PowInput.state[" + std::to_string(i) + "] is not a valid word (>= p)");
  for (uint32_t i = 0; i < in.n_pending; ++i)
    if (in.pending[i].v >= BabyBear::P)
      throw_invalid("PowInput.pending[" + std::to_string(i) + "] is not a valid word (>= p)");
}

void atomic_min(std::atomic<uint32_t>& a, uint32_t v) {
  uint32_t cur = a.load(std::memory_order_relaxed);
  while (v < cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
}

}  // namespace

uint32_t pow_grind(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic) {
  validate(in);
  // Every candidate starts from this state; only slot n_pending (the witness) differs.
  BabyBear base[16];
  for (int i = 0; i < 16; ++i) base[i] = in.state[i];
  for (uint32_t i = 0; i < in.n_pending; ++i) base[i] = in.pending[i];
  const uint32_t slot = in.n_pending, mask = (1u << in.bits) - 1u;

  // Threads claim consecutive chunks in increasing order. A thread stops at the first chunk that
  // starts above the best hit so far; every chunk below it was claimed earlier and is scanned up to
  // its own first hit, so the final minimum is the smallest witness in [0, p) regardless of timing.
  std::atomic<uint64_t> next{0};
  std::atomic<uint32_t> best{NONE};
#pragma omp parallel if (in.bits > 10)
  {
    alignas(64) BabyBear states[BATCH][16];
    for (;;) {
      const uint64_t start = next.fetch_add(CHUNK, std::memory_order_relaxed);
      if (start >= BabyBear::P) break;
      const uint32_t found = best.load(std::memory_order_relaxed);
      if (deterministic ? start > found : found != NONE) break;
      const uint32_t end = static_cast<uint32_t>(std::min<uint64_t>(start + CHUNK, BabyBear::P));
      BabyBear w = BabyBear::from_canonical(static_cast<uint32_t>(start));
      for (uint32_t b = static_cast<uint32_t>(start); b < end; b += BATCH) {
        if (deterministic && b > best.load(std::memory_order_relaxed)) break;
        const uint32_t n = std::min(BATCH, end - b);
        for (uint32_t i = 0; i < n; ++i, w += BabyBear::one()) {
          std::copy(base, base + 16, states[i]);
          states[i][slot] = w;
        }
        poseidon2_permute_batch(&states[0][0], n, p);
        uint32_t hit = NONE;
        for (uint32_t i = 0; i < n; ++i)
          if ((states[i][7].canonical() & mask) == 0) {
            hit = b + i;
            break;
          }
        if (hit != NONE) {
          atomic_min(best, hit);
          break;
        }
      }
    }
  }
  const uint32_t w = best.load();
  if (w == NONE)
    throw_invalid("no proof-of-work witness with " + std::to_string(in.bits) +
                  " zero bits exists in [0, p) for this transcript; lower the PoW bits");
  return w;
}

}  // namespace zkgpu::cpu
