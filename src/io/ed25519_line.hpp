// The text format of `zkgpu ed25519 verify`: one signature per line, `pk:sig:msg` in hex
// (64, 128 and an even number of hex digits; upper or lower case; a trailing CR or spaces are
// ignored). Parsed strictly: anything else is an error that names what is wrong.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zkgpu/ed25519.hpp"

namespace zkgpu::ed25519 {

// Signatures parsed from text, stored contiguously; items() views them (valid while this lives
// and is not appended to).
class ParsedBatch {
 public:
  // Appends the signature on `line`, or returns false with a reason and leaves the batch as it was.
  bool append_line(std::string_view line, std::string& err);
  size_t size() const { return msg_off_.size(); }
  std::vector<Ed25519Item> items() const;

 private:
  std::vector<uint8_t> keys_, sigs_, msgs_;
  std::vector<size_t> msg_off_, msg_len_;
};

}  // namespace zkgpu::ed25519
