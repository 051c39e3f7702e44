// Internal to src/ntt/cpu: the work descriptions the generic driver (ntt_cpu.cpp) hands to the
// per-ISA kernels (ntt_kernels.hpp instantiated in ntt_cpu.cpp, ntt_avx2.cpp, ntt_avx512.cpp).
// All tables are prepared by the driver, so the ISA files hold only loops.
#pragma once
#include <cstddef>

#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cpu::ntt_detail {

// Transform of a column group held whole in one local buffer (small n).
struct DirectJob {
  BabyBear* mat;     // first element of the group; row r starts at mat + r * stride
  size_t stride, c;  // row stride of the matrix, columns in the group
  unsigned log_n;
  const BabyBear* tw;         // dit_twiddles(log_n, inverse)
  const BabyBear* in_scale;   // per input row factor, or nullptr (forward coset: shift^r)
  const BabyBear* out_scale;  // per output row factor, or nullptr (inverse: shift^-r / n)
};

// Four-step transform of one column group, n = n1 * n2 (n1 <= n2): column DFTs of size n1 over
// the n1 x (n2 * c) view, twiddles w^(i1 j2), a transposing write to scratch, then column DFTs
// of size n2 written back in natural order. See ntt_kernels.hpp for the index algebra.
struct FourStepJob {
  BabyBear* mat;
  size_t stride, c;
  unsigned log1, log2;            // n1 = 2^log1, n2 = 2^log2
  const BabyBear* tw1;            // dit_twiddles(log1, inverse)
  const BabyBear* tw2;            // dit_twiddles(log2, inverse)
  const BabyBear* step;           // w^(+-j2), j2 < n2 (w = g_{log1+log2}, sign by direction)
  BabyBear step_scalar;           // multiplies every step (inverse coset: shift^-1)
  const BabyBear* row_in_scale;   // per j1 < n1 factor on input rows (forward coset: shift^(j1 n2)) or nullptr
  const BabyBear* col_init;       // per j2 < n2 initial twiddle (forward coset: shift^j2) or nullptr
  BabyBear init_scalar;           // initial twiddle when col_init is null (inverse: 1/n)
  const BabyBear* row_out_scale;  // per i2 < n2 factor on output rows (inverse coset: shift^(-n1 i2)) or nullptr
  BabyBear* scratch;              // n * c elements
  size_t q, p;                    // chunk widths (in j2 and in i1 units) of pass 1 and pass 2
  int threads;                    // OpenMP team size (1: run on the calling thread)
  BabyBear* locals;               // threads * local_elems elements, one block per thread
  size_t local_elems;             // >= four_step_local_elems(job)
};

// Per-thread block the four-step kernel needs for the job's shape and chunk widths.
inline size_t four_step_local_elems(unsigned log1, unsigned log2, size_t c, size_t q, size_t p) {
  const size_t per1 = (size_t(1) << log1) * q * c + 2 * q * c, per2 = (size_t(1) << log2) * p * c;
  return per1 > per2 ? per1 : per2;
}

struct NttIsa {
  unsigned lanes;
  void (*direct)(const DirectJob&, BabyBear* local);  // single thread; local: n * c elements
  void (*four_step)(const FourStepJob&);              // OpenMP inside when job.threads > 1
};

const NttIsa& isa_scalar();
const NttIsa& isa_avx2();    // ntt_avx2.cpp: call only when simd_level() >= Avx2
const NttIsa& isa_avx512();  // ntt_avx512.cpp: call only when simd_level() == Avx512

// 64-byte aligned, uninitialised; throws Error(OutOfMemory). Defined in ntt_cpu.cpp so the ISA
// files instantiate no allocator code of their own.
BabyBear* alloc_elems(size_t n);
void free_elems(BabyBear* p) noexcept;

}  // namespace zkgpu::cpu::ntt_detail
