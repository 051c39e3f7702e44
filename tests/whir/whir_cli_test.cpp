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
  for (const char* k :
       {"folding_factor", "domain_size", "num_queries", "pow_bits", "folding_pow_bits", "sumcheck_rounds"})
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
  const std::string params = "--vars 10 --fold 3 --rate 2 --soundness jb --security 40 --pow-budget 8";
  CliRun r = run("whir prove " + params + " --random 7 --point-seed 9 --num-points 2 --out " + proof);
  ASSERT_EQ(r.rc, 0) << r.out;
  r = run("whir verify " + proof + " " + params);
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
  r = run("whir verify " + bad_path + " " + params);
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("rejected"), std::string::npos);
  // A truncated file is a parse error.
  std::ofstream(bad_path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size() - 3));
  r = run("whir verify " + bad_path + " " + params);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("truncated"), std::string::npos) << r.out;
  EXPECT_EQ(run("whir verify " + tmp_path("does_not_exist.bin") + " " + params).rc, 2);
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
  EXPECT_EQ(run("whir verify " + proof + " --vars 8 --fold 2").rc, 0);
  EXPECT_EQ(run("whir prove --vars 9 --fold 2 --poly " + poly + " --out " + proof).rc, 2);  // wrong size
  std::remove(poly.c_str());
  std::remove(proof.c_str());
}

// The verifier's parameters are its own: a proof made under others is rejected and the statement
// (root, claims, security) is shown, so an honest proof of some other polynomial is not mistaken
// for the one the caller meant.
TEST(WhirCli, VerifyChecksTheCallersParametersAndStatement) {
  const std::string proof = tmp_path("stmt.bin"), claims = tmp_path("stmt.claims");
  CliRun r = run("whir prove --vars 10 --fold 2 --security 40 --random 3 --num-points 2 --out " + proof +
                 " --claims-out " + claims);
  ASSERT_EQ(r.rc, 0) << r.out;
  const size_t at = r.out.find("commitment root ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string root = r.out.substr(at + 16, 64);

  r = run("whir verify " + proof + " --vars 10 --fold 2 --security 40 --expect-root " + root + " --claims " + claims);
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("commitment root " + root), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("claim 1: f("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("security 40 bits"), std::string::npos) << r.out;

  // The default security is 100: the 40-bit proof is not accepted as one, and the reason names it.
  r = run("whir verify " + proof + " --vars 10 --fold 2");
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("security_level: the proof says 40, the verifier requires 100"), std::string::npos) << r.out;
  EXPECT_EQ(run("whir verify " + proof + " --vars 10 --fold 2 --security 40 --rate 2").rc, 1);
  EXPECT_EQ(run("whir verify " + proof + " --vars 10 --fold 2 --security 40 --soundness cb").rc, 1);

  // Another root or other claims: rejected.
  std::string other = root;
  other[0] = other[0] == '0' ? '1' : '0';
  EXPECT_EQ(run("whir verify " + proof + " --vars 10 --fold 2 --security 40 --expect-root " + other).rc, 1);
  const std::string proof2 = tmp_path("stmt2.bin");
  ASSERT_EQ(run("whir prove --vars 10 --fold 2 --security 40 --random 4 --num-points 2 --out " + proof2).rc, 0);
  r = run("whir verify " + proof2 + " --vars 10 --fold 2 --security 40 --claims " + claims);
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("not the one in --claims"), std::string::npos) << r.out;
  EXPECT_EQ(run("whir verify " + proof + " --vars 10 --fold 2 --security 40 --expect-root xyz").rc, 2);

  r = run("whir verify " + proof + " --vars 10 --fold 2 --security 40 --json");
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  EXPECT_EQ(j["accepted"], true);
  EXPECT_EQ(j["commitment_root"], root);
  EXPECT_EQ(j["security_level"], 40);
  ASSERT_EQ(j["claims"].size(), 2u);
  EXPECT_EQ(j["claims"][0]["point"].size(), 10u);
  for (const auto& p : {proof, proof2, claims}) std::remove(p.c_str());
}

// The repros of issue 13: each is a clear error (exit 2), never an abort or an accepted proof.
TEST(WhirCli, HostileInputsAreErrors) {
  const std::string dir = ::testing::TempDir().empty() ? "/tmp" : ::testing::TempDir();
  const std::string proof = tmp_path("hostile.bin");
  // Security at or below the PoW budget would ask no query.
  for (const char* sec : {"16", "8", "0"}) {
    const CliRun r = run(std::string("whir prove --vars 10 --security ") + sec + " --out " + proof);
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_NE(r.out.find("above the PoW budget"), std::string::npos) << r.out;
  }
  EXPECT_EQ(run("whir prove --vars 10 --num-points 0 --out " + proof).rc, 2);
  CliRun r = run("whir prove --vars 10 --num-points 4294967295 --out " + proof);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("--num-points"), std::string::npos) << r.out;
  r = run("whir prove --vars 10 --rate 4294967294 --out " + proof);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("two-adicity"), std::string::npos) << r.out;
  EXPECT_EQ(run("whir params --vars 10 --rs-reduction -1").rc, 2);
  EXPECT_EQ(run("whir params --vars 10 --fold-first -2").rc, 2);
  // Directories where files are expected, checked before any proving.
  for (const std::string& args : {"whir prove --vars 10 --poly " + dir + " --out " + proof,
                                  "whir prove --vars 10 --points " + dir + " --out " + proof,
                                  "whir prove --vars 10 --out " + dir, "whir verify " + dir + " --vars 10"}) {
    r = run(args);
    EXPECT_EQ(r.rc, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("directory"), std::string::npos) << args << "\n" << r.out;
    EXPECT_EQ(r.out.find("proved"), std::string::npos) << args;
  }
  // A large file of zeros is refused on its magic without being read whole; a file larger than
  // any proof of its claim count is refused on its size.
  ASSERT_EQ(run("whir prove --vars 10 --random 1 --out " + proof).rc, 0);
  const std::string big = tmp_path("zeros.bin");
  {
    std::ofstream f(big, std::ios::binary);
    f.seekp((std::streamoff(1) << 30) - 1);  // sparse: 1 GiB of zeros without writing them
    f.put(0);
  }
  r = run("whir verify " + big + " --vars 10");
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("magic"), std::string::npos) << r.out;
  {
    std::ifstream in(proof, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream f(big, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    f.seekp((std::streamoff(1) << 30) - 1);
    f.put(0);
  }
  r = run("whir verify " + big + " --vars 10");
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("more than any proof"), std::string::npos) << r.out;
  std::remove(big.c_str());
  std::remove(proof.c_str());
}

TEST(WhirCli, CudaBackend) {
  const std::string proof = tmp_path("cuda.bin");
  const CliRun r = run("whir prove --vars 8 --backend cuda --out " + proof);
  if (cuda_usable()) {
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(run("whir verify " + proof + " --vars 8").rc, 0);
    std::remove(proof.c_str());
  } else {
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.out.find("--backend cuda"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace zkgpu
