// Number-theoretic transforms over BabyBear's two-adic subgroups (spec §3), Plonky3's dft_batch
// contract: a row-major (2^log_n) x cols matrix, each column a polynomial, natural order in and out.
#pragma once
#include <span>
#include <vector>

#include "zkgpu/core/field/babybear.hpp"
#include "zkgpu/core/field/babybear_ext4.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {

inline constexpr unsigned NTT_MAX_LOG_N = BabyBear::TWO_ADICITY;  // 27
// Auto uses the GPU from this many field elements (rows * cols) on; below it the transfers cost
// more than the CPU transform (measured on the H200 machine, see BENCHMARKS.md).
inline constexpr uint64_t NTT_GPU_CROSSOVER_ELEMS = uint64_t(1) << 16;

enum class NttDirection { Forward, Inverse };

// What travels with one NTT or LDE call: the backend and, for Auto, the GPU crossover in field
// elements (rows * cols; for an LDE the output's). The overloads taking a bare Backend use the
// default crossover.
struct NttOptions {
  Backend backend = Backend::Auto;
  uint64_t gpu_crossover = NTT_GPU_CROSSOVER_ELEMS;
};

// Forward: coefficients -> evaluations E[i][c] = sum_j M[j][c] (shift * w^i)^j, w = g_{log_n}.
// Inverse: those evaluations -> coefficients (scaled by 1/n). shift = 1 is the plain DFT;
// any nonzero shift is a coset (Plonky3's default coset shift is 31). In place.
// Throws Error(InvalidArgument) when matrix.size() != cols << log_n, cols == 0, log_n > 27 or
// shift == 0.
void ntt(std::span<BabyBear> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift = BabyBear::one(),
         Backend backend = Backend::Auto);
void ntt(std::span<BabyBear> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift,
         const NttOptions& options);
// Extension-field matrix: the base-field transform of each of the 4 coordinates (twiddles lie
// in F), i.e. the same as the base transform of the (2^log_n) x 4*cols base matrix.
void ntt(std::span<BabyBear4> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift = BabyBear::one(),
         Backend backend = Backend::Auto);
void ntt(std::span<BabyBear4> matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift,
         const NttOptions& options);

// Low-degree extension of evaluations over the subgroup H (|H| = 2^log_n) to the coset
// shift * H' with |H'| = 2^(log_n + log_blowup): interpolate, zero-pad, evaluate. Returns the
// (2^(log_n+log_blowup)) x cols matrix, natural order (Plonky3 coset_lde_batch without the
// bit-reversal). Throws Error(InvalidArgument) on a wrong shape, cols == 0, shift == 0 or
// log_n + log_blowup > 27 (the same rules for lde_from_coeffs).
std::vector<BabyBear> coset_lde(std::span<const BabyBear> evals, unsigned log_n, size_t cols, unsigned log_blowup,
                                BabyBear shift, Backend backend = Backend::Auto);
std::vector<BabyBear> coset_lde(std::span<const BabyBear> evals, unsigned log_n, size_t cols, unsigned log_blowup,
                                BabyBear shift, const NttOptions& options);
// LDE from coefficients (what WHIR does): zero-pad the 2^log_n coefficient rows to
// 2^(log_n+log_blowup) and evaluate over shift * H'.
std::vector<BabyBear> lde_from_coeffs(std::span<const BabyBear> coeffs, unsigned log_n, size_t cols,
                                      unsigned log_blowup, BabyBear shift = BabyBear::one(),
                                      Backend backend = Backend::Auto);
std::vector<BabyBear> lde_from_coeffs(std::span<const BabyBear> coeffs, unsigned log_n, size_t cols,
                                      unsigned log_blowup, BabyBear shift, const NttOptions& options);

// The same transforms on buffers already in GPU memory (Montgomery words, the layout above), for
// pipelines that keep their data on the device: enqueued on the caller's stream, they return
// without waiting; the caller owns the buffers and synchronises the stream before reading.
// Checked on the host before anything is enqueued, with the rules of the host calls plus: every
// buffer is memory the current device can address, an output never overlaps an input, and the
// matrices' sizes are implied by the shape. Error(Unavailable) without a usable GPU. Scratch is
// allocated stream-ordered and freed on the stream.
void ntt_device(BabyBear* d_matrix, unsigned log_n, size_t cols, NttDirection dir, BabyBear shift, GpuStream stream);
// d_out: 2^(log_n + log_blowup) x cols; d_evals / d_coeffs: 2^log_n x cols, left unchanged.
void coset_lde_device(const BabyBear* d_evals, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                      BabyBear* d_out, GpuStream stream);
void lde_from_coeffs_device(const BabyBear* d_coeffs, unsigned log_n, size_t cols, unsigned log_blowup, BabyBear shift,
                            BabyBear* d_out, GpuStream stream);

}  // namespace zkgpu
