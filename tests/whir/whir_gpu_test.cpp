// The GPU WHIR prover against the CPU one: the backend operations one by one, then whole proofs,
// which must be byte-identical files (the PoW is ground deterministically on both). Small mode
// (ZKGPU_TEST_SMALL=1) proves the 20-variable configurations at 14 (still the GPU side of Auto's
// crossover) and times 14 and 21 variables instead of 22 and 24.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <set>
#include <string>

#include "support/test_support.hpp"
#include "whir/whir_test_support.hpp"
#include "whir/prover_backend.hpp"
#include "whir/transcript.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"
#if ZKGPU_HAVE_CUDA
#include "runtime/cuda/runtime.cuh"
#include "whir/cuda/backend.hpp"
#endif

namespace zkgpu::whir {
namespace {

using test::make_params;
using test::random_instance;
using test::Rng;
using EF = BabyBear4;

#if ZKGPU_HAVE_CUDA

// What prove(..., Backend::Cuda) runs after its argument checks, from a poisoned workspace.
Proof poisoned_gpu_prove(const WhirConfig& cfg, std::span<const BabyBear> evals, std::span<const Claim> claims) {
  const auto be =
      cuda::make_backend(evals, detail::prover_shape(cfg), detail::whir_poseidon2(), {.workspace_poison = true});
  return detail::prove_with_backend(cfg, *be, claims);
}

void expect_same_openings(const std::vector<MerkleOpening>& a, const std::vector<MerkleOpening>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].row, b[i].row) << "opening " << i;
    EXPECT_EQ(a[i].siblings, b[i].siblings) << "opening " << i;
  }
}

// `rounds` sumcheck rounds on both backends at the same random challenges: the round coefficients
// must agree before each bind, and the folded table and weights after the last.
void bind_rounds(detail::ProverBackend& cpu, detail::ProverBackend& gpu, unsigned rounds, Rng& rng) {
  for (unsigned j = 0; j < rounds; ++j) {
    SCOPED_TRACE(testing::Message() << "round " << j);
    ASSERT_EQ(cpu.sumcheck_coeffs(), gpu.sumcheck_coeffs());
    const EF r = rng.fe4();
    cpu.bind(r);
    gpu.bind(r);
  }
  ASSERT_EQ(cpu.table(), gpu.table());
  ASSERT_EQ(cpu.weights(), gpu.weights());
}

// The operations of the backend interface, driven identically on both backends, outside any
// transcript: a failure here names the operation that differs.
TEST(WhirGpu, BackendOperationsMatchCpu) {
  ZKGPU_REQUIRE_GPU();
  struct Case {
    unsigned n, k0, k1, rate;
  };
  for (const Case c : {Case{1, 1, 0, 1}, Case{2, 1, 1, 2}, Case{5, 2, 3, 1}, Case{10, 3, 4, 2}, Case{13, 4, 4, 1},
                       Case{17, 1, 2, 3}}) {
    SCOPED_TRACE(testing::Message() << "n " << c.n << " k0 " << c.k0 << " k1 " << c.k1 << " rate " << c.rate);
    Rng rng(100 + c.n);
    const std::vector<BabyBear> evals = rng.fes(size_t(1) << c.n);
    detail::ProverShape shape;
    shape.num_variables = c.n;
    const unsigned h0 = c.n + c.rate - c.k0;
    shape.commits.push_back({c.n, c.k0, h0, false});
    const unsigned m1 = c.n - c.k0;
    const bool second = c.k1 > 0 && c.k1 <= m1;
    const unsigned h1 = second ? m1 - c.k1 + c.rate : 0;
    if (second) shape.commits.push_back({m1, c.k1, h1, true});
    const auto cpu = detail::make_cpu_backend(evals);
    const auto gpu = cuda::make_backend(evals, shape, detail::whir_poseidon2(), {.workspace_poison = true});

    ASSERT_EQ(cpu->commit(c.k0, h0), gpu->commit(c.k0, h0));
    std::vector<EF> pt(c.n);
    for (EF& x : pt) x = rng.fe4();
    EXPECT_EQ(cpu->evaluate(pt), gpu->evaluate(pt));
    std::vector<std::vector<EF>> eqs(3, std::vector<EF>(c.n));
    for (auto& p : eqs)
      for (EF& x : p) x = rng.fe4();
    const std::vector<EF> eq_scales = {rng.fe4(), rng.fe4(), rng.fe4()};
    cpu->add_weights(eqs, eq_scales, {}, {});
    gpu->add_weights(eqs, eq_scales, {}, {});
    std::vector<size_t> idx;
    for (int i = 0; i < 7; ++i) idx.push_back(rng.u32() % (size_t(1) << h0));
    expect_same_openings(cpu->open(0, idx), gpu->open(0, idx));

    unsigned m = c.n;
    ASSERT_NO_FATAL_FAILURE(bind_rounds(*cpu, *gpu, c.k0, rng));
    m -= c.k0;
    if (shape.commits.size() < 2) continue;

    EXPECT_EQ(cpu->commit(c.k1, h1), gpu->commit(c.k1, h1));
    std::vector<EF> pt2(m);
    for (EF& x : pt2) x = rng.fe4();
    EXPECT_EQ(cpu->evaluate(pt2), gpu->evaluate(pt2));
    // Select weights at many points (more than one tile's worth of queries) plus an eq weight.
    std::vector<BabyBear> zs;
    std::vector<EF> z_scales;
    for (int l = 0; l < 37; ++l) {
      zs.push_back(rng.fe());
      z_scales.push_back(rng.fe4());
    }
    const std::vector<std::vector<EF>> eq2 = {pt2};
    const std::vector<EF> eq2_scale = {rng.fe4()};
    cpu->add_weights(eq2, eq2_scale, zs, z_scales);
    gpu->add_weights(eq2, eq2_scale, zs, z_scales);
    ASSERT_EQ(cpu->weights(), gpu->weights());
    expect_same_openings(cpu->open(0, idx), gpu->open(0, idx));  // the older tree is still held
    std::vector<size_t> idx1;
    for (int i = 0; i < 5; ++i) idx1.push_back(rng.u32() % (size_t(1) << h1));
    expect_same_openings(cpu->open(1, idx1), gpu->open(1, idx1));
    ASSERT_NO_FATAL_FAILURE(bind_rounds(*cpu, *gpu, m, rng));
  }
}

struct ProofCase {
  unsigned n;
  FoldingFactor fold;
  unsigned rate;
  Soundness s;
  size_t claims;
};

std::string describe(const ProofCase& c) {
  std::string f = c.fold.from_second_round ? std::to_string(c.fold.first) + "," + std::to_string(c.fold.rest)
                                           : std::to_string(c.fold.first);
  return "n " + std::to_string(c.n) + " fold " + f + " rate " + std::to_string(c.rate) + " " + to_string(c.s) +
         " claims " + std::to_string(c.claims);
}

TEST(WhirGpu, ProofsAreByteIdenticalToCpu) {
  ZKGPU_REQUIRE_GPU();
  using FF = FoldingFactor;
  const Soundness UD = Soundness::UniqueDecoding, CB = Soundness::CapacityBound;
  const std::vector<ProofCase> cases = {
      {1, FF::constant(1), 1, UD, 1},
      {4, FF::constant(4), 1, CB, 2},
      {4, FF::constant(2), 3, UD, 1},
      {8, FF::constant(1), 2, CB, 2},
      {8, FF::constant_from_second_round(3, 2), 1, UD, 1},
      {12, FF::constant(3), 2, CB, 2},
      {12, FF::constant_from_second_round(4, 1), 1, UD, 1},
      {12, FF::constant(2), 3, Soundness::JohnsonBound, 1},
      {16, FF::constant(4), 1, CB, 2},
      {16, FF::constant(1), 1, UD, 1},
      {16, FF::constant_from_second_round(2, 3), 3, CB, 1},
      {test::sized(20u, 14u), FF::constant(4), 1, CB, 1},
      {test::sized(20u, 14u), FF::constant(2), 2, UD, 2},
      {test::sized(20u, 14u), FF::constant_from_second_round(1, 4), 1, CB, 1},
  };
  for (const ProofCase& c : cases) {
    SCOPED_TRACE(describe(c));
    Rng rng(1000 + c.n * 7 + c.rate);
    const auto [cfg, evals, claims] = random_instance(rng, make_params(c.n, c.fold, c.rate, c.s), c.claims);
    const Proof cpu = prove(cfg, evals, claims, Backend::Cpu);
    const Proof gpu = poisoned_gpu_prove(cfg, evals, claims);
    const std::vector<uint8_t> cpu_file = write_proof_file(cfg, claims, cpu);
    const std::vector<uint8_t> gpu_file = write_proof_file(cfg, claims, gpu);
    EXPECT_EQ(cpu.initial_commitment, gpu.initial_commitment);
    ASSERT_EQ(cpu_file.size(), gpu_file.size());
    const auto diff = std::mismatch(cpu_file.begin(), cpu_file.end(), gpu_file.begin());
    EXPECT_TRUE(diff.first == cpu_file.end()) << "first differing byte at offset " << (diff.first - cpu_file.begin());
    const VerifyResult v = verify(cfg, claims, gpu);
    EXPECT_TRUE(v.accepted) << v.reason;
    // Auto at or above the crossover takes the GPU and must give the same file again.
    if (c.n >= WHIR_GPU_CROSSOVER_VARS) {
      EXPECT_EQ(write_proof_file(cfg, claims, prove(cfg, evals, claims, Backend::Auto)), cpu_file);
    }
  }
}

// release_gpu_caches() frees the workspace, the NTT root tables and the PoW slot; the next prove
// creates them again and writes the same file, twice in a row (a release with nothing cached).
TEST(WhirGpu, ProofAfterReleasingGpuCachesIsUnchanged) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(78);
  // Named members, not a structured binding: the lambdas below capture them.
  const test::Instance in =
      random_instance(rng, make_params(14, FoldingFactor::constant(2), 1, Soundness::CapacityBound), 2);
  const std::vector<uint8_t> cpu =
      write_proof_file(in.cfg, in.claims, prove(in.cfg, in.evals, in.claims, Backend::Cpu));
  // Each step named, so a prove that throws says which one it was.
  const auto expect_cpu_file = [&](const std::string& step, const auto& prove_once) {
    try {
      EXPECT_EQ(write_proof_file(in.cfg, in.claims, prove_once()), cpu) << step;
    } catch (const std::exception& e) {
      ADD_FAILURE() << step << " threw: " << e.what();
    }
  };
  const auto poisoned = [&] { return poisoned_gpu_prove(in.cfg, in.evals, in.claims); };
  expect_cpu_file("before any release", poisoned);
  for (int round = 0; round < 2; ++round) {
    release_gpu_caches();
    release_gpu_caches();
    expect_cpu_file("after release round " + std::to_string(round), poisoned);
  }
  // The public call, with and without a crossover that sends Auto to the GPU.
  expect_cpu_file("Backend::Cuda", [&] { return prove(in.cfg, in.evals, in.claims, Backend::Cuda); });
  expect_cpu_file("Auto, crossover 0",
                  [&] { return prove(in.cfg, in.evals, in.claims, ProveOptions{.gpu_crossover = 0}); });
}

// ProveOptions::phase_times: every stage call in order, "host" between them, as many Merkle builds
// as commitments, device times that fit in the wall time; the proof is the same with it, and a
// second prove appends to it.
TEST(WhirGpu, PhaseTimesListEveryStage) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(79);
  const auto [cfg, evals, claims] =
      random_instance(rng, make_params(14, FoldingFactor::constant(2), 1, Soundness::CapacityBound), 2);
  const std::vector<uint8_t> cpu = write_proof_file(cfg, claims, prove(cfg, evals, claims, Backend::Cpu));
  PhaseTimes times;
  EXPECT_EQ(write_proof_file(cfg, claims,
                             prove(cfg, evals, claims, ProveOptions{.backend = Backend::Cuda, .phase_times = &times})),
            cpu);
  ASSERT_GE(times.phases.size(), 4u);
  EXPECT_EQ(times.phases[0].first, "host");  // the workspace's setup
  EXPECT_EQ(times.phases[1].first, "upload");
  const std::set<std::string> names = {"host",    "upload",   "transpose", "lde",      "merkle", "sumcheck",
                                       "weights", "ood-eval", "open",      "download", "gpu-pow"};
  size_t merkle = 0, host = 0;
  for (size_t i = 0; i < times.phases.size(); ++i) {
    const auto& [name, ms] = times.phases[i];
    EXPECT_TRUE(names.count(name)) << name;
    EXPECT_GE(ms, 0.0) << name;
    merkle += name == "merkle";
    host += name == "host";
    EXPECT_EQ(name == "host", i % 2 == 0) << i << " " << name;  // host and stages alternate
  }
  EXPECT_EQ(merkle, 1 + cfg.n_rounds);
  EXPECT_EQ(2 * host, times.phases.size());
  EXPECT_GT(times.wall_ms, 0.0);
  EXPECT_LE(times.device_ms(), times.wall_ms + 0.05);  // GPU timestamps lie inside the host's window
  const size_t first = times.phases.size();
  (void)prove(cfg, evals, claims, ProveOptions{.backend = Backend::Cuda, .phase_times = &times});
  EXPECT_EQ(times.phases.size(), 2 * first);
}

TEST(WhirGpu, FalseClaimIsRefusedLikeOnCpu) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(77);
  auto [cfg, evals, claims] =
      random_instance(rng, make_params(10, FoldingFactor::constant(2), 1, Soundness::CapacityBound), 1);
  claims[0].value += EF::one();
  EXPECT_THROW((void)prove(cfg, evals, claims, Backend::Cuda), Error);
}

// A device-memory budget below the prover's need (ProveOptions::gpu_memory_budget): Cuda is
// Error(OutOfMemory) naming the budget, not a crash, and the workspace stays usable; Auto proves on
// the CPU and says why; a budget of exactly the need proves the unlimited call's bytes, after a
// larger workspace was left by an earlier prove (the arena frees it to fit).
TEST(WhirGpu, TooSmallMemoryBudgetIsOutOfMemory) {
  ZKGPU_REQUIRE_GPU();
  const unsigned n = test::sized(18u, 14u);
  Rng rng(6);
  const auto [cfg, evals, claims] =
      random_instance(rng, make_params(n, FoldingFactor::constant(2), 2, Soundness::CapacityBound), 1);
  const size_t need = cuda::memory_need(detail::prover_shape(cfg));
  const std::vector<uint8_t> unlimited = write_proof_file(cfg, claims, prove(cfg, evals, claims, Backend::Cuda));
  for (uint64_t budget : {uint64_t{1}, uint64_t{1} << 20, uint64_t{need - 1}}) {
    try {
      (void)prove(cfg, evals, claims, ProveOptions{.backend = Backend::Cuda, .gpu_memory_budget = budget});
      ADD_FAILURE() << "expected Error(OutOfMemory) for a budget of " << budget;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::OutOfMemory) << e.what();
      EXPECT_NE(std::string(e.what()).find("gpu_memory_budget"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("WHIR"), std::string::npos) << e.what();
    }
  }
  std::string why;
  const Proof fallback =
      prove(cfg, evals, claims,
            ProveOptions{.gpu_crossover = 0, .gpu_fallback = &why, .gpu_memory_budget = uint64_t{1} << 20});
  EXPECT_NE(why.find("gpu_memory_budget"), std::string::npos) << why;
  EXPECT_EQ(write_proof_file(cfg, claims, fallback), unlimited);
  // A larger prove first leaves a larger workspace; the budgeted prove still fits.
  const test::Instance big =
      random_instance(rng, make_params(n + 1, FoldingFactor::constant(2), 2, Soundness::CapacityBound), 1);
  (void)prove(big.cfg, big.evals, big.claims, Backend::Cuda);
  const Proof exact = prove(cfg, evals, claims, ProveOptions{.backend = Backend::Cuda, .gpu_memory_budget = need});
  EXPECT_EQ(write_proof_file(cfg, claims, exact), unlimited);
}

// More than the free device memory: Cuda reports OutOfMemory before allocating anything; Auto
// falls back to the CPU (ProveOptions::gpu_fallback says why) and produces the CPU's proof.
TEST(WhirGpu, OversizeRequestErrorsCleanly) {
  ZKGPU_REQUIRE_GPU();
  const unsigned n = test::sized(20u, 16u);
  Rng rng(5);
  const auto [cfg, evals, claims] =
      random_instance(rng, make_params(n, FoldingFactor::constant(2), 2, Soundness::CapacityBound), 1);
  const size_t need = cuda::memory_need(detail::prover_shape(cfg));
  cuda::release_workspace();
  // Occupy the device until less than a quarter of the need is free (in pieces: one huge
  // allocation can fail where several succeed).
  std::vector<zkgpu::cuda::DeviceBuffer<uint8_t>> filler;
  for (int i = 0; i < 4096; ++i) {
    const std::optional<GpuInfo> info = gpu_info();
    ASSERT_TRUE(info.has_value());
    if (info->free_memory <= need / 4 + (size_t(16) << 20)) break;
    try {
      filler.emplace_back(std::min<size_t>(info->free_memory - need / 4, size_t(8) << 30));
    } catch (const Error&) {
      break;  // the assertion below says whether enough is occupied
    }
  }
  ASSERT_LT(gpu_info()->free_memory, need);
  try {
    (void)prove(cfg, evals, claims, Backend::Cuda);
    ADD_FAILURE() << "expected Error(OutOfMemory)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory) << e.what();
    EXPECT_NE(std::string(e.what()).find("WHIR"), std::string::npos) << e.what();
  }
  std::string why;
  PhaseTimes times;
  const Proof fallback = prove(cfg, evals, claims, ProveOptions{.phase_times = &times, .gpu_fallback = &why});
  filler.clear();
  EXPECT_NE(why.find("WHIR"), std::string::npos) << why;
  EXPECT_TRUE(times.phases.empty());  // the GPU prove that failed reports nothing
  EXPECT_EQ(write_proof_file(cfg, claims, fallback),
            write_proof_file(cfg, claims, prove(cfg, evals, claims, Backend::Cpu)));
  // And the GPU works again once the memory is back.
  EXPECT_EQ(write_proof_file(cfg, claims, prove(cfg, evals, claims, Backend::Cuda)),
            write_proof_file(cfg, claims, fallback));
}

// The benchmark targets' configurations (CapacityBound, security 100, PoW budget 16): proves three
// times (warm workspace), checks the proofs agree and verify, and prints the median time. (Small
// mode: 14 variables folded by 1 and 21 by 4, which still uploads the witness in staged chunks,
// above 2^20 words; proves once more after the first, warm.)
TEST(WhirGpu, TargetConfigurationsTiming) {
  ZKGPU_REQUIRE_GPU();
  struct T {
    unsigned n, fold;
    double target_ms;
  };
  for (const T t : test::sized<T>({{22, 1, 60.0}, {24, 4, 20.0}}, {{14, 1, 0.0}, {21, 4, 0.0}})) {
    Rng rng(t.n);
    const auto [cfg, evals, claims] =
        random_instance(rng, make_params(t.n, FoldingFactor::constant(t.fold), 1, Soundness::CapacityBound), 1);
    std::vector<double> ms;
    std::vector<uint8_t> first;
    for (int run = 0, runs = test::sized(4, 2); run < runs; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      const Proof p = prove(cfg, evals, claims, Backend::Cuda);
      const double dt = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::vector<uint8_t> file = write_proof_file(cfg, claims, p);
      if (run == 0) {
        first = std::move(file);
        const VerifyResult v = verify(cfg, claims, p);
        EXPECT_TRUE(v.accepted) << v.reason;
        continue;  // the first run allocates the workspace
      }
      EXPECT_EQ(file, first);
      ms.push_back(dt);
    }
    std::sort(ms.begin(), ms.end());
    std::cout << "[ timing  ] whir prove n=" << t.n << " fold=" << t.fold << " rate=1 cb on the GPU: median "
              << ms[ms.size() / 2] << " ms";
    if (t.target_ms > 0) std::cout << " (target " << t.target_ms << " ms)";
    std::cout << "\n";
  }
}

#else

TEST(WhirGpu, NotBuilt) {
  ZKGPU_REQUIRE_GPU();
  FAIL() << "a usable GPU in a build without the CUDA backend";
}

#endif

}  // namespace
}  // namespace zkgpu::whir
