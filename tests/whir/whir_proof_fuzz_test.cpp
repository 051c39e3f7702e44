// The WHIR proof-file fuzz entry (tests/fuzz/whir_proof_fuzz.hpp, the libFuzzer target's body)
// driven over a seeded corpus: valid proofs of several shapes and thousands of mutations of them.
// Every input must end in a parse error (zkgpu::Error), a rejection or, only for the original
// bytes or a change confined to PoW-witness bytes, an acceptance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "fuzz/whir_proof_fuzz.hpp"
#include "support/test_support.hpp"
#include "whir/whir_test_support.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir {
namespace {

using fuzz::WhirVerdict;
using test::make_params;
using test::random_claims;
using test::Rng;

struct Seed {
  std::vector<uint8_t> file;
  std::vector<size_t> count_offsets;  // u32 fields that size or select what follows
  std::vector<bool> pow_byte;         // per byte: part of a PoW witness
  size_t n_rounds = 0;
};

// Walks the version-1 layout (docs/whir-proof-format.md) of a file write_proof_file produced.
void map_layout(const WhirConfig& cfg, const ProofFile& pf, Seed& s) {
  s.pow_byte.assign(s.file.size(), false);
  s.n_rounds = cfg.n_rounds;
  size_t pos = 12;                                                       // magic, version
  for (int i = 0; i < 9; ++i, pos += 4) s.count_offsets.push_back(pos);  // n .. folding factors
  s.count_offsets.push_back(pos);                                        // claim count
  pos += 4 + pf.claims.size() * (cfg.num_variables() + 1) * 16;
  auto pow = [&] {
    std::fill(s.pow_byte.begin() + long(pos), s.pow_byte.begin() + long(pos + 4), true);
    pos += 4;
  };
  auto sumcheck = [&](unsigned rounds, unsigned bits) {
    for (unsigned j = 0; j < rounds; ++j) {
      pos += 32;
      if (bits > 0) pow();
    }
  };
  auto openings = [&](const std::vector<MerkleOpening>& os) {
    s.count_offsets.push_back(pos);
    pos += 4;
    for (const MerkleOpening& o : os) pos += 4 * o.row.size() + 32 * o.siblings.size();
  };
  pos += 32 + 16 * cfg.commitment_ood_samples;
  sumcheck(cfg.params.folding.at_round(0), cfg.starting_folding_pow_bits);
  for (size_t i = 0; i < cfg.n_rounds; ++i) {
    const RoundConfig& rc = cfg.rounds[i];
    pos += 32 + 16 * rc.ood_samples;
    if (rc.pow_bits > 0) pow();
    openings(pf.proof.rounds[i].queries);
    sumcheck(cfg.params.folding.at_round(i + 1), rc.folding_pow_bits);
  }
  pos += 16 * pf.proof.final_poly.size();
  if (cfg.final_round.pow_bits > 0) pow();
  openings(pf.proof.final_queries);
  sumcheck(cfg.final_sumcheck_rounds, cfg.final_round.folding_pow_bits);
  ASSERT_EQ(pos, s.file.size()) << "the layout walk disagrees with the file";
}

Seed make_seed(const ProtocolParameters& p, size_t n_claims, uint64_t salt) {
  const WhirConfig cfg = WhirConfig::derive(p);
  Rng rng(salt);
  const std::vector<BabyBear> evals = rng.fes(size_t(1) << p.num_variables);
  std::vector<Claim> claims(n_claims);
  for (Claim& c : claims) {
    for (unsigned i = 0; i < p.num_variables; ++i) c.point.push_back(rng.fe4());
    c.value = evaluate_multilinear(evals, c.point);
  }
  Seed s;
  s.file = write_proof_file(cfg, claims, prove(cfg, evals, claims, Backend::Cpu));
  map_layout(cfg, read_proof_file(s.file, cfg), s);
  return s;
}

std::vector<Seed> corpus() {
  std::vector<Seed> c;
  // No PoW anywhere: every byte is checked.
  c.push_back(make_seed(make_params(8, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 10, 0), 1, 1));
  // 1-3-bit PoW phases: other witnesses are often valid too.
  c.push_back(make_seed(make_params(9, FoldingFactor::constant(2), 1, Soundness::UniqueDecoding, 10, 2), 2, 2));
  // A different first fold, Johnson bound, rate 2.
  c.push_back(make_seed(
      make_params(10, FoldingFactor::constant_from_second_round(3, 2), 2, Soundness::JohnsonBound, 20, 4), 1, 3));
  // Fold 1 (many rounds), three claims.
  c.push_back(make_seed(make_params(7, FoldingFactor::constant(1), 1, Soundness::CapacityBound, 16, 1), 3, 4));
  // Several rounds, small PoW in the rounds and the sumchecks.
  c.push_back(make_seed(make_params(13, FoldingFactor::constant(2), 1, Soundness::CapacityBound, 20, 3), 1, 6));
  // Below MAX_VARS_TO_SEND: no rounds, the polynomial in the clear.
  c.push_back(make_seed(make_params(5, FoldingFactor::constant(2), 1, Soundness::UniqueDecoding, 12, 0), 1, 5));
  return c;
}

void put_u32(std::vector<uint8_t>& f, size_t off, uint32_t v) {
  for (int b = 0; b < 4 && off + b < f.size(); ++b) f[off + b] = uint8_t(v >> (8 * b));
}

std::vector<uint8_t> mutate(const std::vector<Seed>& all, const Seed& s, Rng& rng) {
  std::vector<uint8_t> f = s.file;
  const size_t n = f.size();
  auto at = [&](size_t bound) { return bound == 0 ? 0 : size_t(rng.u32()) % bound; };
  switch (rng.u32() % 10) {
    case 0:  // one bit
      f[at(n)] ^= uint8_t(1u << (rng.u32() % 8));
      break;
    case 1:  // a few random bytes
      for (unsigned k = 1 + rng.u32() % 8; k-- > 0;) f[at(n)] ^= uint8_t(1 + rng.u32() % 255);
      break;
    case 2:  // truncation
      f.resize(at(n));
      break;
    case 3: {  // insertion
      const size_t pos = at(n + 1);
      std::vector<uint8_t> ins(1 + rng.u32() % 16);
      for (auto& b : ins) b = uint8_t(rng.u32());
      f.insert(f.begin() + long(pos), ins.begin(), ins.end());
      break;
    }
    case 4: {  // deletion of a range
      const size_t pos = at(n), len = std::min<size_t>(n - pos, 1 + rng.u32() % 64);
      f.erase(f.begin() + long(pos), f.begin() + long(pos + len));
      break;
    }
    case 5: {  // a count or header field set to a huge, boundary or neighbouring value
      const size_t off = s.count_offsets[at(s.count_offsets.size())];
      uint32_t old = 0;
      for (int b = 0; b < 4; ++b) old |= uint32_t(f[off + b]) << (8 * b);
      const uint32_t vals[] = {0xffffffffu, 0x80000000u, 0x7fffffffu, 1u << 20, 1u << 16, 0, old + 1, old - 1, old * 2};
      put_u32(f, off, vals[at(std::size(vals))]);
      break;
    }
    case 6:  // an aligned word made non-canonical or extreme
      put_u32(f, 4 * at(n / 4), rng.u32() % 2 ? BabyBear::P + rng.u32() % 16 : 0xffffffffu - rng.u32() % 16);
      break;
    case 7: {  // a PoW witness byte (valid variants are allowed: only this kind of change)
      std::vector<size_t> pw;
      for (size_t i = 0; i < n; ++i)
        if (s.pow_byte[i]) pw.push_back(i);
      if (pw.empty())
        f[at(n)] ^= 0x01;
      else
        f[pw[at(pw.size())]] ^= uint8_t(1u << (rng.u32() % 8));
      break;
    }
    case 8: {  // a chunk spliced in from another corpus file
      const Seed& o = all[at(all.size())];
      const size_t src = at(o.file.size()), dst = at(n);
      const size_t len = std::min({o.file.size() - src, n - dst, size_t(1 + rng.u32() % 256)});
      std::copy_n(o.file.begin() + long(src), len, f.begin() + long(dst));
      break;
    }
    default:  // trailing bytes
      for (unsigned k = 1 + rng.u32() % 8; k-- > 0;) f.push_back(uint8_t(rng.u32()));
      break;
  }
  return f;
}

// Accepted only as the original or with every changed byte inside a PoW witness. (A round-less
// configuration's unused rs_reduction is pinned by the parser, so it is no exception.)
enum class Accept { Ok, Bad };
Accept classify_accepted(const Seed& s, const std::vector<uint8_t>& f) {
  if (f.size() != s.file.size()) return Accept::Bad;
  for (size_t i = 0; i < f.size(); ++i)
    if (f[i] != s.file[i] && !s.pow_byte[i]) return Accept::Bad;
  return Accept::Ok;
}

std::string describe(const Seed& s, const std::vector<uint8_t>& f) {
  if (f.size() != s.file.size())
    return "size " + std::to_string(f.size()) + " instead of " + std::to_string(s.file.size());
  std::string d = "bytes";
  for (size_t i = 0; i < f.size(); ++i)
    if (f[i] != s.file[i]) d += " " + std::to_string(i) + (s.pow_byte[i] ? "(PoW)" : "");
  return d + " of " + std::to_string(f.size()) + " changed";
}

TEST(WhirProofFuzz, SeedCorpusIsValidAndMapped) {
  const std::vector<Seed> seeds = corpus();
  size_t pow_bytes = 0;
  for (const Seed& s : seeds) {
    EXPECT_EQ(fuzz::whir_proof_one_input(s.file), WhirVerdict::Accepted);
    pow_bytes += size_t(std::count(s.pow_byte.begin(), s.pow_byte.end(), true));
  }
  EXPECT_GT(pow_bytes, 0u);
  EXPECT_GE(std::count_if(seeds.begin(), seeds.end(), [](const Seed& s) { return s.n_rounds >= 2; }),
            1);  // the corpus has PoW witnesses for the nonce mutations to hit
  // For libFuzzer: ZKGPU_FUZZ_CORPUS_DIR=dir writes the seeds there.
  if (const char* dir = std::getenv("ZKGPU_FUZZ_CORPUS_DIR"))
    for (size_t i = 0; i < seeds.size(); ++i) {
      std::ofstream out(std::string(dir) + "/whir_seed_" + std::to_string(i) + ".bin", std::ios::binary);
      out.write(reinterpret_cast<const char*>(seeds[i].file.data()), std::streamsize(seeds[i].file.size()));
    }
}

TEST(WhirProofFuzz, MutationsAreRejectedOrPowOnly) {
  const std::vector<Seed> seeds = corpus();
  constexpr size_t PER_SEED = 2500;
  size_t unparsable = 0, rejected = 0, accepted = 0, bad = 0;
  std::vector<std::string> failures;
#pragma omp parallel for schedule(dynamic, 32) reduction(+ : unparsable, rejected, accepted, bad)
  for (size_t t = 0; t < seeds.size() * PER_SEED; ++t) {
    const Seed& s = seeds[t % seeds.size()];
    Rng rng(1000 + t);
    const std::vector<uint8_t> f = mutate(seeds, s, rng);
    std::string failure;
    try {
      switch (fuzz::whir_proof_one_input(f)) {
        case WhirVerdict::Unparsable: ++unparsable; break;
        case WhirVerdict::Rejected: ++rejected; break;
        case WhirVerdict::Accepted:
          ++accepted;
          switch (classify_accepted(s, f)) {
            case Accept::Ok: break;
            case Accept::Bad: failure = "a mutated file (not only PoW bytes changed) was accepted: " + describe(s, f);
          }
          break;
      }
    } catch (const std::exception& e) {
      failure = std::string("exception: ") + e.what();
    } catch (...) {
      failure = "a non-std exception";
    }
    if (!failure.empty()) {
      ++bad;
#pragma omp critical
      failures.push_back("seed " + std::to_string(t % seeds.size()) + ", mutation " + std::to_string(t) + ": " +
                         failure);
    }
  }
  for (size_t i = 0; i < std::min<size_t>(failures.size(), 20); ++i) ADD_FAILURE() << failures[i];
  EXPECT_EQ(bad, 0u);
  // Each outcome is reached: the mutations get past the parser and into the verifier.
  EXPECT_GT(unparsable, 0u);
  EXPECT_GT(rejected, seeds.size() * PER_SEED / 20);
  std::cout << "unparsable " << unparsable << ", rejected " << rejected << ", accepted (original or PoW only) "
            << accepted << "\n";
}

}  // namespace
}  // namespace zkgpu::whir
