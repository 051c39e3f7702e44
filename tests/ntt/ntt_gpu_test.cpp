// CUDA NTT / LDE against the CPU backend (byte for byte) and, for small sizes, against the naive
// O(n^2) definition, on fresh random data. Every test skips without a usable GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/ntt.hpp"
#include "zkgpu/status.hpp"
#if ZKGPU_HAVE_CUDA
#include "ntt/cuda/api.hpp"
#include "bench_support/gpu_timing.hpp"
#include "ntt/cuda/ntt.cuh"
#include "runtime/cuda/runtime.cuh"
#endif

namespace zkgpu {
namespace {

#if ZKGPU_HAVE_CUDA

using test::Rng;

// E[i][c] = sum_j M[j][c] (shift w^i)^j, or the inverse (1/n, shift^-j) of that.
std::vector<BabyBear> naive_ntt(const std::vector<BabyBear>& m, unsigned log_n, size_t cols, bool inverse,
                                BabyBear shift) {
  const size_t n = size_t(1) << log_n;
  std::vector<BabyBear> out(m.size());
  const BabyBear w = BabyBear::two_adic_generator(log_n);
  if (!inverse) {
    for (size_t i = 0; i < n; ++i) {
      const BabyBear x = shift * w.pow(i);
      for (size_t c = 0; c < cols; ++c) {
        BabyBear acc = BabyBear::zero(), xp = BabyBear::one();
        for (size_t j = 0; j < n; ++j, xp = xp * x) acc += m[j * cols + c] * xp;
        out[i * cols + c] = acc;
      }
    }
  } else {
    const BabyBear wi = w.inverse(), n_inv = BabyBear::from_u64(n).inverse(), si = shift.inverse();
    for (size_t j = 0; j < n; ++j) {
      const BabyBear x = wi.pow(j), f = n_inv * si.pow(j);
      for (size_t c = 0; c < cols; ++c) {
        BabyBear acc = BabyBear::zero(), xp = BabyBear::one();
        for (size_t i = 0; i < n; ++i, xp = xp * x) acc += m[i * cols + c] * xp;
        out[j * cols + c] = acc * f;
      }
    }
  }
  return out;
}

// First differing index, or -1: a readable failure instead of a 16M-element dump.
long first_mismatch(const std::vector<BabyBear>& a, const std::vector<BabyBear>& b) {
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].v != b[i].v) return static_cast<long>(i);
  return -1;
}

std::string where(unsigned log_n, size_t cols, bool inverse, BabyBear shift) {
  return "log_n=" + std::to_string(log_n) + " cols=" + std::to_string(cols) + (inverse ? " inverse" : " forward") +
         " shift=" + std::to_string(shift.canonical());
}

void check_against_cpu(unsigned log_n, size_t cols, uint64_t salt,
                       cuda::NttKernelForm form = cuda::NttKernelForm::Auto) {
  Rng rng(salt);
  const BabyBear shifts[] = {BabyBear::one(), BabyBear::from_canonical(31), rng.fe()};
  for (bool inverse : {false, true}) {
    for (BabyBear shift : shifts) {
      if (shift.is_zero()) continue;
      const std::vector<BabyBear> input = rng.fes(cols << log_n);
      std::vector<BabyBear> cpu = input, gpu = input;
      ntt(cpu, log_n, cols, inverse ? NttDirection::Inverse : NttDirection::Forward, shift, Backend::Cpu);
      cuda::ntt_host(gpu.data(), log_n, cols, inverse, shift, form);
      const long bad = first_mismatch(gpu, cpu);
      ASSERT_EQ(bad, -1) << where(log_n, cols, inverse, shift) << " first mismatch at " << bad << ": gpu " << gpu[bad].v
                         << " cpu " << cpu[bad].v;
      if (log_n <= 9 && cols <= 3) {
        const std::vector<BabyBear> ref = naive_ntt(input, log_n, cols, inverse, shift);
        ASSERT_EQ(first_mismatch(gpu, ref), -1) << where(log_n, cols, inverse, shift) << " vs naive DFT";
      }
    }
  }
}

TEST(NttGpu, MatchesCpuSmallAndMedium) {
  ZKGPU_REQUIRE_GPU();
  // 0..13 covers one pass (<= 2^10) and two passes; cols 3 is the non-power-of-two path, 16 the
  // batched one, 4 the staged first pass with several columns, 40 a partial last tile.
  for (unsigned log_n : {0u, 1u, 2u, 5u, 9u, 10u, 11u, 12u, 13u})
    for (size_t cols : {size_t(1), size_t(3), size_t(16)}) check_against_cpu(log_n, cols, 100 * log_n + cols);
  check_against_cpu(12, 4, 7);
  check_against_cpu(11, 40, 8);
  check_against_cpu(4, 1000, 9);
}

// The root tables are built on a transform's first use (and again after release_gpu_caches())
// while the caller's stream may be a non-blocking one: the first transform after each release,
// with its input already on the device so its kernels start at once, must see complete tables.
TEST(NttGpu, FirstTransformAfterReleaseSeesCompleteRootTables) {
  ZKGPU_REQUIRE_GPU();
  const unsigned log_n = 16;
  const size_t n = size_t(1) << log_n;
  Rng rng(4242);
  const std::vector<BabyBear> input = rng.fes(n);
  std::vector<BabyBear> cpu = input;
  ntt(cpu, log_n, 1, NttDirection::Forward, BabyBear::one(), Backend::Cpu);
  const cuda::Stream s;  // non-blocking, as the library's own streams
  cuda::DeviceBuffer<BabyBear> src(n), d(n), tmp(cuda::ntt_scratch_elems(log_n, 1));
  src.upload(input.data(), n, s);
  std::vector<BabyBear> gpu(n);
  for (int round = 0; round < 64; ++round) {
    release_gpu_caches();
    ASSERT_EQ(cudaMemcpyAsync(d.data(), src.data(), n * sizeof(BabyBear), cudaMemcpyDeviceToDevice, s), cudaSuccess);
    cuda::ntt_device(d.data(), log_n, 1, false, BabyBear::one(), tmp.data(), s);
    d.download(gpu.data(), n, s);
    s.sync();
    ASSERT_EQ(first_mismatch(gpu, cpu), -1) << "round " << round;
  }
}

TEST(NttGpu, MatchesCpuLarge) {
  ZKGPU_REQUIRE_GPU();
  if (test::small_mode()) {
    // Each pass radix (8, 9, 10) as a first pass with 1, 3 and 16 columns and as a later pass,
    // two passes of 10 and three passes (2^21), at the smallest sizes that take them.
    for (unsigned log_n : {16u, 17u})
      for (size_t cols : {size_t(1), size_t(3)}) check_against_cpu(log_n, cols, 100 * log_n + cols);
    check_against_cpu(15, 16, 1516);
    for (unsigned log_n : {20u, 21u}) check_against_cpu(log_n, 1, 100 * log_n + 1);
    return;
  }
  for (unsigned log_n : {16u, 17u})
    for (size_t cols : {size_t(1), size_t(3), size_t(16)}) check_against_cpu(log_n, cols, 100 * log_n + cols);
  check_against_cpu(16, 2, 11);
  // Three passes (> 2^20) from 21 on; large sizes with one column keep the suite short.
  for (unsigned log_n : {20u, 21u, 22u, 24u}) check_against_cpu(log_n, 1, 100 * log_n + 1);
}

TEST(NttGpu, LdeFromCoeffsMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  struct Case {
    unsigned log_n;
    size_t cols;
    unsigned log_blowup;
  };
  // Output sizes cover one, two and three passes; log_n 0 and blowup 0 are the edges. Small mode:
  // three passes at 2^21 and the radix-10 first pass at 2^19 (one column; four at 2^16).
  const std::vector<Case> cases = test::sized<Case>({{0, 1, 0},
                                                     {0, 3, 4},
                                                     {3, 1, 2},
                                                     {5, 3, 1},
                                                     {8, 16, 3},
                                                     {10, 1, 1},
                                                     {9, 2, 4},
                                                     {12, 5, 2},
                                                     {14, 16, 1},
                                                     {18, 1, 3},
                                                     {20, 1, 2},
                                                     {16, 4, 4}},
                                                    {{0, 1, 0},
                                                     {0, 3, 4},
                                                     {3, 1, 2},
                                                     {5, 3, 1},
                                                     {8, 16, 3},
                                                     {10, 1, 1},
                                                     {9, 2, 4},
                                                     {12, 5, 2},
                                                     {14, 16, 1},
                                                     {17, 1, 4},
                                                     {15, 1, 4},
                                                     {12, 4, 4}});
  Rng rng(42);
  for (const Case& k : cases) {
    for (BabyBear shift : {BabyBear::one(), BabyBear::from_canonical(31), rng.fe()}) {
      if (shift.is_zero()) continue;
      const std::vector<BabyBear> coeffs = rng.fes(k.cols << k.log_n);
      const std::vector<BabyBear> cpu = lde_from_coeffs(coeffs, k.log_n, k.cols, k.log_blowup, shift, Backend::Cpu);
      std::vector<BabyBear> gpu(k.cols << (k.log_n + k.log_blowup));
      for (auto& x : gpu) x.v = test::POISON_WORD;
      cuda::lde_from_coeffs_host(coeffs.data(), k.log_n, k.cols, k.log_blowup, shift, gpu.data());
      const long bad = first_mismatch(gpu, cpu);
      ASSERT_EQ(bad, -1) << "lde log_n=" << k.log_n << " cols=" << k.cols << " log_blowup=" << k.log_blowup
                         << " shift=" << shift.canonical() << " first mismatch at " << bad << ": gpu " << gpu[bad].v
                         << " cpu " << cpu[bad].v;
    }
  }
}

// Every explicit kernel form (NttKernelForm, src/ntt/cuda/api.hpp) against the CPU backend: one
// and two passes, three passes at 2^17 / 2^20 / 2^24, batched, non-power-of-two columns (the
// 32-bit division path), the staged first pass (cols 1 and 4), and zero-padded LDE (the hoisted
// padding test). Small mode: three passes at 2^21, the radix-8 first pass of 2^24 at 2^16; LDE
// with three passes at 2^21 and a radix-10 first pass at 2^19. The other tests run Auto.
TEST(NttGpu, EveryKernelFormMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(77);
  const cuda::NttKernelForm forms[] = {cuda::NttKernelForm::Reference, cuda::NttKernelForm::Lean,
                                       cuda::NttKernelForm::LeanPadded};
  for (int var = 0; var < 3; ++var) {
    const cuda::NttKernelForm form = forms[var];
    SCOPED_TRACE("form " + std::to_string(static_cast<int>(form)));
    for (unsigned log_n : test::sized({5u, 11u, 13u, 17u, 20u, 24u}, {5u, 11u, 13u, 16u, 17u, 20u, 21u}))
      check_against_cpu(log_n, 1, 1000 * var + log_n, form);
    check_against_cpu(12, 16, 1000 * var + 50, form);
    check_against_cpu(13, 3, 1000 * var + 51, form);
    check_against_cpu(11, 4, 1000 * var + 52, form);
    struct Case {
      unsigned log_n;
      size_t cols;
      unsigned log_blowup;
    };
    for (const Case& k : test::sized<Case>({{9, 2, 4}, {12, 5, 2}, {18, 1, 3}, {16, 4, 4}},
                                           {{9, 2, 4}, {12, 5, 2}, {17, 1, 4}, {15, 1, 4}})) {
      const BabyBear shift = BabyBear::from_canonical(31);
      const std::vector<BabyBear> coeffs = rng.fes(k.cols << k.log_n);
      const std::vector<BabyBear> cpu = lde_from_coeffs(coeffs, k.log_n, k.cols, k.log_blowup, shift, Backend::Cpu);
      std::vector<BabyBear> gpu(k.cols << (k.log_n + k.log_blowup));
      for (auto& x : gpu) x.v = test::POISON_WORD;
      cuda::lde_from_coeffs_host(coeffs.data(), k.log_n, k.cols, k.log_blowup, shift, gpu.data(), form);
      ASSERT_EQ(first_mismatch(gpu, cpu), -1)
          << "lde log_n=" << k.log_n << " cols=" << k.cols << " log_blowup=" << k.log_blowup;
    }
  }
}

// The lean forms index with 32-bit offsets: an explicit request for a matrix of >= 2^32 elements
// throws before any allocation (the host buffer is never read); Auto takes the reference form
// there (too large to run here: 2^22 x 1024 words is 16 GiB).
TEST(NttGpu, LeanFormsRejectMatricesOf2To32Elements) {
  ZKGPU_REQUIRE_GPU();
  std::vector<BabyBear> tiny(1), out(1), m16(16);
  for (auto form : {cuda::NttKernelForm::Lean, cuda::NttKernelForm::LeanPadded}) {
    try {
      cuda::ntt_host(tiny.data(), 22, 1024, false, BabyBear::one(), form);
      ADD_FAILURE() << "form " << static_cast<int>(form) << " accepted 2^32 elements";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    }
    EXPECT_THROW(cuda::lde_from_coeffs_host(tiny.data(), 0, 1024, 22, BabyBear::one(), out.data(), form), Error);
  }
  EXPECT_THROW(cuda::ntt_host(m16.data(), 4, 1, false, BabyBear::one(), static_cast<cuda::NttKernelForm>(7)), Error);
}

// (Small mode: 2^21, the smallest size with three passes.)
TEST(NttGpu, RoundTripAt2To25) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(25);
  const unsigned log_n = test::sized(25u, 21u);
  const std::vector<BabyBear> input = rng.fes(size_t(1) << log_n);
  std::vector<BabyBear> data = input;
  const BabyBear shift = BabyBear::from_canonical(31);
  cuda::ntt_host(data.data(), log_n, 1, false, shift);
  ASSERT_NE(first_mismatch(data, input), -1) << "the forward transform left the data unchanged";
  cuda::ntt_host(data.data(), log_n, 1, true, shift);
  EXPECT_EQ(first_mismatch(data, input), -1);
}

TEST(NttGpu, OversizedRequestThrowsInsteadOfCrashing) {
  ZKGPU_REQUIRE_GPU();
  // 2^27 rows x 4096 cols = 2 TiB: the size check runs before any allocation or host access, so
  // the one-element host buffer is never read.
  std::vector<BabyBear> tiny(1);
  for (int which = 0; which < 2; ++which) {
    try {
      if (which == 0) {
        cuda::ntt_host(tiny.data(), 27, 4096, false, BabyBear::one());
      } else {
        (void)bench::time_ntt_device(27, 4096, false, 1, 1);
      }
      ADD_FAILURE() << "a 2 TiB NTT did not throw (" << which << ")";
    } catch (const Error& e) {
      EXPECT_TRUE(e.code() == ErrorCode::OutOfMemory || e.code() == ErrorCode::InvalidArgument) << e.what();
    }
  }
  EXPECT_THROW(cuda::ntt_host(tiny.data(), 28, 1, false, BabyBear::one()), Error);
  EXPECT_THROW(cuda::ntt_host(tiny.data(), 0, 1, false, BabyBear::zero()), Error);
}

// The public device-pointer calls, on the caller's non-blocking stream, equal the CPU backend's
// host calls byte for byte (outputs poisoned first), and leave their inputs unchanged.
TEST(NttGpu, DevicePointerCallsMatchCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(901);
  cuda::Stream s;
  const GpuStream gs{static_cast<void*>(s.get())};
  const BabyBear shift = BabyBear::from_canonical(31);
  for (const auto& [log_n, cols] :
       std::vector<std::pair<unsigned, size_t>>{{0, 1}, {5, 3}, {12, 16}, {17, 1}, {20, 5}}) {
    SCOPED_TRACE("2^" + std::to_string(log_n) + " x " + std::to_string(cols));
    const size_t elems = cols << log_n, out_elems = elems << 1;
    const std::vector<BabyBear> m = rng.fes(elems);
    cuda::DeviceBuffer<BabyBear> d_in(elems), d_out(out_elems);
    std::vector<BabyBear> got(out_elems);
    for (NttDirection dir : {NttDirection::Forward, NttDirection::Inverse}) {
      std::vector<BabyBear> want = m;
      ntt(want, log_n, cols, dir, shift, Backend::Cpu);
      d_in.upload(m.data(), elems, s);
      ntt_device(d_in.data(), log_n, cols, dir, shift, gs);
      d_in.download(got.data(), elems, s);
      s.sync();
      EXPECT_EQ(first_mismatch(std::vector<BabyBear>(got.begin(), got.begin() + elems), want), -1);
    }
    d_in.upload(m.data(), elems, s);
    for (int lde = 0; lde < 2; ++lde) {
      const std::vector<BabyBear> want = lde == 0 ? coset_lde(m, log_n, cols, 1, shift, Backend::Cpu)
                                                  : lde_from_coeffs(m, log_n, cols, 1, shift, Backend::Cpu);
      ZKGPU_CUDA_CHECK(cudaMemsetAsync(d_out.data(), 0xff, out_elems * sizeof(BabyBear), s));
      if (lde == 0)
        coset_lde_device(d_in.data(), log_n, cols, 1, shift, d_out.data(), gs);
      else
        lde_from_coeffs_device(d_in.data(), log_n, cols, 1, shift, d_out.data(), gs);
      d_out.download(got.data(), out_elems, s);
      std::vector<BabyBear> in_after(elems);
      d_in.download(in_after.data(), elems, s);
      s.sync();
      EXPECT_EQ(first_mismatch(got, want), -1) << (lde == 0 ? "coset_lde_device" : "lde_from_coeffs_device");
      EXPECT_EQ(first_mismatch(in_after, m), -1) << "the input changed";
    }
  }
}

// Host memory, a too-small view of device memory, an overlapping output or a bad shape is
// Error(InvalidArgument) before anything runs, and the device stays usable afterwards.
TEST(NttGpu, DevicePointerCallsRejectBadBuffers) {
  ZKGPU_REQUIRE_GPU();
  std::vector<BabyBear> host(1024);
  cuda::DeviceBuffer<BabyBear> d(1024);
  const auto invalid = [](auto&& call, const char* what) {
    try {
      call();
      ADD_FAILURE() << what << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << what << ": " << e.what();
    }
  };
  const BabyBear one = BabyBear::one();
  invalid([&] { ntt_device(host.data(), 10, 1, NttDirection::Forward, one, {}); }, "a host pointer");
  invalid([&] { ntt_device(d.data(), 11, 1, NttDirection::Forward, one, {}); }, "a buffer half the size");
  invalid([&] { ntt_device(nullptr, 4, 1, NttDirection::Forward, one, {}); }, "a null pointer");
  invalid([&] { ntt_device(d.data(), 28, 1, NttDirection::Forward, one, {}); }, "log_n 28");
  invalid([&] { ntt_device(d.data(), 4, 0, NttDirection::Forward, one, {}); }, "cols 0");
  invalid([&] { ntt_device(d.data(), 4, 1, NttDirection::Forward, BabyBear::zero(), {}); }, "shift 0");
  invalid([&] { lde_from_coeffs_device(d.data(), 8, 1, 1, one, d.data() + 100, {}); }, "an overlapping output");
  invalid([&] { coset_lde_device(d.data(), 8, 1, 2, one, host.data(), {}); }, "a host output");
  invalid([&] { coset_lde_device(d.data(), 26, 1, 2, one, d.data(), {}); }, "log_n + log_blowup 28");
  // Still usable: a transform of the device buffer works and round-trips.
  std::vector<BabyBear> m = test::Rng(902).fes(1024), back(1024);
  d.upload(m.data(), 1024);
  ntt_device(d.data(), 10, 1, NttDirection::Forward, one, {});
  ntt_device(d.data(), 10, 1, NttDirection::Inverse, one, {});
  d.download(back.data(), 1024);
  ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(first_mismatch(back, m), -1);
}

TEST(NttGpu, TimingReturnsPositiveRuns) {
  ZKGPU_REQUIRE_GPU();
  const std::vector<double> ms = bench::time_ntt_device(16, 1, false, 1, 3);
  ASSERT_EQ(ms.size(), 3u);
  for (double t : ms) EXPECT_GT(t, 0.0);
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu
