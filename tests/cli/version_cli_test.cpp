// The version is defined once (project() in CMakeLists.txt): the library, `zkgpu --version` and
// `zkgpu info` report the same string.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/cli_runner.hpp"
#include "zkgpu/version.hpp"

namespace zkgpu::test {
namespace {

TEST(Version, LibraryCliAndInfoAgree) {
  const std::string v = version();
  EXPECT_TRUE(std::regex_match(v, std::regex(R"(\d+\.\d+\.\d+)"))) << v;
  const CliRun flag = run_cli("--version");
  EXPECT_EQ(flag.rc, 0);
  EXPECT_EQ(flag.out, "zkgpu " + v + "\n");
  const CliRun info = run_cli("info --json");
  EXPECT_EQ(info.rc, 0);
  EXPECT_NE(info.out.find("\"version\": \"" + v + "\""), std::string::npos) << info.out;
}

}  // namespace
}  // namespace zkgpu::test
