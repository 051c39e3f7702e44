#include "zkgpu/ntt.hpp"

#include <limits>
#include <string>

#include "ntt/cpu/ntt_cpu.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "ntt/cuda/api.hpp"
#include "runtime/cuda/caller_memory.hpp"
#endif

namespace zkgpu {
namespace {

static_assert(sizeof(BabyBear4) == 4 * sizeof(BabyBear), "an EF matrix must be a base matrix with 4x the columns");

// Rows * cols elements, checked for overflow; throws with the offending shape.
uint64_t check_shape(const char* op, size_t size, unsigned log_n, size_t cols, const char* unit) {
  const std::string where = std::string(op) + ": ";
  if (log_n > NTT_MAX_LOG_N)
    throw_invalid(where + "log_n = " + std::to_string(log_n) +
                  " exceeds BabyBear's two-adicity 27 (at most 2^27 rows)");
  if (cols == 0) throw_invalid(where + "cols must be >= 1");
  if (cols > (std::numeric_limits<size_t>::max() >> log_n))
    throw_invalid(where + "2^" + std::to_string(log_n) + " rows x " + std::to_string(cols) + " cols overflows size_t");
  const size_t want = cols << log_n;
  if (size != want)
    throw_invalid(where + "matrix has " + std::to_string(size) + " " + unit + ", expected 2^" + std::to_string(log_n) +
                  " rows x " + std::to_string(cols) + " cols = " + std::to_string(want));
  return want;
}

void check_shift(const char* op, BabyBear shift) {
  if (shift.is_zero()) throw_invalid(std::string(op) + ": coset shift must be nonzero (Plonky3's default is 31)");
}

void check_blowup(const char* op, unsigned log_n, unsigned log_blowup, size_t cols) {
  if (log_blowup > NTT_MAX_LOG_N || log_n + log_blowup > NTT_MAX_LOG_N)
    throw_invalid(std::string(op) + ": log_n + log_blowup = " + std::to_string(log_n) + " + " +
                  std::to_string(log_blowup) + " exceeds BabyBear's two-adicity 27");
  if (cols > (std::numeric_limits<size_t>::max() >> (log_n + log_blowup)))
    throw_invalid(std::string(op) + ": output of 2^" + std::to_string(log_n + log_blowup) + " rows x " +
                  std::to_string(cols) + " cols overflows size_t");
}

// The elements of a device matrix, whose size only its shape gives; the checks of check_shape.
uint64_t implied_elems(const char* op, unsigned log_n, size_t cols) {
  const bool fits = log_n <= NTT_MAX_LOG_N && cols <= (std::numeric_limits<size_t>::max() / sizeof(BabyBear) >> log_n);
  return check_shape(op, fits ? cols << log_n : 0, log_n, cols, "elements");
}

void ntt_base(BabyBear* data, uint64_t elems, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift,
              const NttOptions& options) {
  const bool inverse = dir == NttDirection::Inverse;
  if (resolve_backend(options.backend, elems, options.gpu_crossover) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::ntt_host(data, log_n, cols, inverse, shift);
    return;
#endif
  }
  cpu::ntt_batch(data, log_n, cols, inverse, shift);
}

}  // namespace

void ntt(std::span<BabyBear> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift,
         const NttOptions& options) {
  const uint64_t elems = check_shape("ntt", matrix.size(), log_n, cols, "elements");
  check_shift("ntt", shift);
  ntt_base(matrix.data(), elems, log_n, cols, dir, shift, options);
}

void ntt(std::span<BabyBear4> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift,
         const NttOptions& options) {
  check_shape("ntt (extension field)", matrix.size(), log_n, cols, "EF elements");
  check_shift("ntt (extension field)", shift);
  // Twiddles lie in F, so the EF transform is the base transform of each coordinate: the same
  // memory read as a (2^log_n) x (4 cols) base matrix.
  ntt_base(reinterpret_cast<BabyBear*>(matrix.data()), uint64_t(4 * cols) << log_n, log_n, 4 * cols, dir, shift,
           options);
}

std::vector<BabyBear> coset_lde(std::span<const BabyBear> evals, unsigned log_n, size_t cols, unsigned log_blowup,
                                BabyBear shift, const NttOptions& options) {
  check_shape("coset_lde", evals.size(), log_n, cols, "elements");
  check_blowup("coset_lde", log_n, log_blowup, cols);
  check_shift("coset_lde", shift);
  const size_t out_elems = cols << (log_n + log_blowup);
  std::vector<BabyBear> out(out_elems);
  if (resolve_backend(options.backend, out_elems, options.gpu_crossover) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    std::vector<BabyBear> coeffs(evals.begin(), evals.end());
    cuda::ntt_host(coeffs.data(), log_n, cols, true, BabyBear::one());
    cuda::lde_from_coeffs_host(coeffs.data(), log_n, cols, log_blowup, shift, out.data());
    return out;
#endif
  }
  cpu::coset_lde(evals.data(), log_n, cols, log_blowup, shift, out.data());
  return out;
}

std::vector<BabyBear> lde_from_coeffs(std::span<const BabyBear> coeffs, unsigned log_n, size_t cols,
                                      unsigned log_blowup, BabyBear shift, const NttOptions& options) {
  check_shape("lde_from_coeffs", coeffs.size(), log_n, cols, "elements");
  check_blowup("lde_from_coeffs", log_n, log_blowup, cols);
  check_shift("lde_from_coeffs", shift);
  const size_t out_elems = cols << (log_n + log_blowup);
  std::vector<BabyBear> out(out_elems);
  if (resolve_backend(options.backend, out_elems, options.gpu_crossover) == Backend::Cuda) {
#if ZKGPU_HAVE_CUDA
    cuda::lde_from_coeffs_host(coeffs.data(), log_n, cols, log_blowup, shift, out.data());
    return out;
#endif
  }
  cpu::lde_from_coeffs(coeffs.data(), log_n, cols, log_blowup, shift, out.data());
  return out;
}

// ---- device-pointer calls ----------------------------------------------------------------------

void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift, GpuStream stream) {
  const uint64_t elems = implied_elems("ntt_device", log_n, cols);
  check_shift("ntt_device", shift);
  resolve_backend(Backend::Cuda, elems, 0);  // Error(Unavailable) without a usable GPU
#if ZKGPU_HAVE_CUDA
  cuda::require_device_pointer(d_matrix, elems * sizeof(BabyBear), "ntt_device: d_matrix");
  cuda::ntt_on_stream(d_matrix, log_n, cols, dir == NttDirection::Inverse, shift, stream.handle);
#else
  (void)d_matrix, (void)dir, (void)stream;
#endif
}

namespace {
// coset_lde_device (from evaluations) and lde_from_coeffs_device: every check before anything is
// enqueued, then the CUDA call.
void lde_device(const char* op, bool from_evals, const BabyBear* d_in, unsigned log_n, size_t cols, unsigned log_blowup,
                BabyBear shift, BabyBear* d_out, GpuStream stream) {
  const uint64_t in_elems = implied_elems(op, log_n, cols);
  check_blowup(op, log_n, log_blowup, cols);
  const uint64_t out_elems = implied_elems(op, log_n + log_blowup, cols);
  check_shift(op, shift);
  resolve_backend(Backend::Cuda, out_elems, 0);  // Error(Unavailable) without a usable GPU
#if ZKGPU_HAVE_CUDA
  const std::string what(op);
  cuda::require_device_pointer(d_in, in_elems * sizeof(BabyBear), (what + ": input").c_str());
  cuda::require_device_pointer(d_out, out_elems * sizeof(BabyBear), (what + ": d_out").c_str());
  cuda::require_disjoint(d_out, out_elems * sizeof(BabyBear), d_in, in_elems * sizeof(BabyBear), op);
  if (from_evals)
    cuda::coset_lde_on_stream(d_in, log_n, cols, log_blowup, shift, d_out, stream.handle);
  else
    cuda::lde_from_coeffs_on_stream(d_in, log_n, cols, log_blowup, shift, d_out, stream.handle);
#else
  (void)from_evals, (void)d_in, (void)d_out, (void)in_elems, (void)stream;
#endif
}
}  // namespace

void coset_lde_device(const BabyBear* d_evals, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                      BabyBear* d_out, GpuStream stream) {
  lde_device("coset_lde_device", true, d_evals, log_n, cols, log_blowup, shift, d_out, stream);
}

void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, GpuStream stream) {
  lde_device("lde_from_coeffs_device", false, d_coeffs, log_n, cols, log_blowup, shift, d_out, stream);
}

// The bare-Backend calls: the default crossover.
void ntt(std::span<BabyBear> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift, Backend backend) {
  ntt(matrix, log_n, cols, dir, shift, NttOptions{.backend = backend});
}
void ntt(std::span<BabyBear4> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift, Backend backend) {
  ntt(matrix, log_n, cols, dir, shift, NttOptions{.backend = backend});
}
std::vector<BabyBear> coset_lde(std::span<const BabyBear> evals, unsigned log_n, size_t cols, unsigned log_blowup,
                                BabyBear shift, Backend backend) {
  return coset_lde(evals, log_n, cols, log_blowup, shift, NttOptions{.backend = backend});
}
std::vector<BabyBear> lde_from_coeffs(std::span<const BabyBear> coeffs, unsigned log_n, size_t cols,
                                      unsigned log_blowup, BabyBear shift, Backend backend) {
  return lde_from_coeffs(coeffs, log_n, cols, log_blowup, shift, NttOptions{.backend = backend});
}

}  // namespace zkgpu
