// Helpers of the Ed25519 tests: hex, owned test items, vector files, random signed batches.
#pragma once
#include <openssl/evp.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/hex.hpp"
#include "support/test_support.hpp"
#include "zkgpu/ed25519.hpp"

namespace zkgpu::test {

inline std::vector<uint8_t> unhex(const std::string& s) {
  if (s.size() % 2) throw std::runtime_error("odd-length hex: " + s);
  return from_hex(s);
}

// A signature to check that owns its bytes; items() makes the API's views of a list of them.
struct SigCase {
  std::vector<uint8_t> pk, sig, msg;
  std::string name;
};

inline std::vector<Ed25519Item> items_of(const std::vector<SigCase>& cases) {
  std::vector<Ed25519Item> items;
  items.reserve(cases.size());
  for (const auto& c : cases) items.push_back({c.pk, c.sig, c.msg});
  return items;
}

// The 1024 SUPERCOP known answers, lines `sk||pk:pk:msg:sig||msg:`.
inline std::vector<SigCase> supercop_cases(const std::string& file = "ed25519/supercop_sign.input") {
  std::ifstream f(vectors_dir() + "/" + file);
  if (!f) throw std::runtime_error("cannot open " + file);
  std::vector<SigCase> out;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t pos; (pos = line.find(':', start)) != std::string::npos; start = pos + 1)
      fields.push_back(line.substr(start, pos - start));
    SigCase c;
    c.pk = unhex(fields.at(1));
    c.msg = unhex(fields.at(2));
    c.sig = unhex(fields.at(3).substr(0, 128));
    c.name = file + " line " + std::to_string(out.size() + 1);
    out.push_back(std::move(c));
  }
  return out;
}

// Random valid signatures made with OpenSSL (keys, messages of varied lengths).
class Signer {
 public:
  explicit Signer(uint64_t salt) : rng_(salt) {}
  SigCase sign(size_t msg_len) {
    uint8_t seed[32];
    for (auto& b : seed) b = static_cast<uint8_t>(rng_.u32());
    EVP_PKEY* key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed, sizeof seed);
    SigCase c;
    c.pk.resize(32);
    size_t len = 32;
    EVP_PKEY_get_raw_public_key(key, c.pk.data(), &len);
    c.msg.resize(msg_len);
    for (auto& b : c.msg) b = static_cast<uint8_t>(rng_.u32());
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key);
    c.sig.resize(64);
    size_t sig_len = 64;
    if (EVP_DigestSign(ctx, c.sig.data(), &sig_len, c.msg.data(), c.msg.size()) != 1) throw std::runtime_error("sign");
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    return c;
  }
  Rng& rng() { return rng_; }

 private:
  Rng rng_;
};

// OpenSSL's verdict (the reference of the Openssl mode).
inline bool openssl_verify(const SigCase& c) {
  EVP_PKEY* key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, c.pk.data(), c.pk.size());
  if (!key) return false;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key) == 1 &&
            EVP_DigestVerify(ctx, c.sig.data(), c.sig.size(), c.msg.data(), c.msg.size()) == 1;
  EVP_MD_CTX_free(ctx);
  EVP_PKEY_free(key);
  return ok;
}

// L = 2^252 + 27742317777372353535851937790883648493, little-endian.
inline std::vector<uint8_t> group_order_le() {
  return unhex("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
}

// A mutation of a valid signature that no mode may accept (or, for S + L, that every mode must
// reject because S >= L): flips in R, S, A or M, and S + L.
inline SigCase mutate(SigCase c, Rng& rng) {
  switch (rng.u32() % 5) {
    case 0:
      c.sig[rng.u32() % 32] ^= static_cast<uint8_t>(1u << (rng.u32() % 8));
      c.name = "R flip";
      break;
    case 1:
      c.sig[32 + rng.u32() % 31] ^= static_cast<uint8_t>(1u << (rng.u32() % 8));
      c.name = "S flip";
      break;
    case 2:
      c.pk[rng.u32() % 32] ^= static_cast<uint8_t>(1u << (rng.u32() % 8));
      c.name = "A flip";
      break;
    case 3:
      if (c.msg.empty())
        c.msg.push_back(0);
      else
        c.msg[rng.u32() % c.msg.size()] ^= 1;
      c.name = "M flip";
      break;
    default: {  // S + L (still < 2^256 since S < L < 2^253)
      const auto l = group_order_le();
      unsigned carry = 0;
      for (int i = 0; i < 32; ++i) {
        unsigned t = c.sig[32 + i] + l[i] + carry;
        c.sig[32 + i] = static_cast<uint8_t>(t);
        carry = t >> 8;
      }
      c.name = "S+L";
    }
  }
  return c;
}

}  // namespace zkgpu::test
