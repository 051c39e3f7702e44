// `zkgpu ed25519 verify` and `zkgpu ed25519 bench --quick`, run as subprocesses; and the
// `pk:sig:msg` line parser directly.
#include <string>

#include "ed25519/ed25519_test_support.hpp"
#include "io/ed25519_line.hpp"
#include "support/cli_runner.hpp"

namespace zkgpu {
namespace {

std::string hex(const std::vector<uint8_t>& v) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t b : v) {
    s += d[b >> 4];
    s += d[b & 15];
  }
  return s;
}

std::string line_of(const test::SigCase& c) { return hex(c.pk) + ":" + hex(c.sig) + ":" + hex(c.msg) + "\n"; }

TEST(Ed25519Cli, VerdictsInInputOrderAndExitStatus) {
  const auto good = test::supercop_cases("ed25519/dalek_TESTVECTORS");
  std::string in, expect;
  for (int i = 0; i < 20; ++i) {
    auto c = good[static_cast<size_t>(i)];
    const bool bad = i % 3 == 1;
    if (bad) c.sig[40] ^= 4;
    in += line_of(c);
    expect += bad ? "0\n" : "1\n";
  }
  for (const char* backend : {"cpu", "auto"}) {
    auto r = test::run_cli(std::string("ed25519 verify --backend ") + backend, in, true);
    EXPECT_EQ(r.rc, 1) << r.out;  // some signature is invalid
    EXPECT_EQ(r.out, expect);
  }
  // stderr names the backend after the verdicts.
  auto r = test::run_cli("ed25519 verify --backend cpu", in);
  EXPECT_EQ(r.out, expect + "backend: cpu\n");
  auto all_good = test::run_cli("ed25519 verify --in - --mode strict", line_of(good[0]) + line_of(good[1]), true);
  EXPECT_EQ(all_good.rc, 0) << all_good.out;
  EXPECT_EQ(all_good.out, "1\n1\n");
  auto empty = test::run_cli("ed25519 verify", "");
  EXPECT_EQ(empty.rc, 0);  // no item rejected; the notice goes to stderr
  EXPECT_EQ(empty.out, "notice: ed25519 verify: the input held no items\n");
}

// Speccheck case 4 (torsion residue) is accepted only by the cofactored mode.
TEST(Ed25519Cli, ModesDiffer) {
  const auto spec = test::load_vectors("ed25519/speccheck_cases.json");
  const std::string line = spec[4]["pub_key"].get<std::string>() + ":" + spec[4]["signature"].get<std::string>() + ":" +
                           spec[4]["message"].get<std::string>() + "\r\n";  // CRLF is accepted
  EXPECT_EQ(test::run_cli("ed25519 verify --mode zip215 --backend cpu", line, true).out, "1\n");
  EXPECT_EQ(test::run_cli("ed25519 verify --mode openssl --backend cpu", line, true).out, "0\n");
  EXPECT_EQ(test::run_cli("ed25519 verify --mode strict --backend cpu", line, true).out, "0\n");
}

TEST(Ed25519Cli, UnparsableLineIsAnErrorNamingIt) {
  const auto good = test::supercop_cases("ed25519/dalek_TESTVECTORS");
  const std::string ok = line_of(good[0]);
  for (const std::string& bad : {std::string("zz"), ok.substr(2), ok.substr(0, ok.size() - 2) + "x\n",
                                 std::string("00:11:22"), ok.substr(0, ok.size() - 1) + ":00\n", std::string("")}) {
    auto r = test::run_cli("ed25519 verify --backend cpu", ok + bad + (bad.empty() || bad.back() != '\n' ? "\n" : ""));
    EXPECT_EQ(r.rc, 2) << "input line: " << bad << " output: " << r.out;
    EXPECT_NE(r.out.find("line 2"), std::string::npos) << r.out;
  }
  auto r = test::run_cli("ed25519 verify --in /nonexistent/file", "");
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(test::run_cli("ed25519 verify --mode ref10", "").rc, 2);
}

TEST(Ed25519LineFormat, ParsesStrictlyAndLeavesBatchUnchangedOnError) {
  ed25519::ParsedBatch b;
  std::string err;
  const std::string pk(64, 'a'), sig(128, 'B');
  EXPECT_TRUE(b.append_line(pk + ":" + sig + ":", err)) << err;  // empty message
  EXPECT_TRUE(b.append_line(pk + ":" + sig + ":00ff  ", err)) << err;
  EXPECT_FALSE(b.append_line(pk + ":" + sig + ":0", err));
  EXPECT_NE(err.find("odd"), std::string::npos);
  EXPECT_FALSE(b.append_line(pk + ":" + sig + ":0g", err));
  EXPECT_FALSE(b.append_line(pk + "0:" + sig + ":", err));
  EXPECT_FALSE(b.append_line(pk + ":" + sig + ":00:", err));
  EXPECT_FALSE(b.append_line(pk.substr(0, 62) + "zz:" + sig + ":", err));
  ASSERT_EQ(b.size(), 2u);
  const auto items = b.items();
  EXPECT_EQ(items[0].message.size(), 0u);
  ASSERT_EQ(items[1].message.size(), 2u);
  EXPECT_EQ(items[1].message[1], 0xff);
  EXPECT_EQ(items[1].public_key[0], 0xaa);
  EXPECT_EQ(items[1].signature[63], 0xbb);
}

TEST(Ed25519Cli, BenchQuickJson) {
  auto r = test::run_cli("ed25519 bench --quick --json", std::nullopt, true);
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_GE(j["rows"].size(), 3u);
  EXPECT_GT(j["rows"][0]["cpu_per_s"].get<double>(), 0);
  EXPECT_GT(j["per_core"]["libsodium"].get<double>(), 0);
  EXPECT_GT(j["per_core"]["openssl"].get<double>(), 0);
  EXPECT_TRUE(j.contains("crossover"));
  const std::string png = ::testing::TempDir() + "zkgpu_ed25519_plot_" + std::to_string(getpid()) + ".png";
  auto p = test::run_cli("ed25519 bench --quick --max-log 4 --plot " + png, std::nullopt, true);
  ASSERT_EQ(p.rc, 0) << p.out;
  std::ifstream f(png, std::ios::binary);
  char magic[4] = {};
  f.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  std::remove(png.c_str());
}

}  // namespace
}  // namespace zkgpu
