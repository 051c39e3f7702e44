// Input and output checks shared by every command: untrusted files are opened only when they are
// regular files of a bounded size, output paths are checked before any work starts, and a failed
// write to stdout fails the command instead of losing its output.
#pragma once
#include <cstdint>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu/backend.hpp"

namespace zkgpu::cli {

// Exit statuses of every command (README, "Exit status"):
inline constexpr int EXIT_OK = 0;        // done, and every item valid (or the command gives no verdicts)
inline constexpr int EXIT_REJECTED = 1;  // done, and at least one item was rejected
inline constexpr int EXIT_USAGE = 2;     // usage or input error: nothing was judged

// The whole of a regular file of at most `max_bytes`; Error(InvalidArgument) naming `what` and the
// path when it is missing, not a regular file (a directory, a FIFO), larger, or unreadable.
std::vector<uint8_t> read_input_file(const std::string& path, const std::string& what, uint64_t max_bytes);

// The size of a regular input file, and at most its first `max_bytes` bytes: for formats whose
// header bounds the rest, so that a huge file is refused before it is read.
uint64_t input_file_size(const std::string& path, const std::string& what);
std::vector<uint8_t> read_input_prefix(const std::string& path, const std::string& what, size_t max_bytes);

// Opens a line-oriented input into `file`; for "-" (stdin) `file` stays closed and the caller reads
// std::cin. Error(InvalidArgument) when the path is not a readable regular file.
void open_input_stream(const std::string& path, const std::string& what, std::ifstream& file);

// Error(InvalidArgument) unless `path` can be written: not a directory, its folder exists, and it
// can be opened for writing. Creates nothing (a probe file it made is removed again).
void check_output_path(const std::string& path, const std::string& what);

// Writes `bytes` to `path` (checked first with check_output_path); Error on any failure.
void write_output_file(const std::string& path, const std::string& what, const std::vector<uint8_t>& bytes);

// Flushes stdout; Error(InvalidArgument) when a write to it failed (a full disk, a closed pipe),
// now or earlier in the command (the stream's error state is sticky).
void flush_stdout();

// Writes `text` to stdout and flushes it (flush_stdout): a command's output fails the command
// where it is written, before the command goes on or picks its exit status.
void write_stdout(std::string_view text);

// Every line of stdin as `count` ':'-separated hex fields (src/io/hex_lines.hpp); on the first
// unparsable line prints "error: line N: reason" on stderr and returns false (nothing was judged:
// the caller exits EXIT_USAGE).
bool read_hex_stdin(size_t count, std::vector<std::vector<std::vector<uint8_t>>>& lines);

// The notice every verdict command prints on stderr when its input held no items.
void notice_no_items(const std::string& command);

// The end of a command that reads items: writes `out` (write_stdout), then on stderr the notice
// for `command` when `items` is 0, else `backend: <ran>` (stdout stays the line format alone);
// returns EXIT_REJECTED when `rejected` > 0, else EXIT_OK.
int finish_items(const std::string& command, std::string_view out, size_t items, size_t rejected, Backend ran);

// finish_items for a command whose items are verdicts: one line per verdict, `1` (valid, nonzero)
// or `0` (rejected).
int finish_verdicts(const std::string& command, std::span<const uint8_t> verdicts, Backend ran);

}  // namespace zkgpu::cli
