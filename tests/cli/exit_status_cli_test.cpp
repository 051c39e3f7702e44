// The exit-status convention of every command (README, "Exit status"), run as subprocesses:
// 0 = every item valid, 1 = some item rejected, 2 = usage or input error with a message; a notice
// on stderr for an input without items; stdout write errors, unbounded sizes and bad environment
// values are errors, never a silent success.
#include <sys/stat.h>

#include <string>

#include "ed25519/ed25519_test_support.hpp"
#include "support/cli_runner.hpp"
#include "support/hex.hpp"

namespace zkgpu {
namespace {

using test::run_cli;
using test::run_cli_env;
using test::run_cli_stdout_to;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string ed25519_line() {
  const auto c = test::supercop_cases("ed25519/dalek_TESTVECTORS")[0];
  return test::to_hex(c.pk) + ":" + test::to_hex(c.sig) + ":" + test::to_hex(c.msg) + "\n";
}

// A valid ML-DSA-44 verify line and the same with one signature digit changed.
struct DsaLines {
  std::string good, bad;
};
DsaLines mldsa44_lines() {
  const auto f = test::load_vectors("mldsa/wycheproof_mldsa_44_sign_seed_test.json");
  const auto& g = f["testGroups"][0];
  const auto& t = g["tests"][0];
  const std::string prefix = g["publicKey"].get<std::string>() + ":" + t["msg"].get<std::string>() + "::";
  std::string sig = t["sig"];
  DsaLines l{prefix + sig + "\n", ""};
  sig[10] = sig[10] == '0' ? '1' : '0';
  l.bad = prefix + sig + "\n";
  return l;
}

const std::string MLKEM_SEED_LINE = std::string(64, '1') + ":" + std::string(64, '2') + "\n";

TEST(CliExitStatus, DirectoryAsInputIsAnInputError) {
  const std::string dir = ::testing::TempDir();
  auto r = run_cli("ed25519 verify --backend cpu --in " + dir, "");
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "is not a regular file (it is a directory)")) << r.out;
  EXPECT_FALSE(contains(r.out, "notice")) << r.out;
  // A regular file still works, and its verdicts come out.
  const std::string path = dir + "zkgpu_exit_status_" + std::to_string(getpid()) + ".txt";
  std::ofstream(path) << ed25519_line();
  r = run_cli("ed25519 verify --backend cpu --in " + path);
  std::remove(path.c_str());
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_EQ(r.out, "1\nbackend: cpu\n");
}

TEST(CliExitStatus, EmptyInputGivesANoticeOnStderr) {
  const char* commands[] = {
      "ed25519 verify --backend cpu", "mlkem keygen --backend cpu",      "mlkem encaps --backend cpu",
      "mlkem decaps --backend cpu",   "mldsa keygen --backend cpu",      "mldsa sign --backend cpu",
      "mldsa verify --backend cpu",   "poseidon2 permute --backend cpu", "msm run --backend cpu"};
  for (const char* cmd : commands) {
    SCOPED_TRACE(cmd);
    const std::string name = std::string(cmd).substr(0, std::string(cmd).find(" --"));
    auto r = run_cli(cmd, "");
    EXPECT_EQ(r.rc, 0) << r.out;  // nothing was rejected
    EXPECT_TRUE(contains(r.out, "notice: " + name + ": the input held no items\n")) << r.out;
    // The notice goes to stderr only: stdout is as before (msm run prints the empty sum).
    r = run_cli(cmd, "", true);
    EXPECT_EQ(r.out, name == "msm run" ? "infinity\n" : "");
  }
  // One item: no notice, the backend instead.
  auto r = run_cli("ed25519 verify --backend cpu", ed25519_line());
  EXPECT_EQ(r.out, "1\nbackend: cpu\n");
}

TEST(CliExitStatus, MlDsaVerifyExitsOneOnABadSignature) {
  const DsaLines l = mldsa44_lines();
  auto r = run_cli("mldsa verify --set 44 --backend cpu", l.good, true);
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_EQ(r.out, "1\n");
  r = run_cli("mldsa verify --set 44 --backend cpu", l.good + l.bad, true);
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_EQ(r.out, "1\n0\n");
}

TEST(CliExitStatus, PqItemErrorExitsOne) {
  struct Case {
    const char* cmd;
    std::string input, expect_last;
  } cases[] = {
      {"mlkem keygen --set 512", MLKEM_SEED_LINE + "00:11\n", "error\n"},
      {"mlkem encaps --set 512", "00:11\n", "error\n"},
      {"mlkem decaps --set 512", "00:11\n", "error\n"},
      {"mldsa keygen --set 44", std::string(64, '3') + "\n00\n", "error\n"},
      {"mldsa sign --set 44", "00:00::\n", "error\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.cmd);
    auto r = run_cli(std::string(c.cmd) + " --backend cpu", c.input, true);
    EXPECT_EQ(r.rc, 1) << r.out;
    ASSERT_GE(r.out.size(), c.expect_last.size());
    EXPECT_EQ(r.out.substr(r.out.size() - c.expect_last.size()), c.expect_last);
  }
  // No rejected item: 0.
  EXPECT_EQ(run_cli("mlkem keygen --set 512 --backend cpu", MLKEM_SEED_LINE, true).rc, 0);
  EXPECT_EQ(run_cli("mldsa keygen --set 44 --backend cpu", std::string(64, '3') + "\n", true).rc, 0);
}

TEST(CliExitStatus, StdoutWriteErrorIsAnError) {
  struct stat st {};
  if (::stat("/dev/full", &st) != 0) GTEST_SKIP() << "no /dev/full here";
  struct Case {
    const char* cmd;
    std::string input;
  } cases[] = {
      {"mlkem keygen --set 512 --backend cpu", MLKEM_SEED_LINE},              // would exit 0
      {"mlkem keygen --set 512 --backend cpu", MLKEM_SEED_LINE + "00:11\n"},  // would exit 1
      {"mldsa verify --set 44 --backend cpu", mldsa44_lines().bad},           // would exit 1
      {"poseidon2 permute --backend cpu", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"},
      {"info", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.cmd);
    auto r = run_cli_stdout_to("/dev/full", c.cmd, c.input);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "error: cannot write to stdout")) << r.out;
  }
}

TEST(CliExitStatus, SizesAreBoundedBeforeAllocation) {
  struct Case {
    const char* cmd;
    const char* message;
  } cases[] = {
      {"mlkem bench --set 512 --batch 100000000000", "--batch: Value 100000000000 not in range 1 to 1048576"},
      {"mldsa bench --set 44 --batch 1,100000000000", "--batch: Value 100000000000 not in range 1 to 1048576"},
      {"mlkem bench --set 512 --batch -1", "--batch: Value -1 not in range"},
      {"mlkem bench --set 512 --batch 0", "--batch: Value 0 not in range"},
      {"mlkem bench --set 512 --threads -1", "--threads: Value -1 not in range 0 to 4096"},
      {"mldsa bench --set 44 --min-time -1", "--min-time: Value -1 not in range"},
      {"ed25519 bench --coop-max -1", "--coop-max: Value -1 not in range 0 to 131072"},
      {"ed25519 bench --max-log 27", "--max-log: Value 27 not in range 0 to 26"},
      {"ed25519 bench --min-time -0.5", "--min-time: Value -0.5 not in range"},
      {"msm bench --log-n 27", "--log-n must be N or A..B with 1 <= A <= B <= 26"},
      {"msm bench --log-n 12x", "--log-n must be N or A..B"},
      {"msm bench --log-n=-1..4", "--log-n must be N or A..B"},
      {"msm bench --runs 0", "--runs: Value 0 not in range 1 to 100"},
      {"bench ntt --runs -3", "--runs: Value -3 not in range 1 to 1000"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.cmd);
    auto r = run_cli(c.cmd);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, c.message)) << r.out;
    EXPECT_FALSE(contains(r.out, "out of host memory")) << r.out;
  }
}

TEST(CliExitStatus, BadEnvironmentValuesAreErrors) {
  // ZKGPU_SIMD: read on the calling thread, also by a batch call that runs on OpenMP workers.
  const std::string two_states = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";
  for (const char* cmd : {"info", "poseidon2 permute --backend cpu"}) {
    SCOPED_TRACE(cmd);
    auto r = run_cli_env("ZKGPU_SIMD=foo", cmd, two_states);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "ZKGPU_SIMD='foo': expected one of scalar, avx2, avx512")) << r.out;
  }
  auto r = run_cli_env("ZKGPU_SIMD=scalar", "info");
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "using scalar")) << r.out;
}

TEST(CliExitStatus, GpuCrossoverMustBeADecimalInteger) {
  // CLI11 would take "-5" as 2^64 - 5 and "010" as octal: the flag is parsed as digits only.
  for (const char* value : {"-5", "12abc", "0x10", "99999999999999999999", ""}) {
    SCOPED_TRACE(value);
    auto r = run_cli("ed25519 verify --backend auto --gpu-crossover '" + std::string(value) + "'", ed25519_line());
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "--gpu-crossover '" + std::string(value) + "': expected a decimal integer")) << r.out;
  }
  for (const char* value : {"0", "010", "1000", "18446744073709551615"}) {
    SCOPED_TRACE(value);
    auto r = run_cli("ed25519 verify --backend auto --gpu-crossover " + std::string(value), ed25519_line());
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.out.substr(0, 2), "1\n") << r.out;
  }
  // Only the flag sets it: the environment is not consulted.
  auto r = run_cli_env("ZKGPU_ED25519_CROSSOVER=12abc", "ed25519 verify --backend auto", ed25519_line());
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_EQ(r.out.substr(0, 2), "1\n") << r.out;  // then the backend that ran
}

}  // namespace
}  // namespace zkgpu
