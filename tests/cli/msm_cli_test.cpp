// `zkgpu msm run` as a subprocess: a known answer from an independent Python reference
// (tests/vectors/bls12_377/gen_msm_cli_kat.py) and errors that name the bad line.
#include <fstream>
#include <sstream>
#include <string>

#include "support/cli_runner.hpp"

namespace zkgpu {
namespace {

struct Kat {
  std::string input, expected;
};
Kat load_kat() {
  std::ifstream f(test::vectors_dir() + "/bls12_377/msm_cli_kat.txt");
  Kat k;
  std::string line;
  bool expect = false;
  while (std::getline(f, line)) {
    if (line == "# expected")
      expect = true;
    else if (expect)
      k.expected = line + "\n";
    else
      k.input += line + "\n";
  }
  return k;
}

TEST(MsmCli, KnownAnswerEveryBackend) {
  Kat k = load_kat();
  ASSERT_FALSE(k.input.empty());
  for (const char* backend : {"cpu", "auto"}) {
    auto r = test::run_cli(std::string("msm run --curve bls12-377 --backend ") + backend, k.input, true);
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.out, k.expected);
  }
  auto r = test::run_cli("msm run --window 3", k.input, true);
  EXPECT_EQ(r.out, k.expected);
}

TEST(MsmCli, IdentityResultAndEmptyInput) {
  auto r = test::run_cli("msm run --backend cpu", "infinity:5\n");
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.out, "infinity\nbackend: cpu\n");
  r = test::run_cli("msm run --backend cpu", "", true);
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.out, "infinity\n");  // the empty sum; the no-items notice goes to stderr
  const std::string g =
      "8848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef:"
      "1914a69c5102eff1f674f5d30afeec4bd7fb348ca3e52d96d182ad44fb82305c2fe3d3634a9591afd82de55559c8ea6";
  r = test::run_cli("msm run --backend cpu", g + ":1\n\n", true);
  EXPECT_EQ(r.out, g + "\n");
  // r * G = identity (the scalar is reduced mod r).
  r = test::run_cli("msm run --backend cpu", g + ":12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001\n",
                    true);
  EXPECT_EQ(r.out, "infinity\n");
}

TEST(MsmCli, BadLinesAreNamed) {
  const std::string g =
      "8848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef:"
      "1914a69c5102eff1f674f5d30afeec4bd7fb348ca3e52d96d182ad44fb82305c2fe3d3634a9591afd82de55559c8ea6";
  const std::string p =
      "1ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001";
  struct Bad {
    std::string line, why;
  } bad[] = {
      {p + ":1:1", "not below p"},
      {"1:1:1", "not on the curve"},
      {g + ":" + std::string(65, 'f'), "256 bits"},
      {g, "expected"},
      {g + ":zz", "hex digit"},
      {"infinity:1:2", "expected"},
      // (-1, 0) is on the curve (x^3 + 1 = 0) but has order 2.
      {p.substr(0, p.size() - 1) + "0:0:1", "subgroup"},
  };
  for (const Bad& b : bad) {
    auto r = test::run_cli("msm run --backend cpu", g + ":1\n" + b.line + "\n");
    EXPECT_EQ(r.rc, 2) << b.line;
    EXPECT_NE(r.out.find("line 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(b.why), std::string::npos) << r.out;
  }
}

TEST(MsmCli, BenchQuickRuns) {
  auto r = test::run_cli("msm bench --quick --runs 1 --json", std::nullopt, true);
  ASSERT_EQ(r.rc, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rows"].size(), 3u);
  r = test::run_cli("padd bench --quick --json", std::nullopt, true);
  ASSERT_EQ(r.rc, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["rows"][0]["mpadd_per_s"].get<double>(), 0);
}

}  // namespace
}  // namespace zkgpu
