#include "io/ed25519_line.hpp"

#include "runtime/hex_digit.hpp"

namespace zkgpu::ed25519 {
namespace {

// Appends the bytes of `hex` to `out`; on error `out` may hold a partial field (the caller trims).
bool decode_hex(std::string_view hex, std::vector<uint8_t>& out, const char* field, std::string& err) {
  if (hex.size() % 2) {
    err = std::string(field) + " has an odd number of hex digits (" + std::to_string(hex.size()) + ")";
    return false;
  }
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) {
      err = std::string(field) + " has a non-hex character at column " + std::to_string(i + (hi < 0 ? 1 : 2));
      return false;
    }
    out.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  return true;
}

}  // namespace

bool ParsedBatch::append_line(std::string_view line, std::string& err) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  const size_t c1 = line.find(':');
  const size_t c2 = c1 == std::string_view::npos ? c1 : line.find(':', c1 + 1);
  if (c2 == std::string_view::npos || line.find(':', c2 + 1) != std::string_view::npos) {
    err = "expected pk:sig:msg (three hex fields separated by two colons)";
    return false;
  }
  const std::string_view pk = line.substr(0, c1), sig = line.substr(c1 + 1, c2 - c1 - 1), msg = line.substr(c2 + 1);
  if (pk.size() != 2 * ED25519_PUBLIC_KEY_BYTES) {
    err = "public key has " + std::to_string(pk.size()) + " hex digits (expected 64)";
    return false;
  }
  if (sig.size() != 2 * ED25519_SIGNATURE_BYTES) {
    err = "signature has " + std::to_string(sig.size()) + " hex digits (expected 128)";
    return false;
  }
  const size_t k0 = keys_.size(), s0 = sigs_.size(), m0 = msgs_.size();
  if (!decode_hex(pk, keys_, "public key", err) || !decode_hex(sig, sigs_, "signature", err) ||
      !decode_hex(msg, msgs_, "message", err)) {
    keys_.resize(k0);
    sigs_.resize(s0);
    msgs_.resize(m0);
    return false;
  }
  msg_off_.push_back(m0);
  msg_len_.push_back(msgs_.size() - m0);
  return true;
}

std::vector<Ed25519Item> ParsedBatch::items() const {
  std::vector<Ed25519Item> out(size());
  for (size_t i = 0; i < size(); ++i)
    out[i] = {std::span<const uint8_t>(keys_.data() + 32 * i, 32), std::span<const uint8_t>(sigs_.data() + 64 * i, 64),
              std::span<const uint8_t>(msgs_.data() + msg_off_[i], msg_len_[i])};
  return out;
}

}  // namespace zkgpu::ed25519
