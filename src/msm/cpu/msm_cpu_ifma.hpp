// The CPU MSM's AVX-512 IFMA paths (msm_cpu_ifma.cpp): a task's bucket additions eight at a time
// and the digit pass eight points at a time. ZKGPU_MSM_IFMA says whether the build has them (x86-64);
// callers check ifma::AVAILABLE first.
#pragma once
#if defined(__x86_64__)
#define ZKGPU_MSM_IFMA 1
#include <cstddef>
#include <cstdint>
#include <vector>

#include "msm/cpu/field_ifma.hpp"
#include "msm/cpu/msm_task.hpp"

namespace zkgpu::bls12_377::cpu {

// A thread's scratch for accumulate_ifma, kept between tasks.
struct IfmaScratch {
  std::vector<uint32_t> cnt, sorted;  // sorted: point index | (digit < 0) << 31
  std::vector<uint16_t> bk;           // bucket of each sorted entry
  std::vector<uint64_t> out52;        // S buckets of 32 words (X, Y, Z, T limb-major), IFMA form
};

// One task on the IFMA path: acc_out = A_r and run_out = S_r of the range (see reduce_range) for
// the entries e[0..m) (point index | negative << 31) in buckets eb[0..m) (as in msm_te); bucket is
// scratch of S entries.
ZKGPU_IFMA_TARGET void accumulate_ifma(const TePrecomputed* points, const uint32_t* e, const uint16_t* eb, size_t m,
                                       size_t S, IfmaScratch& sc, TeExtended* bucket, TeExtended& acc_out,
                                       TeExtended& run_out, PhaseClock& clk);

// digits_one (msm_cpu.cpp) for eight points at a time, points [lo, lo + 8k); returns lo + 8k, the
// first point left to digits_one. Zero digits count in cnt[W * R], a slot past the groups.
ZKGPU_IFMA_TARGET size_t digits_avx512(const Scalar* scalars, size_t lo, size_t hi, size_t n, size_t W, unsigned c,
                                       size_t R, unsigned log2_s, int16_t* digits, uint32_t* cnt);

}  // namespace zkgpu::bls12_377::cpu
#else
#define ZKGPU_MSM_IFMA 0
#endif
