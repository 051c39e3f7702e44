// The one entry of the WHIR proof-file fuzzing: parse untrusted bytes and, when they parse,
// verify them. Shared by the libFuzzer target (whir_proof_fuzz.cc) and the seeded-corpus gtest
// (tests/whir/whir_proof_fuzz_test.cpp), so both exercise exactly the same code.
//
// Each input is read twice: against a fixed configuration (a verifier with its own parameters,
// the only sound use), and against the configuration its header states (what a tool reporting
// on a file does). Contract checked here: a malformed file is refused with zkgpu::Error (and
// nothing else); a header read_proof_header accepts derives a valid configuration; a file that
// parses re-encodes to exactly its own bytes (one encoding per proof) and gets a verdict from
// verify() without throwing; both readings agree when the header states the fixed parameters.
// A broken invariant throws std::logic_error, which libFuzzer reports as a crash and the gtest
// as a failure.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::fuzz {

enum class WhirVerdict { Unparsable, Rejected, Accepted };

// The first seed's configuration (n = 8, fold 2, rate 1, CapacityBound, security 10, no PoW).
inline const whir::WhirConfig& whir_fuzz_fixed_config() {
  static const whir::WhirConfig cfg = [] {
    whir::ProtocolParameters p;
    p.num_variables = 8;
    p.folding = whir::FoldingFactor::constant(2);
    p.starting_log_inv_rate = 1;
    p.soundness = whir::Soundness::CapacityBound;
    p.security_level = 10;
    p.pow_bits = 0;
    return whir::WhirConfig::derive(p);
  }();
  return cfg;
}

inline WhirVerdict whir_proof_against(std::span<const uint8_t> bytes, const whir::WhirConfig& cfg) {
  whir::ProofFile pf;
  try {
    pf = whir::read_proof_file(bytes, cfg);
  } catch (const Error&) {
    return WhirVerdict::Unparsable;
  }
  const std::vector<uint8_t> again = whir::write_proof_file(cfg, pf.claims, pf.proof);
  if (again.size() != bytes.size() || !std::equal(again.begin(), again.end(), bytes.begin()))
    throw std::logic_error("a parsed WHIR proof file does not re-encode to its own bytes");
  whir::VerifyResult r;
  try {
    r = whir::verify(cfg, pf.claims, pf.proof);
  } catch (const Error& e) {
    throw std::logic_error(std::string("verify() threw on a parsed proof instead of rejecting it: ") + e.what());
  }
  return r.accepted ? WhirVerdict::Accepted : WhirVerdict::Rejected;
}

inline WhirVerdict whir_proof_one_input(std::span<const uint8_t> bytes) {
  const WhirVerdict fixed = whir_proof_against(bytes, whir_fuzz_fixed_config());
  whir::ProtocolParameters header;
  try {
    header = whir::read_proof_header(bytes);
  } catch (const Error&) {
    if (fixed != WhirVerdict::Unparsable) throw std::logic_error("a file parsed although its header does not");
    return WhirVerdict::Unparsable;
  }
  whir::WhirConfig cfg;
  try {
    cfg = whir::WhirConfig::derive(header);
  } catch (const Error& e) {
    throw std::logic_error(std::string("read_proof_header accepted parameters that derive() rejects: ") + e.what());
  }
  const WhirVerdict stated = whir_proof_against(bytes, cfg);
  if (fixed != WhirVerdict::Unparsable && stated != fixed)
    throw std::logic_error("the same parameters gave two verdicts");
  return stated;
}

}  // namespace zkgpu::fuzz
