#include "ntt/cpu/ntt_cpu.hpp"

#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "ntt/cpu/ntt_kernels.hpp"
#include "ntt/cpu/ntt_plan.hpp"
#include "field/cpu/packed_scalar.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cpu {
namespace ntt_detail {

const NttIsa& isa_scalar() { return make_isa<PackedScalar>(); }

BabyBear* alloc_elems(size_t n) {
  // Large buffers (the four-step scratch) on transparent huge pages where the kernel allows it:
  // the passes read them with strides of many KiB, one TLB entry per 4 KiB page otherwise.
  constexpr size_t HUGE = size_t(2) << 20;
  const size_t align = n * sizeof(BabyBear) >= HUGE ? HUGE : 64;
  const size_t bytes = std::max<size_t>(align, (n * sizeof(BabyBear) + align - 1) & ~(align - 1));
  void* p = std::aligned_alloc(align, bytes);
  if (!p)
    throw Error(ErrorCode::OutOfMemory,
                "NTT: cannot allocate " + std::to_string(bytes >> 20) + " MiB of host memory for its work buffers");
#if defined(MADV_HUGEPAGE)
  if (align == HUGE) madvise(p, bytes, MADV_HUGEPAGE);  // advisory; failure only costs speed
#endif
  return static_cast<BabyBear*>(p);
}
void free_elems(BabyBear* p) noexcept { std::free(p); }

}  // namespace ntt_detail

namespace {

using namespace ntt_detail;

// Working-set target of one block (elements, 512 KiB): half of a 1 MiB L2, leaving room for the
// twiddle tables and the streaming rows; 2^16 and 2^18 measured no better on the dev machine.
constexpr size_t BLOCK_ELEMS = size_t(1) << 17;
// Below this many elements one thread does the whole transform (thread start-up costs more).
constexpr size_t PARALLEL_MIN_ELEMS = size_t(1) << 17;
constexpr unsigned SMALL_LOG_N = 4;

const NttIsa& select_isa() {
  switch (simd_level()) {
    case SimdLevel::Avx512: return isa_avx512();
    case SimdLevel::Avx2: return isa_avx2();
    case SimdLevel::Scalar: break;
  }
  return isa_scalar();
}

BabyBear root_of_unity(unsigned log_m, bool inverse) {
  BabyBear g = BabyBear::two_adic_generator(log_m);
  return inverse ? g.inverse() : g;
}

// Tables live for the life of the process (at most 2 * 28 of them, each built once), so the
// pointers handed out stay valid without reference counting.
class TwiddleCache {
 public:
  // DIT layers of a size-2^log_m transform: layer h at offset h - 1 holds w_{2h}^(+-k), k < h.
  const BabyBear* dit(unsigned log_m, bool inverse) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = dit_[inverse][log_m];
    if (!slot) {
      const size_t m = size_t(1) << log_m;
      slot = std::make_unique<BabyBear[]>(std::max<size_t>(m - 1, 1));
      slot[0] = BabyBear::one();
      for (size_t h = 1, lg = 1; h < m; h *= 2, ++lg) {
        BabyBear root = root_of_unity(unsigned(lg), inverse), pw = BabyBear::one();
        for (size_t k = 0; k < h; ++k, pw *= root) slot[h - 1 + k] = pw;
      }
    }
    return slot.get();
  }
  // w_n^(+-j) for j < 2^ceil(log_n / 2): the four-step twiddle steps.
  const BabyBear* steps(unsigned log_n, bool inverse) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = steps_[inverse][log_n];
    if (!slot) {
      const size_t count = size_t(1) << (log_n - log_n / 2);
      slot = std::make_unique<BabyBear[]>(count);
      BabyBear root = root_of_unity(log_n, inverse), pw = BabyBear::one();
      for (size_t j = 0; j < count; ++j, pw *= root) slot[j] = pw;
    }
    return slot.get();
  }

 private:
  std::mutex mu_;
  std::unique_ptr<BabyBear[]> dit_[2][BabyBear::TWO_ADICITY + 1];
  std::unique_ptr<BabyBear[]> steps_[2][BabyBear::TWO_ADICITY + 1];
};

// One cached work buffer: a prover repeats transforms of the same shapes, and fresh memory costs
// a page fault (and a kernel page clear) per page on every call. Buffers above KEEP_MAX_ELEMS
// are not kept, so the library never holds more than 128 MiB between calls.
class WorkPool {
 public:
  static constexpr size_t KEEP_MAX_ELEMS = size_t(1) << 25;

  BabyBear* acquire(size_t n, bool& pooled) {
    std::lock_guard<std::mutex> lock(mu_);
    pooled = !busy_ && n <= KEEP_MAX_ELEMS;
    if (!pooled) return alloc_elems(n);
    if (cap_ < n) {
      free_elems(buf_);
      buf_ = nullptr;
      cap_ = 0;
      buf_ = alloc_elems(n);
      cap_ = n;
    }
    busy_ = true;
    return buf_;
  }
  void release(BabyBear* p, bool pooled) {
    if (!pooled) {
      free_elems(p);
      return;
    }
    std::lock_guard<std::mutex> lock(mu_);
    busy_ = false;
  }

 private:
  std::mutex mu_;
  BabyBear* buf_ = nullptr;
  size_t cap_ = 0;
  bool busy_ = false;
};

WorkPool& work_pool() {
  static WorkPool pool;
  return pool;
}

struct WorkBuffer {
  BabyBear* p;
  bool pooled = false;
  explicit WorkBuffer(size_t n) : p(work_pool().acquire(n, pooled)) {}
  ~WorkBuffer() { work_pool().release(p, pooled); }
  WorkBuffer(const WorkBuffer&) = delete;
  WorkBuffer& operator=(const WorkBuffer&) = delete;
};

TwiddleCache& twiddles() {
  static TwiddleCache cache;
  return cache;
}

// first * base^k for k < count.
std::vector<BabyBear> power_table(BabyBear base, size_t count, BabyBear first = BabyBear::one()) {
  std::vector<BabyBear> t(count);
  BabyBear pw = first;
  for (size_t k = 0; k < count; ++k, pw *= base) t[k] = pw;
  return t;
}

size_t pow2_floor(size_t x) { return x == 0 ? 1 : size_t(1) << (63 - __builtin_clzll(x)); }
size_t pow2_ceil(size_t x) { return x <= 1 ? 1 : size_t(1) << (64 - __builtin_clzll(x - 1)); }

// Chunk width (in sub-transforms) for a pass of `count` column transforms of size `rows`, each c
// wide: fill a vector, split across threads, stay within the block budget (in that priority).
size_t chunk_width(size_t count, size_t rows, size_t c, size_t lanes, int threads) {
  size_t budget = pow2_floor(std::max<size_t>(1, BLOCK_ELEMS / (rows * c)));
  size_t vec = pow2_ceil((lanes + c - 1) / c);
  size_t par = threads > 1 ? std::max<size_t>(1, count / (2 * size_t(threads))) : count;
  return std::min(count, std::max(vec, std::min(budget, par)));
}

void run_direct(const NttIsa& isa, BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift) {
  const size_t n = size_t(1) << log_n;
  const bool shifted = shift != BabyBear::one();
  std::vector<BabyBear> in_scale, out_scale;
  if (!inverse && shifted) in_scale = power_table(shift, n);
  if (inverse) out_scale = power_table(shift.inverse(), n, BabyBear::from_canonical(uint32_t(n)).inverse());
  DirectJob job{matrix,
                cols,
                cols,
                log_n,
                twiddles().dit(log_n, inverse),
                in_scale.empty() ? nullptr : in_scale.data(),
                out_scale.empty() ? nullptr : out_scale.data()};

  // Groups of columns, each a whole transform in one block.
  const size_t gw = cols <= isa.lanes ? cols : std::max<size_t>(isa.lanes, BLOCK_ELEMS / n / isa.lanes * isa.lanes);
  const size_t groups = (cols + gw - 1) / gw;
  const int threads =
      (groups > 1 && n * cols >= PARALLEL_MIN_ELEMS) ? std::min<int>(omp_get_max_threads(), int(groups)) : 1;
  WorkBuffer locals(size_t(threads) * n * gw);
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (size_t g = 0; g < groups; ++g) {
    DirectJob gj = job;
    gj.mat = matrix + g * gw;
    gj.c = std::min(gw, cols - g * gw);
    isa.direct(gj, locals.p + size_t(omp_get_thread_num()) * n * gw);
  }
}

void run_four_step(const NttIsa& isa, BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift) {
  const unsigned log1 = log_n / 2, log2 = log_n - log1;
  const size_t n = size_t(1) << log_n, n1 = size_t(1) << log1, n2 = size_t(1) << log2;
  const bool shifted = shift != BabyBear::one();

  std::vector<BabyBear> row_in, col_init, row_out;
  FourStepJob job{};
  job.stride = cols;
  job.log1 = log1;
  job.log2 = log2;
  job.tw1 = twiddles().dit(log1, inverse);
  job.tw2 = twiddles().dit(log2, inverse);
  job.step = twiddles().steps(log_n, inverse);
  job.step_scalar = BabyBear::one();
  job.init_scalar = BabyBear::one();
  if (!inverse) {
    if (shifted) {
      row_in = power_table(shift.pow(n2), n1);
      col_init = power_table(shift, n2);
    }
  } else {
    job.init_scalar = BabyBear::from_canonical(uint32_t(n)).inverse();
    if (shifted) {
      BabyBear shift_inv = shift.inverse();
      job.step_scalar = shift_inv;
      row_out = power_table(shift_inv.pow(n1), n2);
    }
  }
  job.row_in_scale = row_in.empty() ? nullptr : row_in.data();
  job.col_init = col_init.empty() ? nullptr : col_init.data();
  job.row_out_scale = row_out.empty() ? nullptr : row_out.data();

  // Column groups bound the scratch (n * group width) and keep a pass-2 block near the budget.
  const size_t gmax = std::max<size_t>(isa.lanes, BLOCK_ELEMS >> log2);
  const size_t groups = (cols + gmax - 1) / gmax;
  const size_t gw = (cols + groups - 1) / groups;
  const int max_threads = omp_get_max_threads();

  struct GroupShape {
    size_t c, q, p;
    int threads;
  };
  auto shape_of = [&](size_t c) {
    GroupShape g{c, 0, 0, (n * c >= PARALLEL_MIN_ELEMS && max_threads > 1) ? max_threads : 1};
    g.q = chunk_width(n2, n1, c, isa.lanes, g.threads);
    g.p = chunk_width(n1, n2, c, isa.lanes, g.threads);
    return g;
  };
  // At most two group widths: gw, and a narrower last group.
  const GroupShape full = shape_of(gw), last = shape_of(cols - (groups - 1) * gw);
  size_t local_elems = 0;
  int threads = 1;
  for (const GroupShape& g : {full, last}) {
    local_elems = std::max(local_elems, four_step_local_elems(log1, log2, g.c, g.q, g.p));
    threads = std::max(threads, g.threads);
  }
  local_elems = (local_elems + 15) & ~size_t(15);  // keep every thread's block 64-byte aligned
  WorkBuffer work(n * gw + size_t(threads) * local_elems);
  job.scratch = work.p;
  job.locals = work.p + n * gw;
  job.local_elems = local_elems;
  for (size_t g0 = 0; g0 < cols; g0 += gw) {
    const GroupShape& g = cols - g0 < gw ? last : full;
    job.mat = matrix + g0;
    job.c = g.c;
    job.q = g.q;
    job.p = g.p;
    job.threads = g.threads;
    isa.four_step(job);
  }
}

void parallel_copy(BabyBear* dst, const BabyBear* src, size_t n) {
  constexpr size_t PIECE = size_t(1) << 16;
#pragma omp parallel for schedule(static) if (n >= 4 * PIECE)
  for (size_t i = 0; i < n; i += PIECE) std::copy(src + i, src + std::min(n, i + PIECE), dst + i);
}
void parallel_zero(BabyBear* dst, size_t n) {
  constexpr size_t PIECE = size_t(1) << 16;
#pragma omp parallel for schedule(static) if (n >= 4 * PIECE)
  for (size_t i = 0; i < n; i += PIECE) std::fill(dst + i, dst + std::min(n, i + PIECE), BabyBear::zero());
}

}  // namespace

void ntt_batch(BabyBear* matrix, unsigned log_n, size_t cols, bool inverse, BabyBear shift) {
  if (cols == 0 || log_n == 0) return;  // a length-1 transform is the identity in both directions
  if (log_n > BabyBear::TWO_ADICITY)
    throw_invalid("NTT: log_n " + std::to_string(log_n) + " exceeds BabyBear two-adicity 27");
  if (shift.is_zero()) throw_invalid("NTT: coset shift must be nonzero");
  const NttIsa& isa = select_isa();
  const size_t n = size_t(1) << log_n;
  const bool fits = n * std::min<size_t>(cols, isa.lanes) <= BLOCK_ELEMS;
  if (fits && (cols >= isa.lanes || log_n <= SMALL_LOG_N))
    run_direct(isa, matrix, log_n, cols, inverse, shift);
  else
    run_four_step(isa, matrix, log_n, cols, inverse, shift);
}

void lde_from_coeffs(const BabyBear* coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                     BabyBear* out) {
  const size_t in = cols << log_n, total = cols << (log_n + log_blowup);
  parallel_copy(out, coeffs, in);
  parallel_zero(out + in, total - in);
  ntt_batch(out, log_n + log_blowup, cols, false, shift);
}

void coset_lde(const BabyBear* evals, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift, BabyBear* out) {
  const size_t in = cols << log_n, total = cols << (log_n + log_blowup);
  parallel_copy(out, evals, in);
  ntt_batch(out, log_n, cols, true, BabyBear::one());
  parallel_zero(out + in, total - in);
  ntt_batch(out, log_n + log_blowup, cols, false, shift);
}

}  // namespace zkgpu::cpu
