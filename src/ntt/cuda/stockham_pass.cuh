// The Stockham pass kernel of the GPU NTT and the constants and index maps it shares with its
// host driver (ntt.cu, the only file that includes this one; the algorithm is described there).
#pragma once
#include <cstddef>
#include <cstdint>

#include "runtime/cuda/runtime.cuh"
#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::cuda::stockham {

constexpr unsigned kLogLanes = 4;
constexpr unsigned kLanes = 1u << kLogLanes;  // lanes per block tile
constexpr unsigned kMaxSubLog = 4;            // register radix <= 16
constexpr unsigned kMaxPassLog = 10;          // shared tile <= 16 * 1024 words = 64 KiB

// Root tables, per direction: w27^x (x < 2^14), w27^(2^14 y) (y < 2^13), so any root of unity of
// order <= 2^27 is w27^E = lo[E mod 2^14] * hi[E >> 14]; and small[2^L + e] = g_L^e for L <= 10
// (the in-block twiddles). One set serves every log_n, so it is built once per device.
constexpr unsigned kLoBits = 14;
constexpr size_t kLoSize = size_t(1) << kLoBits;
constexpr size_t kHiSize = size_t(1) << (BabyBear::TWO_ADICITY - kLoBits);
constexpr size_t kSmallSize = size_t(2) << kMaxPassLog;
constexpr size_t kDirWords = kLoSize + kHiSize + kSmallSize;

struct PassParams {
  const BabyBear* src;
  BabyBear* dst;
  const uint32_t* tw;  // root tables of this direction
  uint64_t cols;
  uint64_t lanes;     // U = J * cols
  uint64_t groups;    // J = N / R
  uint64_t src_rows;  // rows present in src; rows beyond are zero (zero-padded LDE)
  unsigned log_n;
  unsigned log_ns;
  int cols_log;         // log2(cols) when cols is a power of two, else -1
  unsigned load_mode;   // 0: none, 1: times scale_c, 2: times scale_c * g^row (g^(2^b) = gpow[b])
  unsigned store_geom;  // 1: output row times scale_c * g^row (last pass only)
  unsigned staged;      // 1: pass 0 with cols | 16, output tile staged through shared memory
  uint32_t scale_c;
  uint32_t reg_w[16];  // w_16^j for the in-register DIF
  uint32_t gpow[BabyBear::TWO_ADICITY + 1];
};

template <unsigned LR>
struct PassShape {
  static constexpr unsigned R = 1u << LR;
  static constexpr unsigned S = (LR + kMaxSubLog - 1) / kMaxSubLog;  // sub-stages
  static constexpr unsigned sub_log(unsigned s) { return LR / S + (s < LR % S ? 1u : 0u); }
  static constexpr unsigned L0 = sub_log(0);  // the largest
  static constexpr unsigned V = 1u << L0;     // values per thread
  static constexpr unsigned NT = kLanes * R / V;
  // Words of the row-padded layout (LeanPadded), which is larger than the swizzled one.
  static constexpr size_t smem_bytes = size_t(kLanes) * (R + (R >> L0)) * sizeof(uint32_t);
  static_assert(LR >= 1 && LR <= kMaxPassLog && S <= 3, "pass radix out of range");
};

// Shared slot of (position, lane). Row `pos` holds 16 words = half the banks; the half is chosen
// by bit 0 of pos xor bit L0 of pos and the lane is xored with pos bits 1..4. Then the warp's two
// positions differ in half whether they differ in bit 0 (reads, later writes) or in bit L0 (the
// first sub-stage's writes), and 32 consecutive positions of one lane (the staged copy-out) hit
// 32 different banks.
__device__ __forceinline__ unsigned swz(unsigned pos, unsigned t, unsigned l0) {
  return ((pos ^ ((pos >> l0) & 1u)) << kLogLanes) + (t ^ ((pos >> 1) & (kLanes - 1)));
}

// Row-padded layout (LeanPadded): row slot pos + (pos >> l0), lane t at column t. Every position a
// thread touches is (its own base) + (a compile-time multiple of 2^l0) with no carry into the
// bits below l0, so the slot is a per-thread base plus an immediate offset: no per-access address
// arithmetic. A warp's two groups land in row slots of different parity (distance 2^l0 + 1 on the
// first write, 1 elsewhere), hence in different bank halves. Not used for the staged copy-out,
// where 32 positions of one lane would share two banks.
template <bool kPad>
__device__ __forceinline__ unsigned slot(unsigned pos, unsigned t, unsigned l0) {
  if constexpr (kPad) {
    return ((pos + (pos >> l0)) << kLogLanes) + t;
  } else {
    return swz(pos, t, l0);
  }
}

// a * b with a < 2p, b < p, result in (0, 2p): Montgomery reduction without the final
// correction (hi - uh lies in (-p, p), so + p stays below 2p < 2^32).
__device__ __forceinline__ uint32_t monty_mul_lazy(uint32_t a, uint32_t b) {
  const uint32_t lo = a * b, hi = __umulhi(a, b);
  const uint32_t t = lo * BabyBear::MU, uh = __umulhi(t, BabyBear::P);
  return hi - uh + BabyBear::P;
}

__device__ __forceinline__ BabyBear root27(const uint32_t* tw, uint32_t e) {
  return BabyBear{__ldg(tw + (e & (kLoSize - 1)))} * BabyBear{__ldg(tw + kLoSize + (e >> kLoBits))};
}

// scale_c * g^e for e < 2^27, from the table of g^(2^b).
__device__ __forceinline__ BabyBear geometric(const PassParams& p, uint32_t e) {
  BabyBear acc{p.scale_c};
  ZKGPU_UNROLL
  for (unsigned b = 0; b < BabyBear::TWO_ADICITY; ++b)
    if ((e >> b) & 1u) acc = acc * BabyBear{p.gpow[b]};
  return acc;
}

// Radix-2 decimation in frequency on 2^L registers, natural order in: afterwards v[brev(m)] is
// X_m = sum_i v_i w^(i m), w = w_{2^L}. Twiddle w_{2 len}^j = w_16^(j * 16 / (2 len)); j = 0 is 1.
// kLean: a twiddled difference is formed as x - y + p in [0, 2p) (one add, no correction); the
// Montgomery product with a canonical twiddle is canonical again since (2p) p < p 2^32.
template <unsigned L, unsigned S, bool kLean>
__device__ __forceinline__ void dif_stage(BabyBear* v, const PassParams& p) {
  constexpr unsigned r = 1u << L, len = r >> (S + 1);
  ZKGPU_UNROLL
  for (unsigned b = 0; b < r / 2; ++b) {  // one flat loop so that it fully unrolls
    const unsigned j = b % len, lo = (b / len) * 2 * len + j;
    const BabyBear x = v[lo], y = v[lo + len];
    v[lo] = x + y;
    BabyBear d;
    if (j == 0) {
      d = x - y;
    } else if constexpr (kLean) {
      d = BabyBear{x.v - y.v + BabyBear::P} * BabyBear{p.reg_w[j * (16 / (2 * len))]};
    } else {
      d = (x - y) * BabyBear{p.reg_w[j * (16 / (2 * len))]};
    }
    v[lo + len] = d;
  }
  if constexpr (S + 1 < L) dif_stage<L, S + 1, kLean>(v, p);
}

template <unsigned L, bool kLean>
__device__ __forceinline__ void dft_dif(BabyBear* v, const PassParams& p) {
  if constexpr (L > 0) dif_stage<L, 0, kLean>(v, p);
}

template <unsigned L>
__device__ __forceinline__ constexpr unsigned brev(unsigned x) {
  unsigned r = 0;
  ZKGPU_UNROLL
  for (unsigned i = 0; i < L; ++i) r |= ((x >> i) & 1u) << (L - 1 - i);
  return r;
}

// Writes the outputs of sub-stage with radix 2^L and in-block Ns = 2^NSL to shared memory.
template <unsigned LR, unsigned L, unsigned NSL, bool kPad>
__device__ __forceinline__ void write_shared(const BabyBear* v, uint32_t* sm, unsigned tid) {
  using Sh = PassShape<LR>;
  constexpr unsigned r = 1u << L, GPT = Sh::V >> L, ns = 1u << NSL;
  const unsigned t = tid % kLanes;
  ZKGPU_UNROLL
  for (unsigned mg = 0; mg < GPT; ++mg) {
    const unsigned g = (tid + mg * Sh::NT) / kLanes;
    const unsigned base = ((g >> NSL) << (NSL + L)) + (g & (ns - 1));
    ZKGPU_UNROLL
    for (unsigned m = 0; m < r; ++m) sm[slot<kPad>(base + m * ns, t, Sh::L0)] = v[mg * r + brev<L>(m)].v;
  }
}

// Reads the inputs of sub-stage (radix 2^L, in-block Ns = 2^NSL >= 2), twiddles, DFT.
template <unsigned LR, unsigned L, unsigned NSL, bool kPad, bool kLean>
__device__ __forceinline__ void read_shared(BabyBear* v, const uint32_t* sm, unsigned tid, const PassParams& p) {
  using Sh = PassShape<LR>;
  constexpr unsigned r = 1u << L, GPT = Sh::V >> L, ns = 1u << NSL;
  const unsigned t = tid % kLanes;
  const uint32_t* small = p.tw + kLoSize + kHiSize + (ns << L);  // w_{ns r}^e
  ZKGPU_UNROLL
  for (unsigned mg = 0; mg < GPT; ++mg) {
    const unsigned g = (tid + mg * Sh::NT) / kLanes;
    const unsigned k = g & (ns - 1);
    ZKGPU_UNROLL
    for (unsigned q = 0; q < r; ++q) {
      BabyBear x{sm[slot<kPad>(g + q * (Sh::R >> L), t, Sh::L0)]};
      if (q != 0) x = x * BabyBear{__ldg(small + q * k)};
      v[mg * r + q] = x;
    }
    dft_dif<L, kLean>(v + mg * r, p);
  }
}

// The last sub-stage's direct store: positions g + m R/r of the lane, output row
// (jj / Ns) M + k + pos Ns.
template <unsigned LR, unsigned L, bool kLean>
__device__ __forceinline__ void write_global(const BabyBear* v, unsigned tid, uint64_t u, uint64_t jj, uint64_t c,
                                             bool live, const PassParams& p) {
  using Sh = PassShape<LR>;
  constexpr unsigned r = 1u << L, GPT = Sh::V >> L;
  const uint64_t ns = uint64_t(1) << p.log_ns;
  const uint64_t row0 = ((jj >> p.log_ns) << (p.log_ns + LR)) + (jj & (ns - 1));
  const uint64_t obase = row0 * p.cols + c, ostride = ns * p.cols;
  (void)u;
  ZKGPU_UNROLL
  for (unsigned mg = 0; mg < GPT; ++mg) {
    const unsigned g = (tid + mg * Sh::NT) / kLanes;
    BabyBear out[r];
    ZKGPU_UNROLL
    for (unsigned m = 0; m < r; ++m) out[m] = v[mg * r + brev<L>(m)];
    if (p.store_geom) {
      // Last pass: row0 = jj and row = jj + (g + m R/r) Ns, so the factor steps by g^(N/r).
      BabyBear f = geometric(p, static_cast<uint32_t>(jj + uint64_t(g) * ns));
      const BabyBear step{p.gpow[p.log_n - L]};
      ZKGPU_UNROLL
      for (unsigned m = 0; m < r; ++m) {
        out[m] = out[m] * f;
        f = f * step;
      }
    }
    if (live) {
      if constexpr (kLean) {
        // Offsets below rows * cols < 2^32 (the lean forms' precondition): one 32-bit
        // multiply-add per store instead of 64-bit index arithmetic.
        BabyBear* dp = p.dst + obase;
        const uint32_t os = static_cast<uint32_t>(ostride), o0 = g * os, ostep = (Sh::R >> L) * os;
        ZKGPU_UNROLL
        for (unsigned m = 0; m < r; ++m) dp[o0 + m * ostep] = out[m];
      } else {
        ZKGPU_UNROLL
        for (unsigned m = 0; m < r; ++m) p.dst[obase + (g + uint64_t(m) * (Sh::R >> L)) * ostride] = out[m];
      }
    }
  }
}

// kVar, the kernel form (NttKernelForm in api.hpp): 0 Reference; 1 Lean: 32-bit offsets (only
// when rows * cols < 2^32), the zero-padding test hoisted to one count per thread, lazy
// differences before twiddle products and a lazy twiddle chain; 2 LeanPadded: Lean plus the
// row-padded shared layout (never with a staged store).
template <unsigned LR, unsigned kVar>
__global__ void __launch_bounds__(PassShape<LR>::NT) ntt_pass_kernel(const __grid_constant__ PassParams p) {
  using Sh = PassShape<LR>;
  constexpr unsigned R = Sh::R, L0 = Sh::L0, R0 = 1u << L0;
  constexpr bool kLean = kVar >= 1, kPad = kVar == 2;
  extern __shared__ uint32_t sm[];

  const unsigned tid = threadIdx.x;
  const unsigned t = tid % kLanes;
  const uint64_t u0 = uint64_t(blockIdx.x) * kLanes;
  const uint64_t u = u0 + t;
  const bool live = u < p.lanes;
  uint64_t jj, c;
  if (p.cols_log >= 0) {
    jj = u >> p.cols_log;
    c = u & (p.cols - 1);
  } else if constexpr (kLean) {
    const uint32_t u32 = static_cast<uint32_t>(u), c32 = static_cast<uint32_t>(p.cols);
    jj = u32 / c32;
    c = u32 - static_cast<uint32_t>(jj) * c32;
  } else {
    jj = u / p.cols;
    c = u - jj * p.cols;
  }

  BabyBear v[Sh::V];
  {
    // Sub-stage 0: one group per thread, positions g + q R/R0.
    const unsigned g = tid / kLanes;
    const uint64_t istride = uint64_t(R / R0) * p.lanes;
    const uint64_t ibase = u + uint64_t(g) * p.lanes;
    const uint64_t row_base = jj + uint64_t(g) * p.groups, row_stride = uint64_t(R / R0) * p.groups;
    if constexpr (kLean) {
      // Rows row_base + q N/R0 increase with q, so the present ones are q < qlim.
      unsigned qlim = 0;
      if (live && row_base < p.src_rows) {
        const uint64_t need = (p.src_rows - row_base + row_stride - 1) >> (p.log_n - L0);
        qlim = need < R0 ? static_cast<unsigned>(need) : R0;
      }
      // A walking pointer: one 64-bit add per load (indexing sp[q * is] made nvcc rebuild the
      // full address from the parameter for every load).
      const BabyBear* sp = p.src + (live ? ibase : 0);
      ZKGPU_UNROLL
      for (unsigned q = 0; q < R0; ++q, sp += istride) v[q] = q < qlim ? *sp : BabyBear::zero();
    } else {
      ZKGPU_UNROLL
      for (unsigned q = 0; q < R0; ++q) {
        const bool present = live && row_base + q * row_stride < p.src_rows;
        v[q] = present ? p.src[ibase + q * istride] : BabyBear::zero();
      }
    }
    if (p.load_mode == 1) {
      const BabyBear sc{p.scale_c};
      ZKGPU_UNROLL
      for (unsigned q = 0; q < R0; ++q) v[q] = v[q] * sc;
    } else if (p.load_mode == 2) {
      // row = row_base + q (R/R0) J and (R/R0) J = N/R0.
      BabyBear f = geometric(p, static_cast<uint32_t>(row_base));
      const BabyBear step{p.gpow[p.log_n - L0]};
      ZKGPU_UNROLL
      for (unsigned q = 0; q < R0; ++q) {
        v[q] = v[q] * f;
        f = f * step;
      }
    }
    if (p.log_ns > 0) {
      // w_M^(i k) with i = g + q R/R0: base w_M^(g k) times (w_M^((R/R0) k))^q; exponents < M.
      const unsigned sh = BabyBear::TWO_ADICITY - (p.log_ns + LR);
      const uint32_t k = static_cast<uint32_t>(jj & ((uint64_t(1) << p.log_ns) - 1));
      BabyBear f = root27(p.tw, (g * k) << sh);
      const BabyBear step = root27(p.tw, ((R / R0) * k) << sh);
      if constexpr (kLean) {
        // f stays in [0, 2p) (lazy chain against the canonical step); v f is canonical.
        uint32_t fl = f.v;
        ZKGPU_UNROLL
        for (unsigned q = 0; q < R0; ++q) {
          v[q] = v[q] * BabyBear{fl};
          if (q + 1 < R0) fl = monty_mul_lazy(fl, step.v);
        }
      } else {
        ZKGPU_UNROLL
        for (unsigned q = 0; q < R0; ++q) {
          v[q] = v[q] * f;
          f = f * step;
        }
      }
    }
    dft_dif<L0, kLean>(v, p);
  }

  if constexpr (Sh::S == 1) {
    if (kPad || !p.staged) {
      write_global<LR, L0, kLean>(v, tid, u, jj, c, live, p);
      return;
    }
    write_shared<LR, L0, 0, false>(v, sm, tid);
  } else {
    write_shared<LR, L0, 0, kPad>(v, sm, tid);
    constexpr unsigned L1 = Sh::sub_log(1);
    __syncthreads();
    read_shared<LR, L1, L0, kPad, kLean>(v, sm, tid, p);
    if constexpr (Sh::S == 2) {
      if (kPad || !p.staged) {
        write_global<LR, L1, kLean>(v, tid, u, jj, c, live, p);
        return;
      }
      __syncthreads();
      write_shared<LR, L1, L0, kPad>(v, sm, tid);
    } else {
      __syncthreads();
      write_shared<LR, L1, L0, kPad>(v, sm, tid);
      constexpr unsigned L2 = Sh::sub_log(2);
      __syncthreads();
      read_shared<LR, L2, L0 + L1, kPad, kLean>(v, sm, tid, p);
      if (kPad || !p.staged) {
        write_global<LR, L2, kLean>(v, tid, u, jj, c, live, p);
        return;
      }
      __syncthreads();
      write_shared<LR, L2, L0 + L1, kPad>(v, sm, tid);
    }
  }

  // Staged store (pass 0, Ns = 1, cols = 2^cols_log < 16, lanes a multiple of 16): the tile's
  // output is the contiguous chunk of rows jj0 .. jj0 + 16/cols, written in address order.
  // Never reached with kPad (a staged pass never takes LeanPadded).
  if constexpr (!kPad) {
    __syncthreads();
    const unsigned cl = static_cast<unsigned>(p.cols_log);
    const uint64_t chunk = (u0 >> cl) << (cl + LR);
    ZKGPU_UNROLL
    for (unsigned m = 0; m < Sh::V; ++m) {
      const unsigned e = tid + m * Sh::NT;
      const unsigned col = e & ((1u << cl) - 1), pos = (e >> cl) & (R - 1), jl = e >> (cl + LR);
      p.dst[chunk + e] = BabyBear{sm[swz(pos, (jl << cl) | col, L0)]};
    }
  }
}

}  // namespace zkgpu::cuda::stockham
