// Proof-of-work grinding: candidates w = start, start+1, ... in chunks, one permutation each, the
// hits folded with atomicMin. Between chunks the host reads the result (the only synchronisation),
// so the deterministic search stops at the first chunk with a hit and returns its smallest hit,
// which is the smallest witness overall since every earlier chunk had none.
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/api.hpp"
#include "cuda/hash/hash.cuh"
#include "cuda/hash/kernels.cuh"
#include "cuda/runtime.cuh"

namespace zkgpu::cuda {
namespace hash_detail {
namespace {

constexpr unsigned POW_BLOCK = 256;
constexpr uint32_t POW_CHUNK = 1u << 22;
constexpr uint32_t NO_HIT = 0xffffffffu;  // above every candidate (< p)

// pow_witness_ok's state with the candidate slot still open: pending inputs over the old state.
struct PowBase {
  BabyBear s[16];
  uint32_t slot;  // = n_pending, where the witness goes
  uint32_t mask;  // 2^bits - 1
};

template <PermKind K, bool DETERMINISTIC>
__global__ void __launch_bounds__(POW_BLOCK)
    pow_kernel(const __grid_constant__ PowBase base, uint32_t start, uint32_t count, uint32_t* result,
               const __grid_constant__ Poseidon2Params<16> p) {
  const uint32_t k = blockIdx.x * POW_BLOCK + threadIdx.x;
  if (k >= count) return;
  const uint32_t w = start + k;
  // Skip work a hit already made pointless: a smaller hit (deterministic) or any hit.
  const uint32_t seen = *reinterpret_cast<volatile uint32_t*>(result);
  if (DETERMINISTIC ? seen < w : seen != NO_HIT) return;
  const BabyBear wf = BabyBear::from_canonical(w);
  BabyBear s[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) s[i] = uint32_t(i) == base.slot ? wf : base.s[i];
  permute<16, K>(s, p);
  if ((s[7].canonical() & base.mask) == 0) atomicMin(result, w);
}

template <PermKind K, bool DET>
uint32_t grind(const PowBase& base, const Poseidon2Params<16>& p, cudaStream_t s) {
  DeviceBuffer<uint32_t> d_result(1);
  uint32_t h_result = NO_HIT;  // pageable: the copy below completes before the synchronise returns
  ZKGPU_CUDA_CHECK(cudaMemsetAsync(d_result.data(), 0xff, sizeof(uint32_t), s));
  for (uint64_t start = 0; start < BabyBear::P; start += POW_CHUNK) {
    const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(POW_CHUNK, BabyBear::P - start));
    pow_kernel<K, DET><<<(count + POW_BLOCK - 1) / POW_BLOCK, POW_BLOCK, 0, s>>>(
        base, static_cast<uint32_t>(start), count, d_result.data(), p);
    ZKGPU_CUDA_CHECK_LAUNCH();
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&h_result, d_result.data(), sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    ZKGPU_CUDA_CHECK(cudaStreamSynchronize(s));
    if (h_result != NO_HIT) return h_result;
  }
  throw_invalid("pow_grind: no witness in [0, p) for this challenger state at " +
                std::to_string(__builtin_popcount(base.mask)) + " bits");
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
  switch (perm_kind_for(p)) {
    case PermKind::Generic:
      return grind_kind<PermKind::Generic>(base, p, deterministic, s);
    case PermKind::StdUnrolled:
      return grind_kind<PermKind::StdUnrolled>(base, p, deterministic, s);
    case PermKind::StdRolled:
      return grind_kind<PermKind::StdRolled>(base, p, deterministic, s);
  }
  throw_invalid("pow_grind: unknown kernel kind");
}

uint32_t pow_grind_host(const PowInput& in, const Poseidon2Params<16>& p, bool deterministic) {
  Stream stream;
  return pow_grind_device(in, p, deterministic, stream);
}

}  // namespace zkgpu::cuda
