// zkgpu's WHIR proof file, version 1 (docs/whir-proof-format.md): little-endian u32 words, field
// elements as canonical values. Every count is implied by the parameters except the number of
// distinct query openings (deduplication), which is bounded by the query count and checked
// against the transcript by the verifier.
#include <cstring>
#include <optional>
#include <string>

#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

constexpr uint32_t FOLD_CONSTANT = 0, FOLD_FROM_SECOND_ROUND = 1;

struct Writer {
  std::vector<uint8_t> out;
  void u32(uint32_t x) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(x >> (8 * i)));
  }
  void f(BabyBear x) { u32(x.canonical()); }
  void ef(const BabyBear4& x) {
    for (const BabyBear& c : x.c) f(c);
  }
  void digest(const Digest& d) {
    for (const BabyBear& c : d.e) f(c);
  }
  void sumcheck(const SumcheckData& d, unsigned rounds, unsigned pow_bits) {
    for (unsigned j = 0; j < rounds; ++j) {
      ef(d.h0.at(j));
      ef(d.h2.at(j));
      if (pow_bits > 0) f(d.pow_witnesses.at(j));
    }
  }
  void openings(const std::vector<MerkleOpening>& os) {
    u32(static_cast<uint32_t>(os.size()));
    for (const MerkleOpening& o : os) {
      for (const BabyBear& x : o.row) f(x);
      for (const Digest& d : o.siblings) digest(d);
    }
  }
};

struct Reader {
  std::span<const uint8_t> in;
  size_t pos = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw_invalid("WHIR proof file: " + what + " (at byte offset " + std::to_string(pos) + " of " +
                  std::to_string(in.size()) + ")");
  }
  size_t remaining() const { return in.size() - pos; }
  void need(size_t bytes, const std::string& what) const {
    if (bytes > remaining()) fail("truncated: " + what + " needs " + std::to_string(bytes) + " more bytes");
  }
  uint32_t u32(const std::string& what) {
    need(4, what);
    uint32_t x = 0;
    for (int i = 0; i < 4; ++i) x |= uint32_t(in[pos + i]) << (8 * i);
    pos += 4;
    return x;
  }
  BabyBear f(const std::string& what) {
    const uint32_t c = u32(what);
    BabyBear x;
    if (!decode_canonical(c, x)) {
      pos -= 4;
      fail(what + ": " + std::to_string(c) + " is not a canonical BabyBear value (must be < 2013265921)");
    }
    return x;
  }
  BabyBear4 ef(const std::string& what) {
    BabyBear4 x;
    for (BabyBear& c : x.c) c = f(what);
    return x;
  }
  Digest digest(const std::string& what) {
    Digest d;
    for (BabyBear& c : d.e) c = f(what);
    return d;
  }
  std::vector<BabyBear4> efs(size_t count, const std::string& what) {
    need(count * 16, what);
    std::vector<BabyBear4> v(count);
    for (auto& x : v) x = ef(what);
    return v;
  }
  SumcheckData sumcheck(unsigned rounds, unsigned pow_bits, const std::string& what) {
    need(size_t(rounds) * (32 + (pow_bits > 0 ? 4 : 0)), what);
    SumcheckData d;
    for (unsigned j = 0; j < rounds; ++j) {
      d.h0.push_back(ef(what + " h(0)"));
      d.h2.push_back(ef(what + " h(2)"));
      if (pow_bits > 0) d.pow_witnesses.push_back(f(what + " PoW witness"));
    }
    return d;
  }
  std::vector<MerkleOpening> openings(size_t max_queries, size_t width, unsigned log_height, const std::string& what) {
    const uint32_t count = u32(what + " opening count");
    const size_t min_count = max_queries > 0 ? 1 : 0;
    if (count < min_count || count > max_queries) {
      pos -= 4;
      fail(what + ": " + std::to_string(count) + " query openings, the parameters allow " + std::to_string(min_count) +
           ".." + std::to_string(max_queries));
    }
    const size_t per = 4 * width + 32 * size_t(log_height);
    need(per * count, what + " openings");
    std::vector<MerkleOpening> os(count);
    for (MerkleOpening& o : os) {
      o.row.resize(width);
      for (BabyBear& x : o.row) x = f(what + " opened value");
      o.siblings.resize(log_height);
      for (Digest& d : o.siblings) d = digest(what + " Merkle sibling");
    }
    return os;
  }
};

}  // namespace

std::vector<uint8_t> write_proof_file(const WhirConfig& cfg, std::span<const Claim> claims, const Proof& pf) {
  const ProtocolParameters& p = cfg.params;
  const unsigned n = p.num_variables;
  Writer w;
  w.out.insert(w.out.end(), PROOF_FILE_MAGIC, PROOF_FILE_MAGIC + 8);
  w.u32(PROOF_FILE_VERSION);
  w.u32(n);
  w.u32(p.security_level);
  w.u32(p.pow_bits);
  w.u32(static_cast<uint32_t>(p.soundness));
  w.u32(p.starting_log_inv_rate);
  w.u32(cfg.rs_reduction);
  w.u32(p.folding.from_second_round ? FOLD_FROM_SECOND_ROUND : FOLD_CONSTANT);
  w.u32(p.folding.first);
  w.u32(p.folding.rest);
  if (claims.empty() || claims.size() > MAX_CLAIMS)
    throw_invalid("write_proof_file: " + std::to_string(claims.size()) + " claims, a proof file holds 1.." +
                  std::to_string(MAX_CLAIMS));
  w.u32(static_cast<uint32_t>(claims.size()));
  for (const Claim& c : claims) {
    if (c.point.size() != n) throw_invalid("write_proof_file: a claim's point does not have n coordinates");
    for (const BabyBear4& x : c.point) w.ef(x);
    w.ef(c.value);
  }
  if (pf.initial_ood_answers.size() != cfg.commitment_ood_samples || pf.rounds.size() != cfg.n_rounds ||
      pf.final_poly.size() != (size_t(1) << cfg.final_sumcheck_rounds))
    throw_invalid("write_proof_file: the proof's shape does not match its parameters");
  w.digest(pf.initial_commitment);
  for (const BabyBear4& x : pf.initial_ood_answers) w.ef(x);
  w.sumcheck(pf.initial_sumcheck, p.folding.at_round(0), cfg.starting_folding_pow_bits);
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const RoundConfig& rc = cfg.rounds[i];
    const RoundProof& rp = pf.rounds[i];
    w.digest(rp.commitment);
    if (rp.ood_answers.size() != rc.ood_samples) throw_invalid("write_proof_file: OOD count mismatch");
    for (const BabyBear4& x : rp.ood_answers) w.ef(x);
    if (rc.pow_bits > 0) w.f(rp.pow_witness);
    w.openings(rp.queries);
    w.sumcheck(rp.sumcheck, p.folding.at_round(i + 1), rc.folding_pow_bits);
  }
  for (const BabyBear4& x : pf.final_poly) w.ef(x);
  if (cfg.final_round.pow_bits > 0) w.f(pf.final_pow_witness);
  w.openings(pf.final_queries);
  w.sumcheck(pf.final_sumcheck, cfg.final_sumcheck_rounds, cfg.final_round.folding_pow_bits);
  return std::move(w.out);
}

namespace {

// Magic, version and the parameter words; leaves r at the claim count.
ProtocolParameters read_header(Reader& r) {
  r.need(8, "magic");
  if (std::memcmp(r.in.data(), PROOF_FILE_MAGIC, 8) != 0) r.fail("not a zkgpu WHIR proof file (bad magic)");
  r.pos = 8;
  const uint32_t version = r.u32("version");
  if (version != PROOF_FILE_VERSION) {
    r.pos -= 4;
    r.fail("unsupported version " + std::to_string(version) + " (this build reads version " +
           std::to_string(PROOF_FILE_VERSION) + ")");
  }
  ProtocolParameters p;
  p.num_variables = r.u32("num_variables");
  p.security_level = r.u32("security_level");
  p.pow_bits = r.u32("pow_bits");
  const uint32_t soundness = r.u32("soundness");
  if (soundness > 2) {
    r.pos -= 4;
    r.fail("unknown soundness id " + std::to_string(soundness));
  }
  p.soundness = static_cast<Soundness>(soundness);
  p.starting_log_inv_rate = r.u32("starting_log_inv_rate");
  p.rs_reduction = r.u32("rs_reduction");
  const uint32_t kind = r.u32("folding kind");
  if (kind != FOLD_CONSTANT && kind != FOLD_FROM_SECOND_ROUND) {
    r.pos -= 4;
    r.fail("unknown folding kind " + std::to_string(kind));
  }
  const uint32_t k0 = r.u32("first folding factor"), k = r.u32("folding factor");
  if (kind == FOLD_CONSTANT && k0 != k) {
    r.pos -= 4;
    r.fail("a constant folding factor must repeat the same value");
  }
  p.folding = kind == FOLD_CONSTANT ? FoldingFactor::constant(k) : FoldingFactor::constant_from_second_round(k0, k);
  return p;
}

std::string fold_text(const FoldingFactor& f) {
  return f.from_second_round ? std::to_string(f.first) + " then " + std::to_string(f.rest) : std::to_string(f.first);
}

uint32_t read_claim_count(Reader& r) {
  const uint32_t c = r.u32("claim count");
  if (c == 0 || c > MAX_CLAIMS) {
    r.pos -= 4;
    r.fail("claim count " + std::to_string(c) + " is outside 1.." + std::to_string(MAX_CLAIMS) +
           " (a proof of no claim proves nothing)");
  }
  return c;
}

}  // namespace

ProtocolParameters read_proof_header(std::span<const uint8_t> bytes) {
  Reader r{bytes};
  ProtocolParameters p = read_header(r);
  WhirConfig cfg;
  try {
    cfg = WhirConfig::derive(p);
  } catch (const Error& e) {
    r.fail(std::string("invalid parameters: ") + e.what());
  }
  if (cfg.rs_reduction != *p.rs_reduction)
    r.fail("rs_reduction must be " + std::to_string(cfg.rs_reduction) + " for a configuration without WHIR rounds");
  return p;
}

std::optional<std::string> header_mismatch(const ProtocolParameters& file, const WhirConfig& expected) {
  const ProtocolParameters& e = expected.params;
  auto differs = [](const std::string& field, const std::string& got, const std::string& want) {
    return field + ": the proof says " + got + ", the verifier requires " + want;
  };
  if (file.num_variables != e.num_variables)
    return differs("num_variables", std::to_string(file.num_variables), std::to_string(e.num_variables));
  if (file.security_level != e.security_level)
    return differs("security_level", std::to_string(file.security_level), std::to_string(e.security_level));
  if (file.pow_bits != e.pow_bits)
    return differs("pow_bits", std::to_string(file.pow_bits), std::to_string(e.pow_bits));
  if (file.soundness != e.soundness) return differs("soundness", long_name(file.soundness), long_name(e.soundness));
  if (file.starting_log_inv_rate != e.starting_log_inv_rate)
    return differs("starting_log_inv_rate", std::to_string(file.starting_log_inv_rate),
                   std::to_string(e.starting_log_inv_rate));
  if (!(file.folding == e.folding)) return differs("folding factor", fold_text(file.folding), fold_text(e.folding));
  if (file.rs_reduction.value_or(~0u) != expected.rs_reduction)
    return differs("rs_reduction", std::to_string(file.rs_reduction.value_or(~0u)),
                   std::to_string(expected.rs_reduction));
  return std::nullopt;
}

uint64_t max_proof_file_size(const WhirConfig& cfg, size_t num_claims) {
  const unsigned n = cfg.num_variables();
  const FoldingFactor& ff = cfg.params.folding;
  auto sumcheck = [](unsigned rounds, unsigned pow_bits) { return uint64_t(rounds) * (32 + (pow_bits > 0 ? 4 : 0)); };
  auto openings = [](size_t queries, uint64_t width, unsigned log_height) {
    return 4 + uint64_t(queries) * (4 * width + 32 * uint64_t(log_height));
  };
  uint64_t size = PROOF_FILE_HEADER_BYTES + uint64_t(num_claims) * (n + 1) * 16;
  size += 32 + 16 * uint64_t(cfg.commitment_ood_samples) + sumcheck(ff.at_round(0), cfg.starting_folding_pow_bits);
  unsigned log_height = cfg.max_fft_size;
  uint64_t scalar = 1;
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const RoundConfig& rc = cfg.rounds[i];
    size += 32 + 16 * uint64_t(rc.ood_samples) + (rc.pow_bits > 0 ? 4 : 0);
    size += openings(rc.num_queries, scalar << rc.folding_factor, log_height);
    size += sumcheck(ff.at_round(i + 1), rc.folding_pow_bits);
    log_height = cfg.log_tree_height(i);
    scalar = 4;
  }
  const FinalConfig& fc = cfg.final_round;
  size += 16 * (uint64_t(1) << cfg.final_sumcheck_rounds) + (fc.pow_bits > 0 ? 4 : 0);
  size += openings(fc.num_queries, scalar << fc.folding_factor, log_height);
  return size + sumcheck(cfg.final_sumcheck_rounds, fc.folding_pow_bits);
}

ProofFile read_proof_file(std::span<const uint8_t> bytes, const WhirConfig& cfg) {
  Reader r{bytes};
  const ProtocolParameters header = read_header(r);
  // The header only has to agree with the verifier's configuration; every count below comes from
  // that configuration.
  if (const auto mismatch = header_mismatch(header, cfg)) r.fail("made under other parameters: " + *mismatch);
  ProofFile out;
  out.params = cfg.params;
  const ProtocolParameters& p = cfg.params;
  const unsigned n = p.num_variables;

  const uint32_t n_claims = read_claim_count(r);
  r.need(size_t(n_claims) * (size_t(n) + 1) * 16, "claims");
  out.claims.resize(n_claims);
  for (Claim& c : out.claims) {
    c.point = r.efs(n, "claim point");
    c.value = r.ef("claim value");
  }

  Proof& pf = out.proof;
  const FoldingFactor& ff = p.folding;
  pf.initial_commitment = r.digest("initial commitment");
  pf.initial_ood_answers = r.efs(cfg.commitment_ood_samples, "commitment OOD answers");
  pf.initial_sumcheck = r.sumcheck(ff.at_round(0), cfg.starting_folding_pow_bits, "initial sumcheck");
  unsigned prev_log_height = cfg.max_fft_size;
  size_t prev_scalar = 1;  // base-field tree first, then extension-field trees (4 words per value)
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const RoundConfig& rc = cfg.rounds[i];
    const std::string what = "round " + std::to_string(i);
    RoundProof rp;
    rp.commitment = r.digest(what + " commitment");
    rp.ood_answers = r.efs(rc.ood_samples, what + " OOD answers");
    if (rc.pow_bits > 0) rp.pow_witness = r.f(what + " PoW witness");
    rp.queries = r.openings(rc.num_queries, prev_scalar << rc.folding_factor, prev_log_height, what);
    rp.sumcheck = r.sumcheck(ff.at_round(i + 1), rc.folding_pow_bits, what + " sumcheck");
    pf.rounds.push_back(std::move(rp));
    prev_log_height = cfg.log_tree_height(i);
    prev_scalar = 4;
  }
  const FinalConfig& fc = cfg.final_round;
  pf.final_poly = r.efs(size_t(1) << cfg.final_sumcheck_rounds, "final polynomial");
  if (fc.pow_bits > 0) pf.final_pow_witness = r.f("final PoW witness");
  pf.final_queries = r.openings(fc.num_queries, prev_scalar << fc.folding_factor, prev_log_height, "final");
  pf.final_sumcheck = r.sumcheck(cfg.final_sumcheck_rounds, fc.folding_pow_bits, "final sumcheck");
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes after the proof");
  return out;
}

}  // namespace zkgpu::whir
