// BLS12-377 MSM on the GPU against the CPU backend on fresh random inputs, with the GPU
// workspace poisoned (0xff bytes) before every MSM (MsmGpuOptions::poison_workspace). Every test
// skips without a usable GPU.
// ZKGPU_MSM_TEST_LOG_N sets the size of the known-discrete-log test (default 20, 12 in small mode).
// Small mode (ZKGPU_TEST_SMALL=1) keeps every window size, slice plan and reduction shape (they
// depend on the window and the per-call MsmGpuOptions, not on n) on inputs of about 4000 points.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "bls12_377/bls_test_support.hpp"
#include "msm/cuda/api.hpp"
#include "msm/msm_tuned.hpp"
#include "msm/plan.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/msm.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/runtime.cuh"
#endif

namespace zkgpu::test {
namespace {

using namespace zkgpu::bls12_377;

MsmOptions on(Backend b, unsigned c = 0) {
  MsmOptions o;
  o.backend = b;
  o.window_bits = c;
  return o;
}

using bls12_377::cuda::MsmGpuOptions;

MsmGpuOptions poisoned() {
  MsmGpuOptions o;
  o.poison_workspace = true;
  return o;
}

// Small first slices for inputs from host memory (resident bases too, at every size), so test
// sizes run through several slices.
MsmGpuOptions sliced(uint32_t min_slice, MsmGpuOptions o = poisoned()) {
  o.min_slice = min_slice;
  o.resident_slice_min_n = 0;
  return o;
}

// The public msm() on the CUDA backend with per-call GPU options (poisoned by default).
G1Affine on_gpu(const MsmBases& bases, std::span<const Scalar> s, unsigned c = 0,
                const MsmGpuOptions& gpu = poisoned()) {
  return msm_tuned(bases, s, on(Backend::Cuda, c), gpu);
}
G1Affine on_gpu(std::span<const G1Affine> points, std::span<const Scalar> s, unsigned c = 0,
                const MsmGpuOptions& gpu = poisoned()) {
  return msm_tuned(points, s, on(Backend::Cuda, c), gpu);
}

struct Input {
  std::vector<Scalar> dlogs, scalars;
  std::vector<G1Affine> points;
};
Input random_input(size_t n, Rng& rng) {
  Input in;
  in.dlogs.resize(n);
  in.scalars.resize(n);
  for (size_t i = 0; i < n; ++i) in.dlogs[i] = random_scalar(rng), in.scalars[i] = random_scalar(rng);
  in.points = points_with_dlogs(in.dlogs);
  return in;
}

TEST(Bls12377MsmGpu, MatchesCpuOnRandomInputs) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(40);
  for (size_t n :
       sized<size_t>({1, 2, 3, 100, 1000, 4097, size_t{1} << 16, (size_t{1} << 16) + 3}, {1, 2, 3, 100, 1000, 4097})) {
    Input in = random_input(n, rng);
    MsmBases bases(in.points, false);
    G1Affine cpu = msm(bases, in.scalars, on(Backend::Cpu));
    EXPECT_EQ(on_gpu(bases, in.scalars), cpu) << "n = " << n;      // resident bases
    EXPECT_EQ(on_gpu(in.points, in.scalars), cpu) << "n = " << n;  // bases from host
  }
}

// release_gpu_caches() frees the MSM workspace but not the caller's uploaded bases: both input
// paths still give the CPU's sum afterwards.
TEST(Bls12377MsmGpu, SumAfterReleasingGpuCachesIsUnchanged) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(41);
  Input in = random_input(1000, rng);
  MsmBases bases(in.points, false);
  const G1Affine cpu = msm(bases, in.scalars, on(Backend::Cpu));
  EXPECT_EQ(on_gpu(bases, in.scalars), cpu);
  release_gpu_caches();
  EXPECT_EQ(on_gpu(bases, in.scalars), cpu);
  release_gpu_caches();
  EXPECT_EQ(on_gpu(in.points, in.scalars), cpu);
}

TEST(Bls12377MsmGpu, EveryWindowSizeMatchesCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(41);
  Input in = random_input(5000, rng);
  MsmBases bases(in.points, false);
  G1Affine expect = msm(bases, in.scalars, on(Backend::Cpu));
  for (unsigned c : {2u, 5u, 8u, 11u, 13u, 16u, 18u, 20u})
    EXPECT_EQ(on_gpu(bases, in.scalars, c), expect) << "c = " << c;
}

// The chunked bucket sums at both extremes of run length: a narrow window (every bucket spans many
// chunks, several levels of partial sums) and a wide one (most buckets shorter than a chunk, runs
// starting and ending inside chunks), on a size that is not a power of two, both input paths.
// (Small mode, 2^12 + 7 points: c = 3 still makes chunks of 8 entries, above the minimum of 4.)
TEST(Bls12377MsmGpu, ChunkedBucketSumsMatchCpuForShortAndLongRuns) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(47);
  const size_t n = sized((size_t{1} << 17) + 7, (size_t{1} << 12) + 7);
  Input in = random_input(n, rng);
  MsmBases bases(in.points, false);
  G1Affine expect = msm(bases, in.scalars, on(Backend::Cpu));
  for (unsigned c : {3u, 9u, 17u, 20u}) {
    EXPECT_EQ(on_gpu(bases, in.scalars, c), expect) << "c = " << c;
    EXPECT_EQ(on_gpu(in.points, in.scalars, c), expect) << "from host, c = " << c;
  }
}

// Edge cases and skewed scalars: all scalars equal puts every digit of a window in one bucket,
// which the segmented accumulation must split over threads and levels.
TEST(Bls12377MsmGpu, EdgeCasesAndSkewedScalars) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(42);
  const size_t n = sized((size_t{1} << 16) + 5, (size_t{1} << 12) + 5);
  Input in = random_input(n, rng);
  in.points[3] = in.points[4];
  in.points[5] = in.points[6].neg();
  in.points[7] = G1Affine::identity();
  MsmBases bases(in.points, false);
  std::vector<std::vector<Scalar>> sets;
  sets.push_back(std::vector<Scalar>(n, r_minus(1)));
  sets.push_back(std::vector<Scalar>(n, Scalar{}));
  std::vector<Scalar> small(n), mixed = in.scalars;
  for (size_t i = 0; i < n; ++i) small[i] = scalar_u64(i % 3);
  mixed[0] = Scalar{}, mixed[1] = r_minus(1), mixed[2] = scalar_u64(1);
  sets.push_back(small);
  sets.push_back(mixed);
  for (size_t k = 0; k < sets.size(); ++k)
    EXPECT_EQ(on_gpu(bases, sets[k]), msm(bases, sets[k], on(Backend::Cpu))) << "set " << k;
  std::vector<Scalar> zeros(n);
  EXPECT_EQ(on_gpu(bases, zeros), G1Affine::identity());
}

TEST(Bls12377MsmGpu, KnownDiscreteLogsLarge) {
  ZKGPU_REQUIRE_GPU();
  unsigned log_n = sized(20u, 12u);
  if (const char* e = std::getenv("ZKGPU_MSM_TEST_LOG_N")) log_n = static_cast<unsigned>(std::atoi(e));
  Rng rng(43);
  const size_t n = (size_t{1} << log_n) - 1;  // not a power of two
  Input in = random_input(n, rng);
  MsmBases bases(in.points, false);
  EXPECT_EQ(on_gpu(bases, in.scalars), expected_msm(in.dlogs, in.scalars));
}

// Bases from host memory are converted on the GPU; a point where the map is undefined is named.
TEST(Bls12377MsmGpu, FromHostRejectsExceptionalPoints) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(46);
  Input in = random_input(100, rng);
  in.points[77] = {-Fp::one(), Fp::zero(), false};  // (-1, 0): order 2, y = 0
  try {
    (void)msm(in.points, in.scalars, on(Backend::Cuda));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("point 77"), std::string::npos) << e.what();
  }
}

#if ZKGPU_HAVE_CUDA
// The bases of `in` (in G1 by construction, so unchecked), uploaded to the device.
MsmBases resident_bases(const Input& in) {
  MsmBases bases(in.points, false);
  bases.upload();
  return bases;
}

TEST(Bls12377MsmGpu, DeviceResidentInputs) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(44);
  const size_t n = 3000;
  Input in = random_input(n, rng);
  const MsmBases bases = resident_bases(in);
  ::zkgpu::cuda::DeviceBuffer<Scalar> d_scalars(n);
  d_scalars.upload(in.scalars.data(), n);
  G1Affine got = msm_device_resident(bls12_377::cuda::device_points(*bases.device()), d_scalars.data(), n);
  EXPECT_EQ(got, expected_msm(in.dlogs, in.scalars));
}

// The stream overload waits for the caller's stream, whose copy produced the scalars; host
// pointers are Error(InvalidArgument) before anything runs, and n = 0 is the identity.
TEST(Bls12377MsmGpu, DeviceResidentInputsAfterTheCallersStream) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(45);
  const size_t n = 5000;
  Input in = random_input(n, rng);
  const MsmBases bases = resident_bases(in);
  const TePrecomputed* d_points = bls12_377::cuda::device_points(*bases.device());
  ::zkgpu::cuda::Stream s;
  ::zkgpu::cuda::PinnedBuffer<Scalar> pinned(n);
  std::copy(in.scalars.begin(), in.scalars.end(), pinned.data());
  ::zkgpu::cuda::DeviceBuffer<Scalar> d_scalars(n);
  ZKGPU_CUDA_CHECK(cudaMemsetAsync(d_scalars.data(), 0, n * sizeof(Scalar), s));
  d_scalars.upload(pinned.data(), n, s);  // asynchronous on s: the MSM must wait for it
  EXPECT_EQ(msm_device_resident(d_points, d_scalars.data(), n, 0, GpuStream{s.get()}),
            expected_msm(in.dlogs, in.scalars));
  EXPECT_THROW((void)msm_device_resident(d_points, in.scalars.data(), n, 0, {}), Error);
  EXPECT_THROW((void)msm_device_resident(bases.te_points().data(), d_scalars.data(), n, 0, {}), Error);
  EXPECT_EQ(msm_device_resident(d_points, d_scalars.data(), 0, 0, {}), G1Affine::identity());
}

// The GPU checks the scalars as it computes their digits: a scalar that is not below r is
// Error(InvalidArgument) naming the first such index, for every input kind (window table,
// per-window buckets, bases from host, device inputs), through several slices, and in the last of
// four budget parts; the first bad scalar is named before a bad point; the next call is right.
TEST(Bls12377MsmGpu, ScalarsNotBelowRAreNamedByIndex) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(51);
  const size_t n = 3000;
  Input in = random_input(n, rng);
  const G1Affine expect = expected_msm(in.dlogs, in.scalars);
  const MsmBases bases = resident_bases(in);
  const unsigned t = bls12_377::cuda::window_table_bits(*bases.device());
  auto expect_named = [](size_t index, auto&& call, const std::string& what) {
    try {
      (void)call();
      ADD_FAILURE() << what << ": expected an error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << what;
      EXPECT_NE(std::string(e.what()).find("scalar " + std::to_string(index) + " is not below r"), std::string::npos)
          << what << ": " << e.what();
    }
  };
  Scalar all_ones;
  std::fill(std::begin(all_ones.l), std::end(all_ones.l), ~uint64_t{0});
  for (const auto& [first_bad, second_bad] :
       {std::pair{size_t{0}, size_t{1}}, std::pair{size_t{1234}, size_t{2500}}, std::pair{n - 1, n - 1}}) {
    const std::string at = "bad scalar at " + std::to_string(first_bad);
    std::vector<Scalar> s = in.scalars;
    s[first_bad] = r_minus(0);
    s[second_bad] = all_ones;
    ::zkgpu::cuda::DeviceBuffer<Scalar> d_s(n);
    d_s.upload(s.data(), n);
    expect_named(
        first_bad, [&] { return on_gpu(bases, s, 0, sliced(512)); }, at + ", window table");
    expect_named(
        first_bad, [&] { return on_gpu(bases, s, t - 1, sliced(512)); }, at + ", per-window buckets");
    expect_named(
        first_bad, [&] { return on_gpu(in.points, s, 0, sliced(512)); }, at + ", bases from host");
    expect_named(
        first_bad, [&] { return msm_device_resident(bls12_377::cuda::device_points(*bases.device()), d_s.data(), n); },
        at + ", device inputs");
    MsmOptions quarter = on(Backend::Cuda);
    quarter.gpu_memory_budget = bls12_377::cuda::msm_device_bytes(nullptr, true, (n + 3) / 4, 0);
    expect_named(
        first_bad, [&] { return msm(in.points, s, quarter); }, at + ", bases from host in four parts");
    Input both = in;
    both.points[first_bad == 0 ? 0 : first_bad - 1] = {-Fp::one(), Fp::zero(), false};
    expect_named(
        first_bad, [&] { return on_gpu(both.points, s, 0); }, at + ", and a bad point");
    EXPECT_EQ(on_gpu(bases, in.scalars), expect) << "the call after " << at;
  }
}

// Resident bases get a window table (2^(c*j) * P per window, one shared bucket set); the same
// bases with another window take the per-window buckets. Both must match the CPU, at sizes that
// are not powers of two and with a partial last batch of the table kernel.
TEST(Bls12377MsmGpu, WindowTableMatchesCpuAndPerWindowBuckets) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(48);
  for (size_t n : sized<size_t>({1, 77, 4099, (size_t{1} << 15) + 1}, {1, 77, 4099})) {
    Input in = random_input(n, rng);
    const MsmBases bases = resident_bases(in);
    const unsigned t = bls12_377::cuda::window_table_bits(*bases.device());
    ASSERT_EQ(t, gpu_plan::table_window_bits(n)) << "n = " << n;  // small tables always fit
    G1Affine expect = msm(bases, in.scalars, on(Backend::Cpu));
    EXPECT_EQ(on_gpu(bases, in.scalars), expect) << "table, n = " << n;
    EXPECT_EQ(on_gpu(bases, in.scalars, t), expect) << "table by its window, n = " << n;
    EXPECT_EQ(on_gpu(bases, in.scalars, t - 1), expect) << "per-window buckets, n = " << n;
    std::vector<Scalar> same(n, r_minus(1));  // every window's digits in one bucket of the shared set
    EXPECT_EQ(on_gpu(bases, same), msm(bases, same, on(Backend::Cpu))) << "skewed, n = " << n;
  }
}

// Inputs from host memory run in slices (the upload of one overlaps the sort and bucket sums of
// the ones before; later slices add into the buckets). Small first slices make several here, with
// boundaries inside the staging chunks, on both input paths, the window table and per-window
// buckets, and slices whose scalars are all zero (nothing to sum) or all equal (a window's digits
// in one bucket).
TEST(Bls12377MsmGpu, SlicedHostInputsMatchCpu) {
  ZKGPU_REQUIRE_GPU();
  // Full size: resident slices [0, 4545), [4545, 18180), [18180, n); from host [0, 6250),
  // [6250, 18750), [18750, n). Small mode, a tenth of the points and of the first slice: resident
  // [0, 454), [454, 1816), [1816, n); from host [0, 625), [625, 1875), [1875, n).
  struct Plan {
    size_t n, min_slice, zero_end, cross_first, cross_end, host_slice_first, host_slice_end, bad;
  };
  const Plan pl = sized<Plan>({50003, 1000, 10000, 20000, 26000, 6250, 18750, 40000},
                              {5003, 100, 1000, 1800, 1900, 625, 1875, 4000});
  const MsmGpuOptions small = sliced(static_cast<uint32_t>(pl.min_slice));
  Rng rng(49);
  const size_t n = pl.n;
  Input in = random_input(n, rng);
  const MsmBases bases = resident_bases(in);
  const unsigned t = bls12_377::cuda::window_table_bits(*bases.device());
  std::vector<std::vector<Scalar>> sets = {in.scalars, in.scalars, in.scalars};
  // Set 1: the first slices all zero and a zero run (in small mode across 1816 and 1875); set 2: a
  // whole slice in one bucket.
  for (size_t i = 0; i < pl.zero_end; ++i) sets[1][i] = Scalar{};
  for (size_t i = pl.cross_first; i < pl.cross_end; ++i) sets[1][i] = Scalar{};
  for (size_t i = pl.host_slice_first; i < pl.host_slice_end; ++i) sets[2][i] = r_minus(1);
  for (size_t k = 0; k < sets.size(); ++k) {
    G1Affine expect = msm(bases, sets[k], on(Backend::Cpu));
    EXPECT_EQ(on_gpu(bases, sets[k], 0, small), expect) << "table, set " << k;
    EXPECT_EQ(on_gpu(bases, sets[k], t - 3, small), expect) << "per-window buckets, set " << k;
    EXPECT_EQ(on_gpu(in.points, sets[k], 0, small), expect) << "from host, set " << k;
  }
  in.points[pl.bad] = {-Fp::one(), Fp::zero(), false};  // a point off G1 in the last slice is named
  try {
    (void)on_gpu(in.points, in.scalars, 0, small);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("point " + std::to_string(pl.bad)), std::string::npos) << e.what();
  }
}

// Window tables with c = 11 and 23 (as 2^23+ points pick) have one window fewer than the per-window
// MSM: the table path negates scalars above (r - 1)/2. Forced on a small input, against the CPU,
// with the edge scalars around (r - 1)/2 and r - 1 (the largest top windows). Small mode: c = 11
// only (the 2^22 buckets per window of c = 23 do not finish under compute-sanitizer racecheck).
TEST(Bls12377MsmGpu, HalvedScalarWindowTablesMatchCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(50);
  const size_t n = 3001;
  Input in = random_input(n, rng);
  Scalar half = r_minus(1);
  for (int i = 0; i < 4; ++i) half.l[i] = (half.l[i] >> 1) | (i < 3 ? half.l[i + 1] << 63 : 0);  // (r - 1)/2
  Scalar half_plus = half;
  half_plus.l[0] += 1;
  for (size_t i = 0; i < 40; ++i)
    in.scalars[i] = i % 4 == 0 ? half : i % 4 == 1 ? half_plus : i % 4 == 2 ? r_minus(1) : Scalar{};
  const MsmBases bases(in.points, false);
  // The resident path of msm() on bases uploaded with a forced table window (MsmBases::upload
  // builds the one table_window_bits picks).
  auto table_msm = [&](const bls12_377::detail::DeviceBases& dev, const std::vector<Scalar>& s) {
    return te_to_sw(bls12_377::cuda::msm_resident(dev, s.data(), s.size(), 0, poisoned()));
  };
  for (unsigned c : sized<unsigned>({11u, 23u}, {11u})) {
    MsmGpuOptions table;
    table.table_window = c;
    const auto dev = bls12_377::cuda::upload_bases(bases.te_points().data(), n, table);
    ASSERT_EQ(bls12_377::cuda::window_table_bits(*dev), c);
    EXPECT_EQ(table_msm(*dev, in.scalars), msm(bases, in.scalars, on(Backend::Cpu))) << "c = " << c;
    std::vector<Scalar> top(n, r_minus(1));
    EXPECT_EQ(table_msm(*dev, top), msm(bases, top, on(Backend::Cpu))) << "all r - 1, c = " << c;
  }
}

// The window reduction's shapes (MsmGpuOptions::reduce_parts, host_fold_pairs): parts of up to 256 buckets (few parts:
// blocks of parts partly filled, fold groups of fewer than 32), one bucket per part (many fold levels), and from one
// pair per window to thousands left for the host's folds; with one slice and two (the second adding onto the buckets in
// place), on the window table and per-window buckets, random and all-equal scalars (each window's digits in one
// bucket).
TEST(Bls12377MsmGpu, ReductionShapesMatchCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(51);
  const size_t n = sized<size_t>(20011, 4001);
  Input in = random_input(n, rng);
  const MsmBases bases = resident_bases(in);
  const unsigned t = bls12_377::cuda::window_table_bits(*bases.device());
  const std::vector<std::vector<Scalar>> sets = {in.scalars, std::vector<Scalar>(n, r_minus(1))};
  std::vector<G1Affine> expect;
  for (const auto& s : sets) expect.push_back(msm(bases, s, on(Backend::Cpu)));
  struct Shape {
    unsigned parts_log2;
    uint32_t host_pairs;
  };
  for (const Shape sh : {Shape{4, 1}, Shape{9, 64}, Shape{20, 4096}}) {
    MsmGpuOptions shape = poisoned();
    shape.reduce_parts = size_t{1} << sh.parts_log2;
    shape.host_fold_pairs = sh.host_pairs;
    for (const bool in_slices : {false, true}) {
      // Resident slices [0, 1819), [1819, 7276), [7276, n); small mode [0, 363), [363, 1452), [1452, n).
      const MsmGpuOptions gpu = in_slices ? sliced(sized<uint32_t>(1000, 200), shape) : shape;
      for (size_t k = 0; k < sets.size(); ++k) {
        const std::string what = "2^" + std::to_string(sh.parts_log2) + " parts, " + std::to_string(sh.host_pairs) +
                                 " host pairs" + (in_slices ? ", sliced" : "") + ", set " + std::to_string(k);
        EXPECT_EQ(on_gpu(bases, sets[k], 0, gpu), expect[k]) << "table, " << what;
        EXPECT_EQ(on_gpu(bases, sets[k], t - 3, gpu), expect[k]) << "per-window buckets, " << what;
      }
    }
  }
}

#endif

#if ZKGPU_HAVE_CUDA
// A device-memory budget too small for one MSM splits it into MSMs over consecutive parts of the
// points (one "fill" phase each) whose sum is the unlimited call's, for every input kind: resident
// bases with their window table and with per-window buckets (scalars from host memory), bases from
// host memory, and both on the device, each with the workspace poisoned. A budget of what a
// quarter of the points need (msm_device_bytes, with the whole MSM's window) takes four parts;
// exactly the whole MSM's need, one; a byte less, two. A bad point in a later part is named by its
// index in the whole MSM; a budget below one point's buckets is Error(OutOfMemory), and the next
// call works.
TEST(Bls12377MsmGpu, SmallMemoryBudgetGivesTheSameSum) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(49);
  const size_t n = sized<size_t>(20000, 5000);
  Input in = random_input(n, rng);
  const G1Affine expect = expected_msm(in.dlogs, in.scalars);
  const MsmBases bases = resident_bases(in);
  const bls12_377::detail::DeviceBases& dev = *bases.device();
  const unsigned t = bls12_377::cuda::window_table_bits(dev);
  ASSERT_GT(t, 2u);
  ::zkgpu::cuda::DeviceBuffer<Scalar> d_scalars(n);
  d_scalars.upload(in.scalars.data(), n);
  auto parts_of = [](const PhaseTimes& times) {
    return size_t(
        std::count_if(times.phases.begin(), times.phases.end(), [](const auto& p) { return p.first == "fill"; }));
  };
  struct Kind {
    const char* name;
    const bls12_377::detail::DeviceBases* bases;
    bool host_scalars;
    unsigned c;
  };
  // Every part takes the window of the whole MSM (c, or the table's when 0), so the need of a part
  // is asked with that window.
  const unsigned c = gpu_plan::default_window_bits(n);
  for (const Kind k : {Kind{"window table", &dev, true, 0}, Kind{"per-window buckets", &dev, true, t - 1},
                       Kind{"bases from host", nullptr, true, c}, Kind{"device inputs", &dev, false, c}}) {
    auto run = [&](uint64_t budget, PhaseTimes* times) {
      MsmGpuOptions gpu = poisoned();
      if (!k.host_scalars) {  // straight to the backend, as msm_device_resident does
        gpu.memory_budget = budget;
        gpu.phases = times;
        return te_to_sw(
            bls12_377::cuda::msm_device(bls12_377::cuda::device_points(dev), d_scalars.data(), n, k.c, gpu));
      }
      MsmOptions o = on(Backend::Cuda, k.c);  // the public options, as a caller sets them
      o.gpu_memory_budget = budget;
      o.phase_times = times;
      return k.bases ? msm_tuned(bases, in.scalars, o, gpu) : msm_tuned(in.points, in.scalars, o, gpu);
    };
    auto need = [&](size_t m) { return bls12_377::cuda::msm_device_bytes(k.bases, k.host_scalars, m, k.c); };
    for (const auto& [budget, parts] : {std::pair{need((n + 3) / 4), size_t{4}}, std::pair{need(n), size_t{1}},
                                        std::pair{need(n) - 1, size_t{2}}, std::pair{uint64_t{0}, size_t{1}}}) {
      PhaseTimes times;
      EXPECT_EQ(run(budget, &times), expect) << k.name << ", budget " << budget;
      EXPECT_EQ(parts_of(times), parts) << k.name << ", budget " << budget;
    }
  }

  Input bad = in;
  bad.points[n - 10] = {-Fp::one(), Fp::zero(), false};  // in the last part
  MsmOptions o = on(Backend::Cuda);
  o.gpu_memory_budget = bls12_377::cuda::msm_device_bytes(nullptr, true, (n + 3) / 4, c);
  try {
    (void)msm(bad.points, bad.scalars, o);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("point " + std::to_string(n - 10)), std::string::npos) << e.what();
  }
  o.gpu_memory_budget = 1000;
  try {
    (void)msm(bases, in.scalars, o);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("gpu_memory_budget"), std::string::npos) << e.what();
  }
  EXPECT_EQ(msm(bases, in.scalars, on(Backend::Cuda)), expect);
}
#endif

TEST(Bls12377MsmGpu, CudaBackendWithoutGpuIsUnavailable) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is present";
  std::vector<G1Affine> pts = {G1Affine::generator()};
  std::vector<Scalar> s = {scalar_u64(1)};
  try {
    (void)msm(pts, s, on(Backend::Cuda));
    FAIL() << "expected Error(Unavailable)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unavailable);
  }
}

}  // namespace
}  // namespace zkgpu::test
