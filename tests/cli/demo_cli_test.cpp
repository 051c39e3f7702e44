// `make demo` runs the CLI commands of the Makefile's demo-steps target after the build; this
// runs the same target against the binary under test, so every step of the demo keeps working.
#include <filesystem>
#include <string>

#include "support/cli_runner.hpp"
#include "zkgpu/version.hpp"

namespace zkgpu {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(DemoCli, EveryStepOfTheDemoRuns) {
  // The source tree's root holds tests/vectors (ZKGPU_VECTORS_DIR) and the Makefile.
  const std::filesystem::path root = std::filesystem::path(test::vectors_dir()).parent_path().parent_path();
  ASSERT_TRUE(std::filesystem::exists(root / "Makefile")) << root;
  const std::string dir = ::testing::TempDir() + "zkgpu_demo_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  // A make that runs this test (make test) must not hand its jobserver to this one.
  const test::CliRun r =
      test::run_shell("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C '" + root.string() +
                          "' demo-steps ZKGPU='" + test::cli_path() + "' DEMO_DIR='" + dir + "'",
                      std::nullopt, " 2>&1");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(r.rc, 0) << r.out;
  for (const std::string& part : {
           std::string("zkgpu ") + version() + "\n",                            // info
           std::string("evaluation claim(s) of a 2^18 polynomial (backend: "),  // whir prove
           std::string("accepted\n"),                                           // whir verify
           std::string("1\n1\n1\n1\n1\n1\n1\n1\nbackend: "),                    // ed25519 verify
           std::string("(encaps and decaps agree)\n"),                          // ML-KEM
           std::string("signature of 3309 bytes"),                              // ML-DSA-65
           std::string("operation"),                                            // bench
       })
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
  EXPECT_FALSE(contains(r.out, "error")) << r.out;
}

}  // namespace
}  // namespace zkgpu
