// The `zkgpu mlkem` / `zkgpu mldsa` line commands, run as a subprocess: known answers from the
// Wycheproof files, `error` / `0` lines for rejected items, and unparsable lines.
#include <string>

#include "support/cli_runner.hpp"
#include "support/hex.hpp"

namespace zkgpu {
namespace {

using test::run_cli;

const nlohmann::json& first_test(const nlohmann::json& f, size_t group = 0) {
  return f["testGroups"][group]["tests"][0];
}

TEST(MlKemCli, KeygenEncapsDecapsKnownAnswers) {
  for (const char* set : {"512", "768", "1024"}) {
    SCOPED_TRACE(set);
    const auto kg =
        first_test(test::load_vectors(std::string("mlkem/wycheproof_mlkem_") + set + "_keygen_seed_test.json"));
    const std::string seed = kg["seed"];
    auto r = run_cli(std::string("mlkem keygen --backend cpu --set ") + set,
                     seed.substr(0, 64) + ":" + seed.substr(64) + "\n" + "00:11\n", true);
    ASSERT_EQ(r.rc, 1) << r.out;  // the second item is rejected
    EXPECT_EQ(r.out, kg["ek"].get<std::string>() + ":" + kg["dk"].get<std::string>() + "\nerror\n");

    const auto enc = test::load_vectors(std::string("mlkem/wycheproof_mlkem_") + set + "_encaps_test.json");
    std::string in, expect;
    int rc = 0;  // 1 once some item is rejected
    for (const auto& g : enc["testGroups"])
      for (const auto& t : g["tests"]) {
        in += t["ek"].get<std::string>() + ":" + t["m"].get<std::string>() + "\n";
        expect +=
            t["result"] == "valid" ? t["c"].get<std::string>() + ":" + t["K"].get<std::string>() + "\n" : "error\n";
        if (t["result"] != "valid") rc = 1;
      }
    r = run_cli(std::string("mlkem encaps --set ") + set, in, true);
    ASSERT_EQ(r.rc, rc);
    EXPECT_EQ(r.out, expect);

    const auto dec =
        test::load_vectors(std::string("mlkem/wycheproof_mlkem_") + set + "_semi_expanded_decaps_test.json");
    in.clear();
    expect.clear();
    rc = 0;
    for (const auto& g : dec["testGroups"])
      for (const auto& t : g["tests"]) {
        in += t["dk"].get<std::string>() + ":" + t["c"].get<std::string>() + "\n";
        expect += t["result"] == "valid" ? t["K"].get<std::string>() + "\n" : "error\n";
        if (t["result"] != "valid") rc = 1;
      }
    r = run_cli(std::string("mlkem decaps --set ") + set, in, true);
    ASSERT_EQ(r.rc, rc);
    EXPECT_EQ(r.out, expect);
  }
}

TEST(MlKemCli, UnparsableLineIsNamed) {
  auto r = run_cli("mlkem encaps --set 768", "00:11\nzz:00\n");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("line 2"), std::string::npos) << r.out;
  r = run_cli("mlkem decaps --set 768", "0011\n");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("line 1"), std::string::npos) << r.out;
}

TEST(MlDsaCli, KeygenSignVerify) {
  for (const char* set : {"44", "65", "87"}) {
    SCOPED_TRACE(set);
    const auto f = test::load_vectors(std::string("mldsa/wycheproof_mldsa_") + set + "_sign_seed_test.json");
    const auto& g = f["testGroups"][0];
    const auto& t = g["tests"][0];
    auto r = run_cli(std::string("mldsa keygen --set ") + set, g["privateSeed"].get<std::string>() + "\n00\n", true);
    ASSERT_EQ(r.rc, 1);  // the second item is rejected
    const size_t colon = r.out.find(':');
    ASSERT_NE(colon, std::string::npos);
    const std::string pk = r.out.substr(0, colon);
    const std::string sk = r.out.substr(colon + 1, r.out.find('\n') - colon - 1);
    EXPECT_EQ(pk, g["publicKey"].get<std::string>());
    EXPECT_EQ(r.out.substr(r.out.find('\n') + 1), "error\n");

    const std::string msg = t["msg"];
    const std::string long_ctx(2 * 256, 'a');
    r = run_cli(std::string("mldsa sign --set ") + set,
                sk + ":" + msg + "::\n" + sk + ":" + msg + ":" + long_ctx + ":\n" + sk + ":" + msg +
                    "::0011\n00:" + msg + "::\n",
                true);
    ASSERT_EQ(r.rc, 1);
    EXPECT_EQ(r.out, t["sig"].get<std::string>() + "\nerror\nerror\nerror\n");

    const std::string sig = t["sig"];
    std::string bad = sig;
    bad[10] = bad[10] == '0' ? '1' : '0';
    r = run_cli(std::string("mldsa verify --set ") + set,
                pk + ":" + msg + "::" + sig + "\n" + pk + ":" + msg + "::" + bad + "\n" + pk + ":" + msg + ":" +
                    long_ctx + ":" + sig + "\n" + pk + ":" + msg + "::" + sig.substr(2) + "\n" + pk.substr(2) + ":" +
                    msg + "::" + sig + "\n",
                true);
    ASSERT_EQ(r.rc, 1);
    EXPECT_EQ(r.out, "1\n0\n0\n0\n0\n");
  }
}

TEST(MlDsaCli, UnparsableLineIsNamed) {
  auto r = run_cli("mldsa verify --set 65", "00:00:00:00\n00:00:00\n");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("line 2"), std::string::npos) << r.out;
}

TEST(PqCli, BenchQuickJson) {
  for (const char* cmd : {"mlkem bench --quick --json --set 768", "mldsa bench --quick --json --set 44"}) {
    auto r = run_cli(cmd, std::nullopt, true);
    ASSERT_EQ(r.rc, 0) << cmd;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["rows"].size(), 6u) << cmd;  // 3 operations x 2 batch sizes
    for (const auto& row : j["rows"]) EXPECT_GT(row["ops_per_s"].get<double>(), 0);
  }
}

TEST(PqCli, CudaBackendRefusedWithoutGpu) {
  if (cuda_usable()) GTEST_SKIP() << "a GPU is usable here";
  auto r = run_cli("mlkem keygen --backend cuda --set 512", std::string(64, '0') + ":" + std::string(64, '0') + "\n");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("CUDA"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace zkgpu
