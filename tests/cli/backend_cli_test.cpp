// --backend and the other shared options across the commands, run as subprocesses: one
// vocabulary parsed by CLI11 (a bad value is a usage error naming the choices), the backend that
// ran reported by every command that dispatches, --backend cuda without a usable GPU failing with
// the reason, and --help listing the choices and the defaults.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "zkgpu/backend.hpp"

namespace zkgpu {
namespace {

using test::CliRun;
using test::run_cli;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

std::string tmp_path(const std::string& name) {
  return ::testing::TempDir() + "zkgpu_backend_cli_" + std::to_string(getpid()) + "_" + name;
}

// A line command and one valid input, small enough that auto picks the CPU on any machine.
struct LineCommand {
  std::string args, input;
};
std::vector<LineCommand> line_commands() {
  const std::string seed32(64, '1');
  const CliRun sigs = run_cli("ed25519 generate --count 3", std::nullopt, true);
  const CliRun points = run_cli("msm generate --count 4", std::nullopt, true);
  EXPECT_EQ(sigs.rc, 0);
  EXPECT_EQ(points.rc, 0);
  return {
      {"poseidon2 permute", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"},
      {"ed25519 verify", sigs.out},
      {"msm run", points.out},
      {"mlkem keygen --set 512", seed32 + ":" + seed32 + "\n"},
      {"mldsa keygen --set 44", seed32 + "\n"},
  };
}

TEST(BackendCli, LineCommandsNameTheBackendThatRanOnStderr) {
  for (const LineCommand& c : line_commands()) {
    for (const char* backend : {"cpu", "auto"}) {
      SCOPED_TRACE(c.args + " --backend " + backend);
      const CliRun out = run_cli(c.args + " --backend " + backend, c.input, true);
      const CliRun all = run_cli(c.args + " --backend " + backend, c.input);
      ASSERT_EQ(all.rc, 0) << all.out;
      EXPECT_FALSE(contains(out.out, "backend")) << out.out;  // stdout is the line format alone
      EXPECT_EQ(all.out, out.out + "backend: cpu\n");
    }
    if (cuda_usable()) {
      SCOPED_TRACE(c.args + " --backend cuda");
      const CliRun all = run_cli(c.args + " --backend cuda", c.input);
      ASSERT_EQ(all.rc, 0) << all.out;
      EXPECT_TRUE(ends_with(all.out, "backend: cuda\n")) << all.out;
      // The GPU's lines are the CPU's.
      EXPECT_EQ(run_cli(c.args + " --backend cuda", c.input, true).out,
                run_cli(c.args + " --backend cpu", c.input, true).out);
    }
  }
}

TEST(BackendCli, WhirProveAndBenchmarksNameTheBackend) {
  const std::string proof = tmp_path("proof.bin");
  CliRun r = run_cli("whir prove --vars 8 --backend auto --out " + proof);  // below WHIR's crossover
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "of a 2^8 polynomial (backend: cpu) in ")) << r.out;
  std::remove(proof.c_str());

  // Batches 1 and 8 lie below every ML-KEM / ML-DSA crossover: auto runs them on the CPU.
  for (const char* cmd :
       {"mlkem bench --quick --json --set 768 --backend auto", "mldsa bench --quick --json --set 44 --backend auto"}) {
    SCOPED_TRACE(cmd);
    r = run_cli(cmd, std::nullopt, true);
    ASSERT_EQ(r.rc, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["rows"].size(), 6u);
    for (const auto& row : j["rows"]) EXPECT_EQ(row["backend"], "cpu");
  }
  // all: the CPU rows, and the GPU's when one is usable.
  r = run_cli("mlkem bench --quick --json --set 512 --backend all", std::nullopt, true);
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto rows = nlohmann::json::parse(r.out)["rows"];
  EXPECT_EQ(rows.size(), cuda_usable() ? 12u : 6u);
  r = run_cli("msm bench --quick --runs 1 --json --backend cpu", std::nullopt, true);
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto msm = nlohmann::json::parse(r.out);
  EXPECT_EQ(msm["backend"], "cpu");
  for (const auto& row : msm["rows"]) {
    EXPECT_GT(row["cpu_ms"].get<double>(), 0);
    EXPECT_TRUE(row["gpu_resident_ms"].is_null());
  }
}

TEST(BackendCli, CudaWithoutAUsableGpuFailsWithTheReason) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is usable here";
  const std::string reason = cuda_unavailable_reason();
  ASSERT_FALSE(reason.empty());
  // The runtime says "driver version is insufficient" also when there is no driver at all.
  if (contains(reason, "cudaErrorInsufficientDriver")) {
    EXPECT_TRUE(reason.rfind("no NVIDIA driver is loaded (", 0) == 0 ||
                reason.rfind("the NVIDIA driver supports CUDA ", 0) == 0)
        << reason;
  }
  if (!cuda_built()) {
    EXPECT_TRUE(contains(reason, "no CUDA backend")) << reason;
  }

  std::vector<LineCommand> cmds = line_commands();
  for (LineCommand& c : cmds) c.args += " --backend cuda";
  const std::string proof = tmp_path("cuda.bin");
  for (const std::string& args :
       {"whir prove --vars 8 --backend cuda --out " + proof, std::string("msm bench --quick --runs 1 --backend cuda"),
        std::string("whir bench --vars 12 --runs 1 --backend cuda"), std::string("mlkem bench --quick --backend cuda"),
        std::string("mldsa bench --quick --backend cuda")})
    cmds.push_back({args, ""});
  for (const LineCommand& c : cmds) {
    SCOPED_TRACE(c.args);
    const CliRun r = run_cli(c.args, c.input);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "error: ")) << r.out;
    EXPECT_TRUE(contains(r.out, reason)) << r.out;
  }
  std::remove(proof.c_str());

  CliRun info = run_cli("info", std::nullopt, true);
  ASSERT_EQ(info.rc, 0);
  EXPECT_TRUE(contains(info.out, "gpu:        none (" + reason + ")\n")) << info.out;
  info = run_cli("info --json", std::nullopt, true);
  ASSERT_EQ(info.rc, 0);
  EXPECT_EQ(nlohmann::json::parse(info.out)["gpu_unavailable_reason"], reason);
}

TEST(BackendCli, ChoicesAreCheckedByTheParser) {
  struct Case {
    std::string args, message;
  } cases[] = {
      {"ed25519 verify --backend gpux", "--backend: 'gpux' is not one of auto|cpu|cuda"},
      {"poseidon2 permute --backend all", "--backend: 'all' is not one of auto|cpu|cuda"},  // benchmarks only
      {"msm bench --backend both", "--backend: 'both' is not one of all|auto|cpu|cuda"},    // whir bench only
      {"mlkem keygen --set 2", "--set: '2' is not one of 512|768|1024"},                    // not the enum's number
      {"mldsa bench --set 768", "--set: '768' is not one of all|44|65|87"},
      {"ed25519 verify --mode ref10", "--mode: 'ref10' is not one of openssl|strict|zip215"},
      {"poseidon2 permute --constants nope", "--constants: 'nope' is not one of plonky3|whir|xoroshiro1"},
      {"whir params --vars 10 --soundness xx", "--soundness: 'xx' is not one of ud|jb|cb"},
      {"bench fft", "'fft' is not one of ntt|poseidon2|merkle|pow|all"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const CliRun r = run_cli(c.args, "");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, c.message)) << r.out;
  }
  // The old spelling of all.
  const CliRun both = run_cli("whir bench --grid quick --list --json --backend both", std::nullopt, true);
  ASSERT_EQ(both.rc, 0) << both.out;
  EXPECT_EQ(nlohmann::json::parse(both.out)["backend"], "all");
}

// whir bench: the verification on one thread beside the default one, and --profile's GPU stages
// (a row only when the GPU ran; each stage a positive median, the stages inside the wall time).
TEST(BackendCli, WhirBenchReportsOneThreadVerifyAndGpuStages) {
  const CliRun r = run_cli("whir bench --vars 14 --runs 2 --profile --json --backend all", std::nullopt, true);
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto row = nlohmann::json::parse(r.out)["rows"].at(0);
  EXPECT_GT(row["verify_ms"].get<double>(), 0);
  EXPECT_GT(row["verify_1t_ms"].get<double>(), 0);
  if (!cuda_usable()) {
    EXPECT_FALSE(row.contains("gpu_stages_ms"));
    return;
  }
  const auto& stages = row.at("gpu_stages_ms");
  ASSERT_TRUE(stages.contains("merkle") && stages.contains("lde")) << stages.dump();
  double sum = 0;
  for (const auto& [name, ms] : stages.items()) {
    EXPECT_GT(ms.get<double>(), 0) << name;
    sum += ms.get<double>();
  }
  EXPECT_LE(sum, row["gpu_profiled_wall_ms"].get<double>() * 1.01);
}

TEST(BackendCli, HelpListsTheChoicesAndTheDefaults) {
  struct Case {
    std::string args;
    std::vector<std::string> parts;
  } cases[] = {
      {"--help", {"--version", "Subcommands:", "whir", "ed25519", "--backend is auto|cpu|cuda", "Exit status"}},
      {"ed25519 verify --help",
       {"--backend {auto|cpu|cuda}=auto", "--mode {openssl|strict|zip215}=openssl", "--in TEXT=-"}},
      {"whir prove --help", {"--out TEXT=proof.bin", "--fold UINT=4", "--soundness {ud|jb|cb}=ud", "=auto"}},
      {"whir bench --help", {"--backend {all|auto|cpu|cuda}=all", "both: the old spelling of all", "=cb"}},
      {"msm bench --help", {"--backend {all|auto|cpu|cuda}=all", "--runs INT:INT in [1 - 100]=3"}},
      {"mlkem bench --help", {"--backend {all|auto|cpu|cuda}=cpu", "--set {all|512|768|1024}=all"}},
      {"mldsa sign --help", {"--set {44|65|87}=65"}},
      {"bench --help", {"--runs INT:INT in [1 - 1000]=5", "{ntt|poseidon2|merkle|pow|all}=all"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const CliRun r = run_cli(c.args, std::nullopt, true);
    EXPECT_EQ(r.rc, 0) << r.out;
    for (const std::string& p : c.parts) EXPECT_TRUE(contains(r.out, p)) << p << "\n" << r.out;
  }
}

TEST(BackendCli, GeneratorsFeedTheirCommands) {
  const CliRun sigs = run_cli("ed25519 generate --count 5 --seed 7 --msg-len 3", std::nullopt, true);
  ASSERT_EQ(sigs.rc, 0);
  EXPECT_EQ(run_cli("ed25519 generate --count 5 --seed 7 --msg-len 3", std::nullopt, true).out, sigs.out);
  EXPECT_NE(run_cli("ed25519 generate --count 5 --seed 8 --msg-len 3", std::nullopt, true).out, sigs.out);
  const CliRun verdicts = run_cli("ed25519 verify --backend cpu --mode strict", sigs.out, true);
  EXPECT_EQ(verdicts.rc, 0);
  EXPECT_EQ(verdicts.out, "1\n1\n1\n1\n1\n");

  const CliRun points = run_cli("msm generate --count 64 --seed 3", std::nullopt, true);
  ASSERT_EQ(points.rc, 0);
  size_t lines = 0;
  for (char ch : points.out) lines += ch == '\n';
  EXPECT_EQ(lines, 64u);
  const CliRun sum = run_cli("msm run --backend cpu", points.out, true);
  ASSERT_EQ(sum.rc, 0) << sum.out;
  EXPECT_NE(sum.out, "infinity\n");
  // The window changes the computation, not the sum.
  EXPECT_EQ(run_cli("msm run --backend cpu --window 5", points.out, true).out, sum.out);
  EXPECT_EQ(run_cli("ed25519 generate --count 2000000").rc, 2);
}

}  // namespace
}  // namespace zkgpu
