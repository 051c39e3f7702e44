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
// Block structure (the kernel is in stockham_pass.cuh). A block owns 16 consecutive lanes ("tile", so every global
// access is a 64-byte run) and all R positions of each: 16 R words in shared memory. The R-point DFT inside the block
// is again Stockham, in sub-stages of radix r <= 16: each thread takes r positions of one lane into registers, applies
// the sub-stage twiddle, runs a radix-2 DIF in registers (its bit-reversed output is only a renaming of registers), and
// writes back. The first sub-stage loads straight from global memory (16 independent loads per thread in flight) with
// the global twiddle, the coset factor or the 1/n scale fused in; the last one stores straight to global memory, except
// in pass 0 with cols < 16 where the output tile is one contiguous chunk and is staged through shared memory so the
// stores are coalesced. The shared layout is XOR-swizzled so that every access phase is free of bank conflicts (see
// swz).
//
// tools/models/stockham_model.py is an executable model of exactly these index maps
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
#include "ntt/cuda/stockham_pass.cuh"
#include "runtime/cuda/runtime.cuh"
#include "runtime/device_caches.hpp"

namespace zkgpu::cuda {
namespace {

using namespace stockham;  // the pass kernel, its parameters and constants

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

// ---- public device-pointer calls (ntt/cuda/api.hpp) ----------------------------------------------

void ntt_on_stream(BabyBear* d_matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift, void* stream) {
  ntt_device(d_matrix, log_n, cols, inverse, shift, static_cast<cudaStream_t>(stream));
}

void lde_from_coeffs_on_stream(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup,
                               BabyBear shift, BabyBear* d_out, void* stream) {
  lde_from_coeffs_device(d_coeffs, log_n, cols, log_blowup, shift, d_out, static_cast<cudaStream_t>(stream));
}

void coset_lde_on_stream(const BabyBear* d_evals, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                         BabyBear* d_out, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const size_t elems = checked_elems(log_n, cols, "coset LDE");
  StreamScratch coeffs(elems, s);
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(coeffs.get(), d_evals, elems * sizeof(BabyBear), cudaMemcpyDeviceToDevice, s));
  ntt_device(coeffs.get(), log_n, cols, true, BabyBear::one(), s);
  lde_from_coeffs_device(coeffs.get(), log_n, cols, log_blowup, shift, d_out, s);
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
