// The `zkgpu poseidon2 permute` interop command, run as a subprocess.
#include <string>

#include "support/cli_runner.hpp"

namespace zkgpu {
namespace {

// stderr is kept (where the messages and the backend line go) unless stdout_only.
test::CliRun run_cli(const std::string& args, const std::string& input, bool stdout_only = false) {
  return test::run_cli(args, input, stdout_only);
}

// The CLI takes canonical values only; a KAT input word >= p (Plonky3's from_u32 reduces it) is
// given reduced.
std::string join(const nlohmann::json& arr) {
  std::string s;
  for (size_t i = 0; i < arr.size(); ++i) s += (i ? " " : "") + std::to_string(arr[i].get<uint32_t>() % BabyBear::P);
  return s;
}

TEST(Poseidon2Cli, PlonkyKnownAnswersBothWidths) {
  auto kats = test::load_vectors("poseidon2/poseidon2_babybear_plonky3_kat.json");
  for (auto& v : kats["vectors"]) {
    if (v["constants"].get<std::string>().find("default") == std::string::npos) continue;
    int w = v["width"].get<int>();
    for (const char* backend : {"cpu", "auto"}) {
      auto r = run_cli("poseidon2 permute --width " + std::to_string(w) + " --constants plonky3 --backend " + backend,
                       join(v["input"]) + "\n" + join(v["input"]) + "\n", true);
      ASSERT_EQ(r.rc, 0) << r.out;
      EXPECT_EQ(r.out, join(v["expected"]) + "\n" + join(v["expected"]) + "\n");
    }
  }
}

TEST(Poseidon2Cli, WhirConstantsMatchDerivedVectors) {
  auto d = test::load_vectors("poseidon2/poseidon2_babybear_w16_smallrng_seed1_derived_vectors.json");
  std::string in, expect;
  for (auto& v : d["permutation_w16_smallrng_seed1"]) {
    in += join(v["input"]) + "\n";
    expect += join(v["output"]) + "\n";
  }
  auto r = run_cli("poseidon2 permute --width 16 --constants whir --backend cpu", in);
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_EQ(r.out, expect + "backend: cpu\n");
}

TEST(Poseidon2Cli, EmptyInputGivesEmptyOutputAndANotice) {
  auto r = run_cli("poseidon2 permute --width 16 --constants whir", "");
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.out, "notice: poseidon2 permute: the input held no items\n");  // stderr; stdout is empty
}

TEST(Poseidon2Cli, MalformedLinesAreErrorsNamingTheLine) {
  std::string good = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n";
  struct Case {
    std::string bad;
    std::string reason;
  } cases[] = {
      {"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n", "expected 16 values, got 15"},
      {"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", "expected 16 values, got 17"},
      {"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 2013265921\n", "not below p"},
      {"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 99999999999999999999999\n", "not below p"},
      {"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 x\n", "not a decimal"},
      {"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 -1\n", "not a decimal"},
      {"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0x5\n", "not a decimal"},
      {"\n", "expected 16 values, got 0"},
  };
  for (auto& c : cases) {
    auto r = run_cli("poseidon2 permute --width 16 --constants plonky3", good + c.bad);
    EXPECT_NE(r.rc, 0) << c.bad;
    EXPECT_NE(r.out.find("line 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(c.reason), std::string::npos) << r.out;
  }
}

TEST(Poseidon2Cli, BadFlagsAreUsageErrors) {
  EXPECT_EQ(run_cli("poseidon2 permute --width 12", "").rc, 2);
  EXPECT_EQ(run_cli("poseidon2 permute --constants nope", "").rc, 2);
}

}  // namespace
}  // namespace zkgpu
