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

// Runs the shell command `command`, with `input` (when given) as its standard input and
// `redirect` (shell redirections) appended; returns its exit status and what it wrote to the pipe.
inline CliRun run_shell(std::string command, const std::optional<std::string>& input, const std::string& redirect) {
  std::string in_path;
  if (input) {
    // A file of its own: ctest runs test processes in parallel.
    in_path = ::testing::TempDir() + "zkgpu_cli_stdin_XXXXXX";
    const int fd = mkstemp(in_path.data());
    if (fd < 0) return {-1, "mkstemp failed"};
    close(fd);
    std::ofstream(in_path, std::ios::binary) << *input;
    command += " < " + in_path;
  }
  command += redirect;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return {-1, ""};
  std::string out;
  char buf[4096];
  for (size_t k; (k = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, k);
  const int st = pclose(p);
  if (!in_path.empty()) std::remove(in_path.c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

// `input`, when given, is the command's standard input; stderr goes into `out` unless
// drop_stderr (progress lines that would disturb a parse).
inline CliRun run_cli(const std::string& args, const std::optional<std::string>& input = std::nullopt,
                      bool drop_stderr = false) {
  return run_shell(cli_path() + " " + args, input, drop_stderr ? " 2>/dev/null" : " 2>&1");
}

// run_cli with `assignments` ("NAME=value ...") added to the command's environment only.
inline CliRun run_cli_env(const std::string& assignments, const std::string& args,
                          const std::optional<std::string>& input = std::nullopt) {
  return run_shell("env " + assignments + " " + cli_path() + " " + args, input, " 2>&1");
}

// run_cli with stdout written to `path` (for example /dev/full); `out` holds stderr only.
inline CliRun run_cli_stdout_to(const std::string& path, const std::string& args,
                                const std::optional<std::string>& input = std::nullopt) {
  return run_shell(cli_path() + " " + args, input, " 2>&1 >" + path);
}

}  // namespace zkgpu::test
