// The CPU NTT against direct polynomial evaluation, on every SIMD level the machine has.
#include "zkgpu/ntt.hpp"

#include <optional>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "support/test_support.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

using test::Rng;

// Sets the SIMD cap for one scope, restoring "no cap" afterwards (even when an assertion fails).
struct SimdCap {
  explicit SimdCap(SimdLevel l) { set_simd_level_cap(l); }
  ~SimdCap() { set_simd_level_cap(std::nullopt); }
};

std::vector<SimdLevel> available_levels() {
  CpuFeatures f = cpu_features();
  std::vector<SimdLevel> v{SimdLevel::Scalar};
  if (f.avx2) v.push_back(SimdLevel::Avx2);
  if (f.avx512) v.push_back(SimdLevel::Avx512);
  return v;
}

// sum_j m[j][col] x^j by Horner, for every column.
std::vector<BabyBear> eval_rows_at(const std::vector<BabyBear>& m, size_t rows, size_t cols, BabyBear x) {
  std::vector<BabyBear> acc(cols, BabyBear::zero());
  for (size_t j = rows; j-- > 0;)
    for (size_t c = 0; c < cols; ++c) acc[c] = acc[c] * x + m[j * cols + c];
  return acc;
}

// The O(n^2) definition: E[i][c] = sum_j M[j][c] (shift w^i)^j.
std::vector<BabyBear> naive_dft(const std::vector<BabyBear>& m, unsigned log_n, size_t cols, BabyBear shift) {
  const size_t n = size_t(1) << log_n;
  const BabyBear w = BabyBear::two_adic_generator(log_n);
  std::vector<BabyBear> out(n * cols);
  BabyBear x = shift;
  for (size_t i = 0; i < n; ++i, x *= w) {
    auto row = eval_rows_at(m, n, cols, x);
    std::copy(row.begin(), row.end(), out.begin() + i * cols);
  }
  return out;
}

// Compares a few rows of a forward transform with direct evaluation (large sizes).
void spot_check_forward(const std::vector<BabyBear>& coeffs, const std::vector<BabyBear>& evals, unsigned log_n,
                        size_t cols, BabyBear shift, Rng& rng) {
  const size_t n = size_t(1) << log_n;
  const BabyBear w = BabyBear::two_adic_generator(log_n);
  std::vector<size_t> rows = {0, 1, n - 1, n / 2};
  for (int k = 0; k < 6; ++k) rows.push_back(rng.u32() % n);
  for (size_t i : rows) {
    auto want = eval_rows_at(coeffs, n, cols, shift * w.pow(i));
    for (size_t c = 0; c < cols; ++c) ASSERT_EQ(evals[i * cols + c], want[c]) << "row " << i << " col " << c;
  }
}

bool same(const std::vector<BabyBear>& a, const std::vector<BabyBear>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

TEST(NttCpu, MatchesNaiveDftForAllSmallSizes) {
  Rng rng(10);
  for (unsigned log_n = 0; log_n <= 10; ++log_n)
    for (size_t cols : {1, 3, 8, 17})
      for (bool coset : {false, true}) {
        const size_t n = size_t(1) << log_n;
        BabyBear shift = coset ? rng.fe() : BabyBear::one();
        if (shift.is_zero()) shift = BabyBear::from_canonical(31);
        auto coeffs = rng.fes(n * cols);
        auto evals = naive_dft(coeffs, log_n, cols, shift);
        for (SimdLevel level : available_levels()) {
          SimdCap cap(level);
          SCOPED_TRACE(testing::Message() << "log_n " << log_n << " cols " << cols << " shift " << shift.canonical()
                                          << " simd " << to_string(level));
          auto fwd = coeffs;
          ntt(fwd, log_n, cols, NttDirection::Forward, shift, Backend::Cpu);
          ASSERT_TRUE(same(fwd, evals));
          auto inv = evals;
          ntt(inv, log_n, cols, NttDirection::Inverse, shift, Backend::Cpu);
          ASSERT_TRUE(same(inv, coeffs));
        }
      }
}

// Sizes past the small-transform path: four-step with several column groups, odd widths.
TEST(NttCpu, LargerShapesMatchDirectEvaluationOnEveryLevel) {
  Rng rng(11);
  struct Shape {
    unsigned log_n;
    size_t cols;
  };
  for (Shape s : {Shape{11, 1}, Shape{12, 2}, Shape{13, 17}, Shape{14, 5}, Shape{15, 1}, Shape{16, 16}, Shape{17, 3},
                  Shape{12, 100}, Shape{9, 300}})
    for (bool coset : {false, true}) {
      const size_t n = size_t(1) << s.log_n;
      BabyBear shift = coset ? BabyBear::from_canonical(31) : BabyBear::one();
      auto coeffs = rng.fes(n * s.cols);
      std::optional<std::vector<BabyBear>> first;
      for (SimdLevel level : available_levels()) {
        SimdCap cap(level);
        SCOPED_TRACE(testing::Message() << "log_n " << s.log_n << " cols " << s.cols << " coset " << coset << " simd "
                                        << to_string(level));
        auto data = coeffs;
        ntt(data, s.log_n, s.cols, NttDirection::Forward, shift, Backend::Cpu);
        if (!first) {
          spot_check_forward(coeffs, data, s.log_n, s.cols, shift, rng);
          first = data;
        } else {
          ASSERT_TRUE(same(data, *first)) << "SIMD levels disagree";
        }
        ntt(data, s.log_n, s.cols, NttDirection::Inverse, shift, Backend::Cpu);
        ASSERT_TRUE(same(data, coeffs)) << "inverse(forward(x)) != x";
      }
    }
}

TEST(NttCpu, LargeRoundTrips) {
  Rng rng(12);
  for (unsigned log_n = 18; log_n <= 22; ++log_n) {
    const size_t cols = log_n == 18 ? 3 : 1;
    const size_t n = size_t(1) << log_n;
    BabyBear shift = log_n % 2 ? BabyBear::from_canonical(31) : BabyBear::one();
    auto coeffs = rng.fes(n * cols);
    auto data = coeffs;
    ntt(data, log_n, cols, NttDirection::Forward, shift, Backend::Cpu);
    spot_check_forward(coeffs, data, log_n, cols, shift, rng);
    ntt(data, log_n, cols, NttDirection::Inverse, shift, Backend::Cpu);
    ASSERT_TRUE(same(data, coeffs)) << "log_n " << log_n;
  }
}

// Wide enough that the four-step splits the columns into groups, the last one narrower.
TEST(NttCpu, ManyColumnsSplitIntoGroups) {
  Rng rng(17);
  const unsigned log_n = 15;
  const size_t cols = 515;
  auto coeffs = rng.fes(cols << log_n);
  auto data = coeffs;
  const BabyBear shift = BabyBear::from_canonical(31);
  ntt(data, log_n, cols, NttDirection::Forward, shift, Backend::Cpu);
  spot_check_forward(coeffs, data, log_n, cols, shift, rng);
  ntt(data, log_n, cols, NttDirection::Inverse, shift, Backend::Cpu);
  ASSERT_TRUE(same(data, coeffs));
}

TEST(NttCpu, SimdLevelsAgreeOnLargeSingleColumn) {
  Rng rng(13);
  const unsigned log_n = 20;
  auto coeffs = rng.fes(size_t(1) << log_n);
  std::optional<std::vector<BabyBear>> first;
  for (SimdLevel level : available_levels()) {
    SimdCap cap(level);
    auto data = coeffs;
    ntt(data, log_n, 1, NttDirection::Inverse, BabyBear::from_canonical(7), Backend::Cpu);
    if (first)
      ASSERT_TRUE(same(data, *first)) << to_string(level);
    else
      first = data;
  }
}

TEST(NttCpu, ExtensionFieldIsPerCoordinateBaseTransform) {
  Rng rng(14);
  const unsigned log_n = 9;
  const size_t n = size_t(1) << log_n, cols = 3;
  std::vector<BabyBear4> m(n * cols);
  for (auto& e : m) e = rng.fe4();
  for (NttDirection dir : {NttDirection::Forward, NttDirection::Inverse}) {
    auto ef = m;
    ntt(std::span<BabyBear4>(ef), log_n, cols, dir, BabyBear::from_canonical(31), Backend::Cpu);
    for (int k = 0; k < 4; ++k) {
      std::vector<BabyBear> coord(n * cols);
      for (size_t i = 0; i < n * cols; ++i) coord[i] = m[i].c[k];
      ntt(std::span<BabyBear>(coord), log_n, cols, dir, BabyBear::from_canonical(31), Backend::Cpu);
      for (size_t i = 0; i < n * cols; ++i) ASSERT_EQ(ef[i].c[k], coord[i]) << "element " << i << " coordinate " << k;
    }
  }
}

// Evaluations over H of a polynomial of degree < |H|, extended to a coset of a larger subgroup,
// must equal the polynomial evaluated there directly.
TEST(NttCpu, CosetLdeEqualsDirectEvaluation) {
  Rng rng(15);
  struct Case {
    unsigned log_n, log_blowup;
    size_t cols;
  };
  for (Case k : {Case{0, 2, 1}, Case{3, 1, 2}, Case{6, 3, 1}, Case{8, 2, 5}, Case{9, 1, 17}, Case{5, 0, 3}}) {
    const size_t n = size_t(1) << k.log_n, big = n << k.log_blowup;
    const BabyBear shift = BabyBear::from_canonical(31);
    auto coeffs = rng.fes(n * k.cols);
    auto evals = naive_dft(coeffs, k.log_n, k.cols, BabyBear::one());
    auto want = naive_dft(
        [&] {
          std::vector<BabyBear> padded(big * k.cols, BabyBear::zero());
          std::copy(coeffs.begin(), coeffs.end(), padded.begin());
          return padded;
        }(),
        k.log_n + k.log_blowup, k.cols, shift);
    for (SimdLevel level : available_levels()) {
      SimdCap cap(level);
      SCOPED_TRACE(testing::Message() << "log_n " << k.log_n << " blowup " << k.log_blowup << " cols " << k.cols
                                      << " simd " << to_string(level));
      ASSERT_TRUE(same(coset_lde(evals, k.log_n, k.cols, k.log_blowup, shift, Backend::Cpu), want));
      ASSERT_TRUE(same(lde_from_coeffs(coeffs, k.log_n, k.cols, k.log_blowup, shift, Backend::Cpu), want));
    }
  }
  // A larger LDE through the multi-threaded path, spot-checked.
  const unsigned log_n = 16, log_blowup = 2;
  auto coeffs = rng.fes(size_t(2) << log_n);
  auto evals = coeffs;
  ntt(evals, log_n, 2, NttDirection::Forward, BabyBear::one(), Backend::Cpu);
  auto lde = coset_lde(evals, log_n, 2, log_blowup, BabyBear::from_canonical(31), Backend::Cpu);
  std::vector<BabyBear> padded(size_t(2) << (log_n + log_blowup), BabyBear::zero());
  std::copy(coeffs.begin(), coeffs.end(), padded.begin());
  spot_check_forward(padded, lde, log_n + log_blowup, 2, BabyBear::from_canonical(31), rng);
  ASSERT_TRUE(same(lde, lde_from_coeffs(coeffs, log_n, 2, log_blowup, BabyBear::from_canonical(31), Backend::Cpu)));
}

TEST(NttCpu, AutoWithoutGpuMatchesCpu) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is present; the CUDA differential tests cover Auto there";
  Rng rng(16);
  auto a = rng.fes(size_t(1) << 17), b = a;
  ntt(a, 17, 1, NttDirection::Forward, BabyBear::one(), Backend::Auto);
  ntt(b, 17, 1, NttDirection::Forward, BabyBear::one(), Backend::Cpu);
  EXPECT_TRUE(same(a, b));
}

// NttOptions: every crossover, and an explicit backend, gives the bytes of Backend::Cpu (on a
// machine with a GPU, crossover 0 sends Auto to it; without one Auto stays on the CPU); the
// options calls check their arguments like the Backend calls.
TEST(NttCpu, OptionsCallsMatchTheBackendCalls) {
  Rng rng(515);
  const BabyBear shift = BabyBear::from_canonical(31);
  const unsigned log_n = 10;
  const size_t cols = 3;
  const std::vector<BabyBear> input = rng.fes(cols << log_n);
  std::vector<BabyBear> cpu = input;
  ntt(cpu, log_n, cols, NttDirection::Forward, shift, Backend::Cpu);
  const std::vector<BabyBear> cpu_lde = coset_lde(input, log_n, cols, 2, shift, Backend::Cpu);
  const std::vector<BabyBear> cpu_lde_coeffs = lde_from_coeffs(input, log_n, cols, 2, shift, Backend::Cpu);
  std::vector<BabyBear4> ef(cols << log_n);
  for (size_t i = 0; i < ef.size(); ++i) ef[i] = BabyBear4{{input[i], input[(i + 1) % ef.size()], shift, input[i]}};
  std::vector<BabyBear4> cpu_ef = ef;
  ntt(cpu_ef, log_n, cols, NttDirection::Inverse, shift, Backend::Cpu);
  for (const NttOptions o :
       {NttOptions{.backend = Backend::Cpu}, NttOptions{.gpu_crossover = 0}, NttOptions{.gpu_crossover = UINT64_MAX}}) {
    const std::string what = "crossover " + std::to_string(o.gpu_crossover);
    std::vector<BabyBear> m = input;
    ntt(m, log_n, cols, NttDirection::Forward, shift, o);
    EXPECT_EQ(m, cpu) << what;
    std::vector<BabyBear4> e = ef;
    ntt(e, log_n, cols, NttDirection::Inverse, shift, o);
    EXPECT_TRUE(e == cpu_ef) << what;
    EXPECT_EQ(coset_lde(input, log_n, cols, 2, shift, o), cpu_lde) << what;
    EXPECT_EQ(lde_from_coeffs(input, log_n, cols, 2, shift, o), cpu_lde_coeffs) << what;
  }
  std::vector<BabyBear> short_matrix(5);
  EXPECT_THROW(ntt(short_matrix, log_n, cols, NttDirection::Forward, shift, NttOptions{}), Error);
  EXPECT_THROW((void)coset_lde(input, log_n, cols, 2, BabyBear::zero(), NttOptions{}), Error);
}

TEST(NttCpu, InvalidArgumentsThrow) {
  auto expect_invalid = [](auto&& f) { test::expect_error(ErrorCode::InvalidArgument, f); };
  std::vector<BabyBear> m(24);
  std::vector<BabyBear4> ef(8);
  const BabyBear one = BabyBear::one();
  expect_invalid([&] { ntt(m, 3, 2, NttDirection::Forward, one, Backend::Cpu); });               // 16 != 24
  expect_invalid([&] { ntt(m, 3, 0, NttDirection::Forward, one, Backend::Cpu); });               // cols 0
  expect_invalid([&] { ntt(m, 3, 3, NttDirection::Forward, BabyBear::zero(), Backend::Cpu); });  // shift 0
  expect_invalid([&] { ntt(m, 28, 1, NttDirection::Forward, one, Backend::Cpu); });              // > 2^27
  expect_invalid([&] { ntt(std::span<BabyBear4>(ef), 3, 2, NttDirection::Inverse, one, Backend::Cpu); });
  expect_invalid([&] { (void)coset_lde(m, 3, 3, 25, one, Backend::Cpu); });  // 3 + 25 > 27
  expect_invalid([&] { (void)coset_lde(m, 3, 2, 1, one, Backend::Cpu); });
  expect_invalid([&] { (void)coset_lde(m, 3, 3, 1, BabyBear::zero(), Backend::Cpu); });
  expect_invalid([&] { (void)lde_from_coeffs(m, 2, 6, 26, one, Backend::Cpu); });
  expect_invalid([&] { (void)lde_from_coeffs(m, 3, 3, 1, BabyBear::zero(), Backend::Cpu); });
  expect_invalid([&] { (void)lde_from_coeffs(m, 3, 0, 1, one, Backend::Cpu); });
  // Valid calls on the same buffers do not throw.
  EXPECT_NO_THROW(ntt(m, 3, 3, NttDirection::Forward, one, Backend::Cpu));
  EXPECT_NO_THROW((void)lde_from_coeffs(m, 3, 3, 2, one, Backend::Cpu));
}

}  // namespace
}  // namespace zkgpu
