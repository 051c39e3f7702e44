// Proof-of-work grinding: candidates w = 0, 1, 2, ... in rounds sized to the expected search
// length, one launch per round over a resident grid whose threads stride through the round's
// candidates in increasing order, one permutation each, hits folded with atomicMin. The host reads
// the result once per round (the only synchronisation). A thread stops once a recorded hit makes
// its remaining candidates pointless (deterministic: a smaller hit; else any hit), so a round ends
// soon after its first hit. The deterministic search returns the smallest hit of the first round
// with one, which is the smallest witness: earlier rounds had none, and within the round a
// candidate is skipped only when a smaller witness is already recorded.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "pow/cuda/api.hpp"
#include "pow/cuda/pow.cuh"
#include "poseidon2/cuda/permute.cuh"
#include "runtime/cuda/runtime.cuh"
#include "runtime/device_caches.hpp"

namespace zkgpu::cuda {
namespace hash_detail {
namespace {

constexpr unsigned POW_BLOCK = 256;
// Expected candidates to the first hit are 2^bits; a round covers 4x that (the chance that it ends
// without a hit is then e^-4), within these bounds.
constexpr uint64_t MIN_ROUND = uint64_t(1) << 21, MAX_ROUND = uint64_t(1) << 28;
constexpr uint32_t NO_HIT = 0xffffffffu;  // above every candidate (< p)

// pow_witness_ok's state with the candidate slot still open: pending inputs over the old state.
struct PowBase {
  BabyBear s[16];
  uint32_t slot;  // = n_pending, where the witness goes
  uint32_t mask;  // 2^bits - 1
};

// Candidates [start, start + count): thread g takes start + g, start + g + stride, ...
template <PermKind K, bool DETERMINISTIC>
__global__ void __launch_bounds__(POW_BLOCK)
    pow_kernel(const __grid_constant__ PowBase base, uint32_t start, uint32_t count, uint32_t* result,
               const __grid_constant__ Poseidon2Params<16> p) {
  const uint32_t stride = gridDim.x * POW_BLOCK;
#pragma unroll 1
  for (uint32_t k = blockIdx.x * POW_BLOCK + threadIdx.x; k < count; k += stride) {
    const uint32_t w = start + k;
    // Increasing w: once a hit rules this candidate out, it rules out the rest of this thread's.
    const uint32_t seen = *reinterpret_cast<volatile uint32_t*>(result);
    if (DETERMINISTIC ? seen < w : seen != NO_HIT) return;
    const BabyBear wf = BabyBear::from_canonical(w);
    BabyBear s[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) s[i] = uint32_t(i) == base.slot ? wf : base.s[i];
    permute<16, K>(s, p);
    if ((s[7].canonical() & base.mask) == 0) atomicMin(result, w);
  }  // k + stride cannot wrap: count <= 2^31 and stride is one resident grid
}

// The result word of each device (and its pinned host copy), allocated on the first grind and
// kept: cudaMalloc/cudaFree per call cost more than a 20-bit search, and cudaFree synchronises
// the whole device. Freed only by zkgpu::release_gpu_caches(), never by a static destructor (it
// could run after the CUDA runtime has shut down). g_pow_mutex serialises grinds (each fills the
// GPU anyway).
struct PowSlot {
  uint32_t* d = nullptr;
  uint32_t* h = nullptr;
};
std::mutex g_pow_mutex;
std::vector<PowSlot> g_pow_slots;

void release_pow_slots() {
  std::lock_guard<std::mutex> lock(g_pow_mutex);
  for (PowSlot& s : g_pow_slots) {
    if (s.d) cudaFree(s.d);  // nothing useful to do with an error while releasing
    if (s.h) cudaFreeHost(s.h);
  }
  g_pow_slots.clear();
}

PowSlot& pow_slot() {  // callers hold g_pow_mutex
  if (g_pow_slots.empty()) ::zkgpu::runtime::register_device_cache(&release_pow_slots);
  int dev = 0;
  ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
  if (g_pow_slots.size() <= size_t(dev)) g_pow_slots.resize(size_t(dev) + 1);
  PowSlot& slot = g_pow_slots[size_t(dev)];
  if (!slot.d) ZKGPU_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&slot.d), sizeof(uint32_t)));
  if (!slot.h) ZKGPU_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&slot.h), sizeof(uint32_t)));
  return slot;
}

template <PermKind K, bool DET>
uint32_t grind(const PowBase& base, const Poseidon2Params<16>& p, cudaStream_t s) {
  std::lock_guard<std::mutex> lock(g_pow_mutex);
  PowSlot& slot = pow_slot();
  const int bits = __builtin_popcount(base.mask);
  const uint64_t round = std::clamp<uint64_t>(uint64_t(4) << bits, MIN_ROUND, MAX_ROUND);
  // One resident wave: every thread starts at once, so all of them stride through the round in step.
  int dev = 0, sms = 0, per_sm = 0;
  ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
  ZKGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  ZKGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pow_kernel<K, DET>, POW_BLOCK, 0));
  const unsigned grid = static_cast<unsigned>(std::max(1, sms) * std::max(1, per_sm));
  ZKGPU_CUDA_CHECK(cudaMemsetAsync(slot.d, 0xff, sizeof(uint32_t), s));
  for (uint64_t start = 0; start < BabyBear::P; start += round) {
    const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(round, BabyBear::P - start));
    const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>(grid, (count + POW_BLOCK - 1) / POW_BLOCK));
    pow_kernel<K, DET><<<blocks, POW_BLOCK, 0, s>>>(base, static_cast<uint32_t>(start), count, slot.d, p);
    ZKGPU_CUDA_CHECK_LAUNCH();
    *slot.h = NO_HIT;
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(slot.h, slot.d, sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    ZKGPU_CUDA_CHECK(cudaStreamSynchronize(s));
    if (*slot.h != NO_HIT) return *slot.h;
  }
  throw_invalid("pow_grind: no witness in [0, p) for this challenger state at " + std::to_string(bits) + " bits");
}

template <PermKind K>
uint32_t grind_kind(const PowBase& base, const Poseidon2Params<16>& p, bool det, cudaStream_t s) {
  return det ? grind<K, true>(base, p, s) : grind<K, false>(base, p, s);
}

}  // namespace
}  // namespace hash_detail

uint32_t pow_grind_device(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic, cudaStream_t s) {
  using namespace hash_detail;
  if (in.bits < 1 || in.bits > 30)
    throw_invalid("pow_grind: bits must be in 1..30 (sample_bits needs 2^bits < p), got " + std::to_string(in.bits));
  if (in.n_pending >= 8)
    throw_invalid("pow_grind: n_pending must be < 8 (8 pending inputs would have been absorbed), got " +
                  std::to_string(in.n_pending));
  PowBase base{};
  for (int i = 0; i < 16; ++i) {
    if (in.state[i].v >= BabyBear::P) throw_invalid("pow_grind: state word " + std::to_string(i) + " is not < p");
    base.s[i] = in.state[i];
  }
  for (uint32_t i = 0; i < in.n_pending; ++i) {
    if (in.pending[i].v >= BabyBear::P) throw_invalid("pow_grind: pending word " + std::to_string(i) + " is not < p");
    base.s[i] = in.pending[i];
  }
  base.slot = in.n_pending;
  base.mask = (1u << in.bits) - 1u;
  if (perm_kind_for(p) == PermKind::StdRolled) return grind_kind<PermKind::StdRolled>(base, p, deterministic, s);
  return grind_kind<PermKind::Generic>(base, p, deterministic, s);
}

uint32_t pow_grind_host(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic) {
  Stream stream;
  return pow_grind_device(in, p, deterministic, stream);
}

}  // namespace zkgpu::cuda
