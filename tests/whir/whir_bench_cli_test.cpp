// `zkgpu whir bench`: the grids, the output formats and the usage errors, through the built binary.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace zkgpu {
namespace {

using test::CliRun;
// stdout only (progress and notes go to stderr, which is dropped unless `merge`).
CliRun run(const std::string& args, bool merge = false) { return test::run_cli(args, std::nullopt, !merge); }

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// Table rows start with the number of variables; the header lines with '#' or "  n".
std::vector<std::string> table_rows(const std::string& s) {
  std::vector<std::string> v;
  for (const std::string& l : lines(s))
    if (l.size() > 3 && l[0] != '#' && l.find_first_not_of(' ') != std::string::npos &&
        std::isdigit(static_cast<unsigned char>(l[l.find_first_not_of(' ')])))
      v.push_back(l);
  return v;
}

TEST(WhirBenchCli, QuickGridJsonMeasuresAndVerifiesEveryRow) {
  const CliRun r = run("whir bench --grid quick --runs 1 --json");
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["grid"], "quick");
  EXPECT_EQ(j["runs"], 1);
  EXPECT_EQ(j["soundness"], "CapacityBound");
  EXPECT_NE(j["timing"].get<std::string>().find("end to end"), std::string::npos);
  ASSERT_EQ(j["rows"].size(), 4u);
  for (const auto& row : j["rows"]) {
    SCOPED_TRACE(row.dump());
    for (const char* k : {"n", "fold", "rate", "cpu_ms", "gpu_ms", "speedup", "m1_cpu_ms", "m1_gpu_ms", "verify_ms",
                          "proof_bytes", "accepted", "proofs_identical", "cpu_runs_ms", "gpu_runs_ms"})
      EXPECT_TRUE(row.contains(k)) << k;
    EXPECT_GT(row["cpu_ms"].get<double>(), 0.0);
    EXPECT_EQ(row["cpu_runs_ms"].size(), 1u);
    EXPECT_GT(row["proof_bytes"].get<size_t>(), 0u);
    EXPECT_TRUE(row["accepted"].get<bool>());
    EXPECT_FALSE(row.contains("error"));
    if (cuda_usable()) {
      EXPECT_GT(row["gpu_ms"].get<double>(), 0.0);
      EXPECT_TRUE(row["proofs_identical"].get<bool>());
    } else {
      EXPECT_TRUE(row["gpu_ms"].is_null());
      EXPECT_TRUE(row["speedup"].is_null());
    }
  }
}

TEST(WhirBenchCli, SingleConfigTableAndCsv) {
  const CliRun t = run("whir bench --vars 12 --fold 3 --rate 2 --runs 2 --backend cpu", true);
  ASSERT_EQ(t.rc, 0) << t.out;
  EXPECT_NE(t.out.find("[1/1] n=12 fold=3 rate=2"), std::string::npos) << t.out;  // progress (stderr)
  EXPECT_NE(t.out.find("witness in host memory -> proof object"), std::string::npos) << t.out;
  const auto rows = table_rows(t.out);
  ASSERT_EQ(rows.size(), 1u) << t.out;
  EXPECT_NE(rows[0].find("ok"), std::string::npos) << rows[0];

  const CliRun c = run("whir bench --vars 12 --fold 2 --rate 1 --runs 1 --backend cpu --csv");
  ASSERT_EQ(c.rc, 0) << c.out;
  const auto ls = lines(c.out);
  ASSERT_EQ(ls.size(), 2u) << c.out;
  EXPECT_EQ(ls[0].rfind("n,fold,rate,cpu_ms,gpu_ms,speedup,", 0), 0u);
  EXPECT_EQ(ls[1].rfind("12,2,1,", 0), 0u);
}

TEST(WhirBenchCli, SeedGridIsThePublishedM1Grid) {
  const CliRun r = run("whir bench --grid seed --list --json");
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto rows = nlohmann::json::parse(r.out)["rows"];
  ASSERT_EQ(rows.size(), 34u);
  size_t n20 = 0, n22 = 0, n24 = 0;
  for (const auto& row : rows) {
    const unsigned n = row["n"];
    n20 += n == 20;
    n22 += n == 22;
    n24 += n == 24;
    EXPECT_GT(row["m1_cpu_ms"].get<double>(), 0.0);
    EXPECT_GT(row["m1_gpu_ms"].get<double>(), 0.0);
    EXPECT_TRUE(row["cpu_ms"].is_null());
  }
  EXPECT_EQ(n20, 9u);
  EXPECT_EQ(n22, 15u + 5u);
  EXPECT_EQ(n24, 5u);
  // Spot checks against spec §10.1: the n = 22 fold 1 rate 1 cell and the last high-rate row.
  EXPECT_EQ(rows[9]["n"], 22);
  EXPECT_EQ(rows[9]["fold"], 1);
  EXPECT_EQ(rows[9]["m1_gpu_ms"], 579.0);
  EXPECT_EQ(rows[33]["rate"], 6);
  EXPECT_EQ(rows[33]["m1_cpu_ms"], 17142.0);
  EXPECT_EQ(table_rows(run("whir bench --grid seed --list").out).size(), 34u);
}

TEST(WhirBenchCli, UsageErrors) {
  EXPECT_EQ(run("whir bench").rc, 2);
  EXPECT_EQ(run("whir bench --grid huge").rc, 2);
  EXPECT_EQ(run("whir bench --grid quick --vars 12").rc, 2);
  EXPECT_EQ(run("whir bench --grid quick --json --csv").rc, 2);
  EXPECT_EQ(run("whir bench --vars 12 --runs 0").rc, 2);
  if (!cuda_usable()) {
    EXPECT_EQ(run("whir bench --vars 12 --backend cuda").rc, 2);
  }
  for (const char* rows : {"0-3", "3-2", "1-5", "2", "1-2x", "a-b"})
    EXPECT_EQ(run(std::string("whir bench --grid quick --rows ") + rows).rc, 2) << rows;
  EXPECT_EQ(run("whir bench --vars 12 --rows 1-1").rc, 2);  // --rows slices a grid
}

// --rows runs exactly that slice of the grid, in the grid's order.
TEST(WhirBenchCli, RowsSliceTheGrid) {
  const CliRun c = run("whir bench --grid quick --rows 2-3 --runs 1 --backend cpu --csv");
  ASSERT_EQ(c.rc, 0) << c.out;
  const auto ls = lines(c.out);
  ASSERT_EQ(ls.size(), 3u) << c.out;
  EXPECT_EQ(ls[1].rfind("14,4,1,", 0), 0u) << ls[1];
  EXPECT_EQ(ls[2].rfind("14,3,2,", 0), 0u) << ls[2];
  const CliRun l = run("whir bench --grid seed --rows 34-34 --list --csv");
  ASSERT_EQ(l.rc, 0) << l.out;
  ASSERT_EQ(lines(l.out).size(), 2u) << l.out;
  EXPECT_EQ(lines(l.out)[1].rfind("22,2,6,", 0), 0u) << l.out;
}

}  // namespace
}  // namespace zkgpu
