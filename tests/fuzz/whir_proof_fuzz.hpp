// The one entry of the WHIR proof-file fuzzing: parse untrusted bytes and, when they parse,
// verify them. Shared by the libFuzzer target (whir_proof_fuzz.cc) and the seeded-corpus gtest
// (tests/whir/whir_proof_fuzz_test.cpp), so both exercise exactly the same code.
//
// Contract checked here: a malformed file is refused with zkgpu::Error (and nothing else), a file
// that parses has a valid configuration, re-encodes to exactly its own bytes (the format has one
// encoding per proof), and gets a verdict from verify() without throwing. A broken invariant
// throws std::logic_error, which libFuzzer reports as a crash and the gtest as a failure.
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>

#include "zkgpu/status.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::fuzz {

enum class WhirVerdict { Unparsable, Rejected, Accepted };

inline WhirVerdict whir_proof_one_input(std::span<const uint8_t> bytes) {
  whir::ProofFile pf;
  try {
    pf = whir::read_proof_file(bytes);
  } catch (const Error&) {
    return WhirVerdict::Unparsable;
  }
  // The parser derived these parameters already; a throw here would mean it let bad ones through.
  whir::WhirConfig cfg;
  try {
    cfg = whir::WhirConfig::derive(pf.params);
  } catch (const Error& e) {
    throw std::logic_error(std::string("read_proof_file accepted parameters that derive() rejects: ") + e.what());
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

}  // namespace zkgpu::fuzz
