// Runs the zkgpu command as a subprocess, for the CLI tests.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "support/test_support.hpp"

namespace zkgpu::test {

struct CliRun {
  int rc;           // exit status, -1 if the command did not exit normally
  std::string out;  // stdout, and stderr unless dropped
};

// `input`, when given, is the command's standard input; stderr goes into `out` unless
// drop_stderr (progress lines that would disturb a parse).
inline CliRun run_cli(const std::string& args, const std::optional<std::string>& input = std::nullopt,
                      bool drop_stderr = false) {
  std::string cmd = cli_path() + " " + args;
  std::string in_path;
  if (input) {
    // A file of its own: ctest runs test processes in parallel.
    in_path = ::testing::TempDir() + "zkgpu_cli_stdin_XXXXXX";
    const int fd = mkstemp(in_path.data());
    if (fd < 0) return {-1, "mkstemp failed"};
    close(fd);
    std::ofstream(in_path, std::ios::binary) << *input;
    cmd += " < " + in_path;
  }
  cmd += drop_stderr ? " 2>/dev/null" : " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  std::string out;
  char buf[4096];
  for (size_t k; (k = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, k);
  const int st = pclose(p);
  if (!in_path.empty()) std::remove(in_path.c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

}  // namespace zkgpu::test
