// BabyBear NTT on the GPU: a Stockham (autosort) formulation, natural order in and out, no
// bit-reversal pass.
//
// Global structure. N = 2^n rows is split into passes of radix R = 2^LR (LR <= 10, balanced, so
// 2^24 = 2^8 * 2^8 * 2^8 and 2^20 = 2^10 * 2^10). Pass p has Ns = product of the earlier radices
// and M = Ns * R. With J = N / R butterfly groups and the column index c as a batch dimension,
// lane u = jj * cols + c (jj < J) and position i < R:
//     load      x[(jj + i J) cols + c] = src[u + i U],   U = J cols (the number of lanes)
//     twiddle   x_i *= w_M^(i k),  k = jj mod Ns       (pass 0: k = 0, no twiddle)
//     DFT_R     X_m = sum_i x_i w_R^(i m)
//     store     dst[((jj / Ns) M + k + m Ns) cols + c] = X_m
// After the last pass (Ns R = N) the output is the natural-order DFT. Only the last pass has the
// same input and output address set per lane, so it is the one pass that may run in place; earlier
// passes ping-pong through a scratch buffer.
//
// Block structure. A block owns 16 consecutive lanes ("tile", so every global access is a
// 64-byte run) and all R positions of each: 16 R words in shared memory. The R-point DFT inside the
// block is again Stockham, in sub-stages of radix r <= 16: each thread takes r positions of one
// lane into registers, applies the sub-stage twiddle, runs a radix-2 DIF in registers (its
// bit-reversed output is only a renaming of registers), and writes back. The first sub-stage loads
// straight from global memory (16 independent loads per thread in flight) with the global twiddle,
// the coset factor or the 1/n scale fused in; the last one stores straight to global memory,
// except in pass 0 with cols < 16 where the output tile is one contiguous chunk and is staged
// through shared memory so the stores are coalesced. The shared layout is XOR-swizzled so that
// every access phase is free of bank conflicts (see swz).
//
// stockham_model.py next to this file is an executable model of exactly these index maps
// (planner, sub-stages, swizzle, staging, cols, coset, inverse, zero-padded LDE), checked against
// a naive DFT.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ntt/cuda/api.hpp"
#include "ntt/cuda/ntt.cuh"
#include "runtime/cuda/runtime.cuh"
#include "runtime/device_caches.hpp"

namespace zkgpu::cuda {
namespace {

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

// ---- host side ----------------------------------------------------------------------------------

std::vector<unsigned> plan_passes(unsigned log_n) {
  std::vector<unsigned> lr;
  if (log_n == 0) return lr;
  const unsigned np = (log_n + kMaxPassLog - 1) / kMaxPassLog;
  for (unsigned i = 0; i < np; ++i) lr.push_back(log_n / np + (i < log_n % np ? 1u : 0u));
  return lr;
}

// kVar of a call's passes (a staged first pass takes 1 instead of 2). Auto: LeanPadded, the fastest
// on the H200, unless the lean forms' 32-bit offsets cannot address the matrix.
unsigned kernel_var(NttKernelForm form, unsigned log_n, size_t cols) {
  const bool fits32 = (uint64_t(cols) << log_n) <= 0xffffffffull;
  switch (form) {
    case NttKernelForm::Auto: return fits32 ? 2u : 0u;
    case NttKernelForm::Reference: return 0u;
    case NttKernelForm::Lean:
    case NttKernelForm::LeanPadded:
      if (!fits32)
        throw Error(ErrorCode::InvalidArgument, "NTT: the lean kernel forms need rows * cols < 2^32, got 2^" +
                                                    std::to_string(log_n) + " x " + std::to_string(cols));
      return form == NttKernelForm::Lean ? 1u : 2u;
  }
  throw Error(ErrorCode::InvalidArgument, "NTT: unknown kernel form " + std::to_string(static_cast<int>(form)));
}

template <unsigned LR, unsigned kVar>
void launch_pass(const PassParams& p, cudaStream_t s) {
  using Sh = PassShape<LR>;
  const uint64_t blocks = (p.lanes + kLanes - 1) / kLanes;
  if (blocks > 0x7fffffffull) throw Error(ErrorCode::InvalidArgument, "NTT: matrix too large for one launch");
  ntt_pass_kernel<LR, kVar><<<static_cast<unsigned>(blocks), Sh::NT, Sh::smem_bytes, s>>>(p);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

template <unsigned LR>
void launch_pass(unsigned var, const PassParams& p, cudaStream_t s) {
  switch (var) {
    case 0: return launch_pass<LR, 0>(p, s);
    case 1: return launch_pass<LR, 1>(p, s);
    case 2: return launch_pass<LR, 2>(p, s);
    default: throw Error(ErrorCode::InvalidArgument, "NTT: internal kernel form out of range");
  }
}

void launch_pass(unsigned lr, unsigned var, const PassParams& p, cudaStream_t s) {
  switch (lr) {
    case 1: return launch_pass<1>(var, p, s);
    case 2: return launch_pass<2>(var, p, s);
    case 3: return launch_pass<3>(var, p, s);
    case 4: return launch_pass<4>(var, p, s);
    case 5: return launch_pass<5>(var, p, s);
    case 6: return launch_pass<6>(var, p, s);
    case 7: return launch_pass<7>(var, p, s);
    case 8: return launch_pass<8>(var, p, s);
    case 9: return launch_pass<9>(var, p, s);
    case 10: return launch_pass<10>(var, p, s);
    default: throw Error(ErrorCode::InvalidArgument, "NTT: internal pass radix out of range");
  }
}

template <unsigned LR>
void allow_smem() {
  using Sh = PassShape<LR>;
  const int bytes = static_cast<int>(Sh::smem_bytes);
  ZKGPU_CUDA_CHECK(cudaFuncSetAttribute(ntt_pass_kernel<LR, 0>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  ZKGPU_CUDA_CHECK(cudaFuncSetAttribute(ntt_pass_kernel<LR, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  ZKGPU_CUDA_CHECK(cudaFuncSetAttribute(ntt_pass_kernel<LR, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

std::vector<uint32_t> build_root_tables() {
  std::vector<uint32_t> out(2 * kDirWords);
  for (int dir = 0; dir < 2; ++dir) {
    uint32_t* lo = out.data() + dir * kDirWords;
    uint32_t* hi = lo + kLoSize;
    uint32_t* small = hi + kHiSize;
    BabyBear w = BabyBear::two_adic_generator(BabyBear::TWO_ADICITY);
    if (dir) w = w.inverse();
    BabyBear x = BabyBear::one();
    for (size_t i = 0; i < kLoSize; ++i, x = x * w) lo[i] = x.v;
    const BabyBear wh = x;  // w^(2^14)
    x = BabyBear::one();
    for (size_t i = 0; i < kHiSize; ++i, x = x * wh) hi[i] = x.v;
    small[0] = BabyBear::one().v;  // unused slot
    for (unsigned l = 0; l <= kMaxPassLog; ++l) {
      BabyBear g = BabyBear::two_adic_generator(l);
      if (dir) g = g.inverse();
      BabyBear y = BabyBear::one();
      for (size_t e = 0; e < (size_t(1) << l); ++e, y = y * g) small[(size_t(1) << l) + e] = y.v;
    }
  }
  return out;
}

// Per-device root tables, built on first use. Freed only by zkgpu::release_gpu_caches(), never by
// a static destructor (freeing at exit would race the CUDA runtime's own teardown).
std::mutex g_tables_mutex;
std::unordered_map<int, uint32_t*> g_tables;

void release_root_tables() {
  std::lock_guard<std::mutex> lock(g_tables_mutex);
  for (auto& [dev, table] : g_tables) cudaFree(table);  // nothing useful to do with an error here
  g_tables.clear();
}

const uint32_t* device_root_tables() {
  int dev = 0;
  ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(g_tables_mutex);
  if (g_tables.empty()) ::zkgpu::runtime::register_device_cache(&release_root_tables);
  auto it = g_tables.find(dev);
  if (it != g_tables.end()) return it->second;
  const std::vector<uint32_t> host = build_root_tables();
  uint32_t* d = nullptr;
  ZKGPU_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d), host.size() * sizeof(uint32_t)));
  try {
    // A copy from pageable memory may return before its DMA lands, and the transforms run on the
    // callers' non-blocking streams, which do not wait for the legacy stream: wait for the copy.
    ZKGPU_CUDA_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
    allow_smem<1>(), allow_smem<2>(), allow_smem<3>(), allow_smem<4>(), allow_smem<5>();
    allow_smem<6>(), allow_smem<7>(), allow_smem<8>(), allow_smem<9>(), allow_smem<10>();
  } catch (...) {
    cudaFree(d);
    throw;
  }
  g_tables.emplace(dev, d);
  return d;
}

size_t checked_elems(unsigned log_n, size_t cols, const char* what) {
  if (log_n > BabyBear::TWO_ADICITY) {
    throw Error(ErrorCode::InvalidArgument,
                std::string(what) + ": log_n = " + std::to_string(log_n) + " exceeds BabyBear two-adicity 27");
  }
  if (cols == 0) throw Error(ErrorCode::InvalidArgument, std::string(what) + ": cols must be >= 1");
  size_t elems = 0, bytes = 0;
  if (__builtin_mul_overflow(size_t(1) << log_n, cols, &elems) ||
      __builtin_mul_overflow(elems, sizeof(BabyBear), &bytes)) {
    throw Error(ErrorCode::InvalidArgument, std::string(what) + ": 2^" + std::to_string(log_n) + " x " +
                                                std::to_string(cols) + " matrix overflows the address space");
  }
  return elems;
}

// Runs the passes from src (src_rows rows present, the rest zero) to dst.
void run_ntt(const BabyBear* src, uint64_t src_rows, BabyBear* dst, BabyBear* scratch, unsigned log_n, size_t cols,
             bool inverse, BabyBear shift, NttKernelForm form, cudaStream_t s) {
  if (shift.is_zero()) throw Error(ErrorCode::InvalidArgument, "NTT: the coset shift must be nonzero");
  const unsigned var = kernel_var(form, log_n, cols);
  const std::vector<unsigned> plan = plan_passes(log_n);
  const uint64_t n = uint64_t(1) << log_n;
  if (plan.empty()) {  // one row: every transform is the identity
    if (src != dst) ZKGPU_CUDA_CHECK(cudaMemcpyAsync(dst, src, cols * sizeof(BabyBear), cudaMemcpyDeviceToDevice, s));
    return;
  }
  const uint32_t* tw = device_root_tables() + (inverse ? kDirWords : 0);

  PassParams base{};
  base.tw = tw;
  base.cols = cols;
  base.log_n = log_n;
  base.cols_log = (cols & (cols - 1)) == 0 ? std::countr_zero(cols) : -1;
  {
    BabyBear w16 = BabyBear::two_adic_generator(4);
    if (inverse) w16 = w16.inverse();
    BabyBear x = BabyBear::one();
    for (int j = 0; j < 16; ++j, x = x * w16) base.reg_w[j] = x.v;
  }
  const bool has_shift = shift != BabyBear::one();
  const BabyBear g = inverse ? shift.inverse() : shift;
  {
    BabyBear x = g;
    for (unsigned b = 0; b <= BabyBear::TWO_ADICITY; ++b, x = x.square()) base.gpow[b] = x.v;
  }
  const BabyBear n_inv = BabyBear::from_u64(n).inverse();

  // Non-last passes ping-pong between two buffers, neither of them the pass's input; the last
  // pass writes dst (in place when its input is already there).
  BabyBear* bufs[2] = {src == dst ? scratch : dst, src == dst ? dst : scratch};
  const BabyBear* in = src;
  unsigned log_ns = 0;
  for (size_t i = 0; i < plan.size(); ++i) {
    const unsigned lr = plan[i];
    const bool first = i == 0, last = i + 1 == plan.size();
    PassParams p = base;
    p.src = in;
    p.dst = last ? dst : bufs[i % 2];
    if (p.dst == nullptr) throw Error(ErrorCode::InvalidArgument, "NTT: scratch buffer required but null");
    p.groups = n >> lr;
    p.lanes = p.groups * cols;
    p.src_rows = first ? src_rows : n;
    p.log_ns = log_ns;
    p.scale_c = BabyBear::one().v;
    if (first && !inverse && has_shift) {
      p.load_mode = 2;
    } else if (first && inverse && !has_shift) {
      p.load_mode = 1;
      p.scale_c = n_inv.v;
    }
    if (last && inverse && has_shift) {
      p.store_geom = 1;
      p.scale_c = n_inv.v;
    }
    p.staged = (first && !last && p.cols_log >= 0 && cols < kLanes && p.lanes % kLanes == 0) ? 1u : 0u;
    // The row-padded layout cannot serve the staged copy-out; that pass takes the Lean form.
    launch_pass(lr, (var == 2 && p.staged) ? 1u : var, p, s);
    in = p.dst;
    log_ns += lr;
  }
}

// Stream-ordered scratch, freed on the stream even when a launch throws.
class StreamScratch {
 public:
  StreamScratch(size_t elems, cudaStream_t s) : s_(s) {
    if (elems == 0) return;
    require_device_memory(elems * sizeof(BabyBear), "NTT scratch buffer");
    int dev = 0, pools = 0;
    ZKGPU_CUDA_CHECK(cudaGetDevice(&dev));
    ZKGPU_CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev));
    async_ = pools != 0;
    if (async_) {
      ZKGPU_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&p_), elems * sizeof(BabyBear), s));
    } else {
      ZKGPU_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p_), elems * sizeof(BabyBear)));
    }
  }
  ~StreamScratch() {
    if (!p_) return;
    if (async_) {
      cudaFreeAsync(p_, s_);
    } else {
      cudaStreamSynchronize(s_);  // the kernels using it must finish before a plain cudaFree
      cudaFree(p_);
    }
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  BabyBear* get() const { return p_; }

 private:
  cudaStream_t s_;
  BabyBear* p_ = nullptr;
  bool async_ = false;
};

}  // namespace

// ---- device-pointer API -------------------------------------------------------------------------

unsigned ntt_pass_count(unsigned log_n) { return static_cast<unsigned>(plan_passes(log_n).size()); }

size_t ntt_scratch_elems(unsigned log_n, size_t cols) {
  const size_t elems = checked_elems(log_n, cols, "NTT");
  return ntt_pass_count(log_n) >= 2 ? elems : 0;
}

size_t lde_scratch_elems(unsigned log_n, size_t cols, unsigned log_blowup) {
  if (log_blowup > BabyBear::TWO_ADICITY || log_n + log_blowup > BabyBear::TWO_ADICITY) {
    throw Error(ErrorCode::InvalidArgument,
                "LDE: log_n + log_blowup = " + std::to_string(log_n + log_blowup) + " exceeds BabyBear two-adicity 27");
  }
  const size_t elems = checked_elems(log_n + log_blowup, cols, "LDE");
  return ntt_pass_count(log_n + log_blowup) >= 3 ? elems : 0;
}

void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, BabyBear* d_scratch,
                cudaStream_t s, NttKernelForm form) {
  const size_t need = ntt_scratch_elems(log_n, cols);
  if (need && !d_scratch) throw Error(ErrorCode::InvalidArgument, "ntt_device: this size needs a scratch buffer");
  run_ntt(d_matrix, uint64_t(1) << log_n, d_matrix, d_scratch, log_n, cols, inverse, shift, form, s);
}

void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, cudaStream_t s,
                NttKernelForm form) {
  StreamScratch scratch(ntt_scratch_elems(log_n, cols), s);
  ntt_device(d_matrix, log_n, cols, inverse, shift, scratch.get(), s, form);
}

void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, BabyBear* d_scratch, cudaStream_t s, NttKernelForm form) {
  const size_t need = lde_scratch_elems(log_n, cols, log_blowup);
  if (need && !d_scratch)
    throw Error(ErrorCode::InvalidArgument, "lde_from_coeffs_device: this size needs a scratch buffer");
  if (d_out == d_coeffs)
    throw Error(ErrorCode::InvalidArgument, "lde_from_coeffs_device: d_out must not alias d_coeffs");
  run_ntt(d_coeffs, uint64_t(1) << log_n, d_out, d_scratch, log_n + log_blowup, cols, false, shift, form, s);
}

void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, cudaStream_t s, NttKernelForm form) {
  StreamScratch scratch(lde_scratch_elems(log_n, cols, log_blowup), s);
  lde_from_coeffs_device(d_coeffs, log_n, cols, log_blowup, shift, d_out, scratch.get(), s, form);
}

// ---- host API (ntt/cuda/api.hpp) ----------------------------------------------------------------

void ntt_host(BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, NttKernelForm form) {
  if (shift.is_zero()) throw Error(ErrorCode::InvalidArgument, "NTT: the coset shift must be nonzero");
  const size_t elems = checked_elems(log_n, cols, "NTT");
  (void)kernel_var(form, log_n, cols);  // reject the form before any allocation
  const size_t scratch = ntt_scratch_elems(log_n, cols);
  require_device_memory((elems + scratch) * sizeof(BabyBear), "NTT (matrix + scratch)");
  Stream s;
  DeviceBuffer<BabyBear> d(elems), tmp(scratch);
  d.upload(matrix, elems, s);
  ntt_device(d.data(), log_n, cols, inverse, shift, tmp.data(), s, form);
  d.download(matrix, elems, s);
  s.sync();
}

void lde_from_coeffs_host(const BabyBear* coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                          BabyBear* out, NttKernelForm form) {
  if (shift.is_zero()) throw Error(ErrorCode::InvalidArgument, "LDE: the coset shift must be nonzero");
  const size_t scratch = lde_scratch_elems(log_n, cols, log_blowup);
  const size_t in_elems = checked_elems(log_n, cols, "LDE");
  const size_t out_elems = checked_elems(log_n + log_blowup, cols, "LDE");
  (void)kernel_var(form, log_n + log_blowup, cols);
  require_device_memory((in_elems + out_elems + scratch) * sizeof(BabyBear), "LDE (coefficients + output + scratch)");
  Stream s;
  DeviceBuffer<BabyBear> d_in(in_elems), d_out(out_elems), tmp(scratch);
  d_in.upload(coeffs, in_elems, s);
  lde_from_coeffs_device(d_in.data(), log_n, cols, log_blowup, shift, d_out.data(), tmp.data(), s, form);
  d_out.download(out, out_elems, s);
  s.sync();
}

}  // namespace zkgpu::cuda
