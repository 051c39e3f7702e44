#include "cli_io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "io/hex_lines.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::cli {
namespace {

std::string os_reason() { return std::strerror(errno); }

// stat() of an existing input that must be a regular file.
struct stat stat_regular(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw_invalid("cannot read " + what + " " + path + ": " + os_reason());
  if (!S_ISREG(st.st_mode))
    throw_invalid(what + " " + path + " is not a regular file" + (S_ISDIR(st.st_mode) ? " (it is a directory)" : ""));
  return st;
}

}  // namespace

std::vector<uint8_t> read_input_file(const std::string& path, const std::string& what, uint64_t max_bytes) {
  const struct stat st = stat_regular(path, what);
  if (uint64_t(st.st_size) > max_bytes)
    throw_invalid(what + " " + path + " holds " + std::to_string(st.st_size) + " bytes, more than the " +
                  std::to_string(max_bytes) + " this input can be");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw_invalid("cannot read " + what + " " + path + ": " + os_reason());
  std::vector<uint8_t> out(size_t(st.st_size));
  f.read(reinterpret_cast<char*>(out.data()), std::streamsize(out.size()));
  // A file that grew or shrank after stat() is read as far as it was then, or is an error.
  if (size_t(f.gcount()) != out.size()) throw_invalid("cannot read " + what + " " + path + ": short read");
  return out;
}

uint64_t input_file_size(const std::string& path, const std::string& what) {
  return uint64_t(stat_regular(path, what).st_size);
}

std::vector<uint8_t> read_input_prefix(const std::string& path, const std::string& what, size_t max_bytes) {
  stat_regular(path, what);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw_invalid("cannot read " + what + " " + path + ": " + os_reason());
  std::vector<uint8_t> out(max_bytes);
  f.read(reinterpret_cast<char*>(out.data()), std::streamsize(out.size()));
  out.resize(size_t(f.gcount()));
  return out;
}

void open_input_stream(const std::string& path, const std::string& what, std::ifstream& file) {
  if (path == "-") return;
  stat_regular(path, what);
  file.open(path, std::ios::binary);
  if (!file) throw_invalid("cannot read " + what + " " + path + ": " + os_reason());
}

void check_output_path(const std::string& path, const std::string& what) {
  if (path.empty()) throw_invalid(what + ": the output path is empty");
  struct stat st {};
  const bool existed = ::stat(path.c_str(), &st) == 0;
  if (existed && S_ISDIR(st.st_mode)) throw_invalid(what + " " + path + " is a directory");
  // Append mode neither truncates an existing file nor writes to it.
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (!f) throw_invalid("cannot write " + what + " " + path + ": " + os_reason());
  std::fclose(f);
  if (!existed) std::remove(path.c_str());
}

void write_output_file(const std::string& path, const std::string& what, const std::vector<uint8_t>& bytes) {
  check_output_path(path, what);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  f.close();
  if (!f) throw_invalid("cannot write " + what + " " + path + ": " + os_reason());
}

namespace {
// Flushes stdout and fails on any write error since the caller cleared errno (so that the reason
// given is the write's, not that of an earlier call).
void check_stdout() {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const std::string reason = errno != 0 ? os_reason() : "a write failed";
    std::cout.clear();  // so that nothing else fails on it
    std::clearerr(stdout);
    throw_invalid("cannot write to stdout: " + reason);
  }
}
}  // namespace

void flush_stdout() {
  errno = 0;
  check_stdout();
}

void write_stdout(std::string_view text) {
  errno = 0;
  std::cout.write(text.data(), std::streamsize(text.size()));
  check_stdout();
}

bool read_hex_stdin(size_t count, std::vector<std::vector<std::vector<uint8_t>>>& lines) {
  std::string err;
  if (read_hex_lines(std::cin, count, lines, err)) return true;
  std::cerr << "error: " << err << "\n";
  return false;
}

void notice_no_items(const std::string& command) {
  std::cerr << "notice: " << command << ": the input held no items\n";
}

int finish_items(const std::string& command, std::string_view out, size_t items, size_t rejected, Backend ran) {
  write_stdout(out);
  if (items == 0)
    notice_no_items(command);
  else
    std::cerr << "backend: " << to_string(ran) << "\n";
  return rejected > 0 ? EXIT_REJECTED : EXIT_OK;
}

int finish_verdicts(const std::string& command, std::span<const uint8_t> verdicts, Backend ran) {
  std::string out;
  out.reserve(2 * verdicts.size());
  size_t rejected = 0;
  for (uint8_t v : verdicts) {
    out += v ? "1\n" : "0\n";
    rejected += !v;
  }
  return finish_items(command, out, verdicts.size(), rejected, ran);
}

}  // namespace zkgpu::cli
