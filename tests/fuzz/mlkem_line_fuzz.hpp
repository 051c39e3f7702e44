// One fuzz input for the ML-KEM line format of `zkgpu mlkem keygen|encaps|decaps` (lines of
// ':'-separated hex, src/io/hex_lines.cpp) and the batch API behind it. Byte 0 picks the parameter
// set (byte % 3: 512, 768, 1024) and the operation ((byte / 3) % 3: keygen `d:z`, encaps `ek:m`,
// decaps `dk:c`); the rest is the text the CLI reads on stdin. Unlike the CLI (which answers
// `error` for a wrong-length field without calling the library), every parsed line goes to the
// library whatever its field sizes, so the library's own size and encoding checks are fuzzed too.
//
// Invariants: the parser's (hex_line_fuzz.hpp); a call throws InvalidArgument exactly when a
// buffer has the wrong size; encaps accepts ek exactly when its 12-bit coefficients are below q
// (FIPS 203 §7.2, checked here independently); decaps accepts dk exactly when its stored H(ek)
// matches (§7.3); rejected items have zeroed outputs; a fresh key pair decapsulates its own
// ciphertext to the encapsulated key; the well-sized lines as one batch (the OpenMP path) give the
// same bytes as one call per line. Returns the number of items the library accepted.
#pragma once
#include <array>
#include <cstring>

#include "zkgpu/core/keccak/keccak.hpp"
#include "fuzz/hex_line_fuzz.hpp"
#include "zkgpu/mlkem.hpp"

namespace zkgpu::fuzz {

namespace mlkem_detail {

using cli::Bytes;

inline size_t rank(MlKemSet set) { return size_t(set); }

// ByteDecode12 / ByteEncode12 round trip of ek's vector part: every coefficient below q = 3329.
inline bool ek_reduced(MlKemSet set, const Bytes& ek) {
  for (size_t i = 0; i + 3 <= 384 * rank(set); i += 3) {
    const unsigned d0 = ek[i] | unsigned(ek[i + 1] & 15) << 8, d1 = ek[i + 1] >> 4 | unsigned(ek[i + 2]) << 4;
    if (d0 >= 3329 || d1 >= 3329) return false;
  }
  return true;
}

// dk = dk_pke || ek || H(ek) || z: the hash check of ML-KEM.Decaps.
inline bool dk_hash_matches(MlKemSet set, const Bytes& dk) {
  const size_t pke = 384 * rank(set), ek = pke + 32;
  uint8_t h[32];
  keccak::sha3_256(h, dk.data() + pke, ek);
  return std::memcmp(h, dk.data() + pke + ek, 32) == 0;
}

inline Bytes concat(const std::vector<Bytes>& items) {
  Bytes out;
  for (const Bytes& b : items) out.insert(out.end(), b.begin(), b.end());
  return out;
}

// d:z -> a key pair per 64 bytes of d || z; each must decapsulate what it encapsulates.
inline size_t keygen_line(MlKemSet set, const std::vector<Bytes>& f) {
  const MlKemSizes sz = mlkem_sizes(set);
  const Bytes seeds = concat(f);
  const size_t n = seeds.size() / 64;
  Bytes ek(n * sz.ek), dk(n * sz.dk);
  const bool threw = throws_invalid([&] { mlkem_keygen_batch(set, seeds, ek, dk, Backend::Cpu); });
  check(threw == (seeds.size() % 64 != 0), "keygen: the seed-size check is wrong");
  if (threw) return 0;
  Bytes c(n * sz.ct), k(n * 32), k2(n * 32);
  std::vector<PqStatus> st(n), st2(n);
  Bytes m(seeds.begin(), seeds.begin() + long(n * 32));  // any 32 bytes per item
  mlkem_encaps_batch(set, ek, m, c, k, st, Backend::Cpu);
  mlkem_decaps_batch(set, dk, c, k2, st2, Backend::Cpu);
  for (size_t i = 0; i < n; ++i)
    check(st[i] == PqStatus::Ok && st2[i] == PqStatus::Ok, "keygen: a fresh key pair was rejected");
  check(k == k2, "keygen: a fresh key pair does not decapsulate its own ciphertext");
  return n;
}

struct Item {
  Bytes a, b;  // ek and m, or dk and c
  Bytes out1, out2;
  PqStatus st;
};

// ek:m -> c:K, or a throw for wrong sizes; the status is the modulus check.
inline bool encaps_line(MlKemSet set, const std::vector<Bytes>& f, std::vector<Item>& sized) {
  const MlKemSizes sz = mlkem_sizes(set);
  Bytes c(sz.ct, 0xa5), k(32, 0xa5);
  std::array<PqStatus, 1> st{};
  const bool threw = throws_invalid([&] { mlkem_encaps_batch(set, f[0], f[1], c, k, st, Backend::Cpu); });
  check(threw == (f[0].size() != sz.ek || f[1].size() != 32), "encaps: the size check is wrong");
  if (threw) return false;
  const bool ok = st[0] == PqStatus::Ok;
  check(ok == ek_reduced(set, f[0]), "encaps: the ek modulus check is wrong");
  if (!ok) check(all_zero(c) && all_zero(k), "encaps: a rejected item's outputs are not zeroed");
  sized.push_back({f[0], f[1], c, k, st[0]});
  return ok;
}

// dk:c -> K, or a throw for wrong sizes; the status is the hash check.
inline bool decaps_line(MlKemSet set, const std::vector<Bytes>& f, std::vector<Item>& sized) {
  const MlKemSizes sz = mlkem_sizes(set);
  Bytes k(32, 0xa5);
  std::array<PqStatus, 1> st{};
  const bool threw = throws_invalid([&] { mlkem_decaps_batch(set, f[0], f[1], k, st, Backend::Cpu); });
  check(threw == (f[0].size() != sz.dk || f[1].size() != sz.ct), "decaps: the size check is wrong");
  if (threw) return false;
  const bool ok = st[0] == PqStatus::Ok;
  check(ok == dk_hash_matches(set, f[0]), "decaps: the dk hash check is wrong");
  if (!ok) check(all_zero(k), "decaps: a rejected item's key is not zeroed");
  sized.push_back({f[0], f[1], {}, k, st[0]});
  return ok;
}

// The well-sized items again as one batch: the same bytes and statuses as one call each.
inline void check_batch(MlKemSet set, bool encaps, const std::vector<Item>& items) {
  if (items.size() < 2) return;
  const MlKemSizes sz = mlkem_sizes(set);
  const size_t n = items.size();
  std::vector<Bytes> as, bs;
  for (const Item& it : items) {
    as.push_back(it.a);
    bs.push_back(it.b);
  }
  Bytes c(n * sz.ct), k(n * 32);
  std::vector<PqStatus> st(n);
  if (encaps)
    mlkem_encaps_batch(set, concat(as), concat(bs), c, k, st, Backend::Cpu);
  else
    mlkem_decaps_batch(set, concat(as), concat(bs), k, st, Backend::Cpu);
  for (size_t i = 0; i < n; ++i) {
    check(st[i] == items[i].st, "a batch gives another status than one call per item");
    check(std::equal(items[i].out2.begin(), items[i].out2.end(), k.begin() + long(i * 32)),
          "a batch gives another key than one call per item");
    if (encaps)
      check(std::equal(items[i].out1.begin(), items[i].out1.end(), c.begin() + long(i * sz.ct)),
            "a batch gives another ciphertext than one call per item");
  }
}

}  // namespace mlkem_detail

inline size_t mlkem_line_one(std::span<const uint8_t> data) {
  using namespace mlkem_detail;
  if (data.empty()) return 0;
  static constexpr MlKemSet SETS[] = {MlKemSet::MlKem512, MlKemSet::MlKem768, MlKemSet::MlKem1024};
  const MlKemSet set = SETS[data[0] % 3];
  const unsigned op = (data[0] / 3) % 3;
  size_t accepted = 0;
  std::vector<Item> sized;
  for (std::string_view line : split_lines(as_text(data.subspan(1)))) {
    std::vector<Bytes> f;
    if (!parse_hex_line(line, 2, f)) continue;
    switch (op) {
      case 0: accepted += keygen_line(set, f); break;
      case 1: accepted += encaps_line(set, f, sized); break;
      default: accepted += decaps_line(set, f, sized); break;
    }
  }
  check_batch(set, op == 1, sized);
  return accepted;
}

}  // namespace zkgpu::fuzz
