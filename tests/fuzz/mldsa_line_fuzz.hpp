// One fuzz input for the ML-DSA line format of `zkgpu mldsa keygen|sign|verify` (lines of
// ':'-separated hex, src/io/hex_lines.cpp) and the batch API behind it. Byte 0 picks the parameter
// set (byte % 3: 44, 65, 87), the operation ((byte / 3) % 3: keygen `xi`, sign `sk:msg:ctx:rnd`,
// verify `pk:msg:ctx:sig`) and the external-mu interface ((byte / 9) % 2: msg is mu; the library
// has it, the CLI does not use it); the rest is the text the CLI reads on stdin. Every parsed line
// goes to the library whatever its field sizes.
//
// Invariants: the parser's (hex_line_fuzz.hpp); sign rejects exactly the items of a wrong sk, rnd
// or mu length or a context over 255 bytes (and maybe a malformed sk), with a zeroed signature;
// verify answers 0 or 1, and 0 for any wrong length; pure signing and verification agree with
// their external-mu form on mu = H(tr || 0 || |ctx| || ctx || M); a fresh key signs and verifies,
// and a corrupted signature of it does not; the well-sized lines as one batch (the OpenMP path)
// give the same answers as one call per line. Returns the number of items accepted (keys made,
// signatures made, signatures valid).
#pragma once
#include <array>

#include "zkgpu/core/mldsa/dsa.hpp"
#include "fuzz/hex_line_fuzz.hpp"
#include "zkgpu/mldsa.hpp"

namespace zkgpu::fuzz {

namespace mldsa_detail {

using cli::Bytes;
constexpr size_t TR = mldsa::SkLayout<mldsa::P44>::TR;  // the same offset in every set

inline Bytes mu_of(const uint8_t tr[64], const Bytes& ctx, const Bytes& msg) {
  Bytes mu(64);
  mldsa::compute_mu(mu.data(), tr, ctx.data(), uint8_t(ctx.size()), msg.data(), msg.size());
  return mu;
}

// xi (any multiple of 32 bytes) -> key pairs that sign and verify.
inline size_t keygen_line(MlDsaSet set, const Bytes& seeds) {
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = seeds.size() / 32;
  Bytes pk(n * sz.pk), sk(n * sz.sk);
  const bool threw = throws_invalid([&] { mldsa_keygen_batch(set, seeds, pk, sk, Backend::Cpu); });
  check(threw == (seeds.size() % 32 != 0), "keygen: the seed-size check is wrong");
  if (threw || n == 0) return 0;
  std::vector<MlDsaSignItem> sign(n);
  for (size_t i = 0; i < n; ++i) sign[i] = {{&sk[i * sz.sk], sz.sk}, {&seeds[i * 32], 32}, {}, {}, false};
  Bytes sigs(n * sz.sig);
  std::vector<PqStatus> st(n);
  mldsa_sign_batch(set, sign, sigs, st, Backend::Cpu);
  Bytes bad = sigs;
  std::vector<MlDsaVerifyItem> verify(2 * n);
  for (size_t i = 0; i < n; ++i) {
    check(st[i] == PqStatus::Ok, "keygen: a fresh key did not sign");
    bad[i * sz.sig] ^= 1;  // c-tilde
    verify[i] = {{&pk[i * sz.pk], sz.pk}, {&seeds[i * 32], 32}, {}, {&sigs[i * sz.sig], sz.sig}, false};
    verify[n + i] = {{&pk[i * sz.pk], sz.pk}, {&seeds[i * 32], 32}, {}, {&bad[i * sz.sig], sz.sig}, false};
  }
  std::vector<uint8_t> ok(2 * n);
  mldsa_verify_batch(set, verify, ok, Backend::Cpu);
  for (size_t i = 0; i < n; ++i) {
    check(ok[i] == 1, "keygen: a fresh signature does not verify");
    check(ok[n + i] == 0, "keygen: a corrupted signature verifies");
  }
  return n;
}

struct Line {
  std::vector<Bytes> f;
  Bytes out;  // signature, or the verdict byte
  PqStatus st = PqStatus::Ok;
};

inline MlDsaSignItem sign_item(const std::vector<Bytes>& f, bool ext) { return {f[0], f[1], f[2], f[3], ext}; }
inline MlDsaVerifyItem verify_item(const std::vector<Bytes>& f, bool ext) { return {f[0], f[1], f[2], f[3], ext}; }

inline bool sign_line(MlDsaSet set, bool ext, std::vector<Bytes> f, std::vector<Line>& lines) {
  const MlDsaSizes sz = mldsa_sizes(set);
  Bytes sig(sz.sig, 0xa5);
  std::array<PqStatus, 1> st{};
  const MlDsaSignItem item = sign_item(f, ext);
  mldsa_sign_batch(set, {&item, 1}, sig, st, Backend::Cpu);
  const bool ok = st[0] == PqStatus::Ok;
  const bool bad_size = f[0].size() != sz.sk || (!f[3].empty() && f[3].size() != 32) ||
                        (ext ? f[1].size() != 64 : f[2].size() > MlDsaSizes::max_ctx);
  if (bad_size) check(!ok, "sign: an item of a wrong length was accepted");
  if (!ok) check(all_zero(sig), "sign: a rejected item's signature is not zeroed");
  if (ok && !ext) {  // pure signing is signing mu
    const std::vector<Bytes> g{f[0], mu_of(&f[0][TR], f[2], f[1]), {}, f[3]};
    Bytes sig2(sz.sig);
    const MlDsaSignItem it2 = sign_item(g, true);
    mldsa_sign_batch(set, {&it2, 1}, sig2, st, Backend::Cpu);
    check(st[0] == PqStatus::Ok && sig2 == sig, "sign: pure and external-mu signing disagree");
  }
  lines.push_back({std::move(f), std::move(sig), ok ? PqStatus::Ok : PqStatus::InvalidInput});
  return ok;
}

inline bool verify_line(MlDsaSet set, bool ext, std::vector<Bytes> f, std::vector<Line>& lines) {
  const MlDsaSizes sz = mldsa_sizes(set);
  std::array<uint8_t, 1> ok{7};
  const MlDsaVerifyItem item = verify_item(f, ext);
  mldsa_verify_batch(set, {&item, 1}, ok, Backend::Cpu);
  check(ok[0] <= 1, "verify: a verdict other than 0 or 1");
  const bool bad_size =
      f[0].size() != sz.pk || f[3].size() != sz.sig || (ext ? f[1].size() != 64 : f[2].size() > MlDsaSizes::max_ctx);
  if (bad_size) check(ok[0] == 0, "verify: an item of a wrong length was accepted");
  if (!bad_size && !ext) {  // pure verification is verification of mu
    uint8_t tr[64];
    keccak::shake256(tr, 64, f[0].data(), f[0].size());
    const std::vector<Bytes> g{f[0], mu_of(tr, f[2], f[1]), {}, f[3]};
    const MlDsaVerifyItem it2 = verify_item(g, true);
    std::array<uint8_t, 1> ok2{7};
    mldsa_verify_batch(set, {&it2, 1}, ok2, Backend::Cpu);
    check(ok2[0] == ok[0], "verify: pure and external-mu verification disagree");
  }
  lines.push_back({std::move(f), {ok[0]}, PqStatus::Ok});
  return ok[0] == 1;
}

// Every line again as one batch: the same signatures, statuses and verdicts as one call each.
inline void check_batch(MlDsaSet set, bool sign, bool ext, const std::vector<Line>& lines) {
  const size_t n = lines.size();
  if (n < 2) return;
  if (sign) {
    const MlDsaSizes sz = mldsa_sizes(set);
    std::vector<MlDsaSignItem> items;
    for (const Line& l : lines) items.push_back(sign_item(l.f, ext));
    Bytes sigs(n * sz.sig);
    std::vector<PqStatus> st(n);
    mldsa_sign_batch(set, items, sigs, st, Backend::Cpu);
    for (size_t i = 0; i < n; ++i) {
      check(st[i] == lines[i].st, "sign: a batch gives another status than one call per item");
      check(std::equal(lines[i].out.begin(), lines[i].out.end(), sigs.begin() + long(i * sz.sig)),
            "sign: a batch gives another signature than one call per item");
    }
  } else {
    std::vector<MlDsaVerifyItem> items;
    for (const Line& l : lines) items.push_back(verify_item(l.f, ext));
    std::vector<uint8_t> ok(n);
    mldsa_verify_batch(set, items, ok, Backend::Cpu);
    for (size_t i = 0; i < n; ++i) check(ok[i] == lines[i].out[0], "verify: a batch gives another verdict");
  }
}

}  // namespace mldsa_detail

inline size_t mldsa_line_one(std::span<const uint8_t> data) {
  using namespace mldsa_detail;
  if (data.empty()) return 0;
  static constexpr MlDsaSet SETS[] = {MlDsaSet::MlDsa44, MlDsaSet::MlDsa65, MlDsaSet::MlDsa87};
  const MlDsaSet set = SETS[data[0] % 3];
  const unsigned op = (data[0] / 3) % 3;
  const bool ext = (data[0] / 9) % 2 != 0;
  size_t accepted = 0;
  std::vector<Line> lines;
  for (std::string_view text : split_lines(as_text(data.subspan(1)))) {
    std::vector<Bytes> f;
    if (!parse_hex_line(text, op == 0 ? 1 : 4, f)) continue;
    switch (op) {
      case 0: accepted += keygen_line(set, f[0]); break;
      case 1: accepted += sign_line(set, ext, std::move(f), lines); break;
      default: accepted += verify_line(set, ext, std::move(f), lines); break;
    }
  }
  if (op != 0) check_batch(set, op == 1, ext, lines);
  return accepted;
}

}  // namespace zkgpu::fuzz
