// `zkgpu whir params | prove | verify` through the built binary.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_runner.hpp"

namespace zkgpu {
namespace {

using test::CliRun;
CliRun run(const std::string& args) { return test::run_cli(args); }

std::string tmp_path(const std::string& name) {
  // The process id keeps tests that ctest runs in parallel off each other's files.
  return (::testing::TempDir().empty() ? std::string("/tmp/") : ::testing::TempDir()) + "zkgpu_whir_" +
         std::to_string(getpid()) + "_" + name;
}

TEST(WhirCli, ParamsJsonHasTheIssueShape) {
  const CliRun r = run("whir params --vars 20 --fold 4 --rate 1 --soundness cb --json");
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  for (const char* k : {"num_variables", "security_level", "soundness", "commitment_ood_samples",
                        "starting_folding_pow_bits", "rounds", "final"})
    EXPECT_TRUE(j.contains(k)) << k;
  ASSERT_EQ(j["rounds"].size(), 3u);
  EXPECT_EQ(j["rounds"][0]["num_queries"], 91);
  EXPECT_EQ(j["rounds"][2]["folding_pow_bits"], 12);
  for (const char* k : {"folding_factor", "domain_size", "num_queries", "ood_samples", "pow_bits", "folding_pow_bits"})
    EXPECT_TRUE(j["rounds"][0].contains(k)) << k;
  for (const char* k : {"folding_factor", "domain_size", "num_queries", "pow_bits", "folding_pow_bits", "sumcheck_rounds"})
    EXPECT_TRUE(j["final"].contains(k)) << k;
  EXPECT_EQ(j["final"]["num_queries"], 11);
  EXPECT_EQ(j["final"]["domain_size"], 1 << 16);
  EXPECT_NE(r.out.find("refuted"), std::string::npos);  // the CapacityBound warning (stderr)
}

TEST(WhirCli, ParamsErrorsAreUsageErrors) {
  EXPECT_EQ(run("whir params --vars 20 --rate 0").rc, 2);
  EXPECT_EQ(run("whir params --vars 24 --fold 8 --rate 3 --soundness cb").rc, 2);
  EXPECT_EQ(run("whir params --vars 24 --fold 4 --soundness cb --enforce-pow-budget").rc, 2);
  EXPECT_EQ(run("whir params --vars 24 --fold 4 --soundness cb").rc, 0);
}

TEST(WhirCli, ProveVerifyAndReject) {
  const std::string proof = tmp_path("proof.bin");
  CliRun r = run("whir prove --vars 10 --fold 3 --rate 2 --soundness jb --security 40 --pow-budget 8 --random 7 "
              "--point-seed 9 --num-points 2 --out " + proof);
  ASSERT_EQ(r.rc, 0) << r.out;
  r = run("whir verify " + proof);
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("accepted"), std::string::npos);

  std::ifstream in(proof, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 200u);
  // A changed claimed value (the first claim's value c0 byte) is a valid file and a rejected proof.
  std::vector<char> bad = bytes;
  const size_t value_off = 52 + 10 * 16;
  bad[value_off] ^= 1;
  const std::string bad_path = tmp_path("bad.bin");
  std::ofstream(bad_path, std::ios::binary).write(bad.data(), std::streamsize(bad.size()));
  r = run("whir verify " + bad_path);
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("rejected"), std::string::npos);
  // A truncated file is a parse error.
  std::ofstream(bad_path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size() - 3));
  r = run("whir verify " + bad_path);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("truncated"), std::string::npos) << r.out;
  EXPECT_EQ(run("whir verify " + tmp_path("does_not_exist.bin")).rc, 2);
  std::remove(bad_path.c_str());

  // --poly: the same polynomial from a file gives a file that verifies.
  const std::string poly = tmp_path("poly.bin");
  {
    std::ofstream f(poly, std::ios::binary);
    for (uint32_t i = 0; i < 256; ++i) {
      const uint32_t v = i * 2654435761u % 2013265921u;
      f.write(reinterpret_cast<const char*>(&v), 4);
    }
  }
  r = run("whir prove --vars 8 --fold 2 --poly " + poly + " --out " + proof);
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_EQ(run("whir verify " + proof).rc, 0);
  EXPECT_EQ(run("whir prove --vars 9 --fold 2 --poly " + poly + " --out " + proof).rc, 2);  // wrong size
  std::remove(poly.c_str());
  std::remove(proof.c_str());
}

TEST(WhirCli, CudaBackend) {
  const std::string proof = tmp_path("cuda.bin");
  const CliRun r = run("whir prove --vars 8 --backend cuda --out " + proof);
  if (cuda_usable()) {
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(run("whir verify " + proof).rc, 0);
    std::remove(proof.c_str());
  } else {
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.out.find("--backend cuda"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace zkgpu
