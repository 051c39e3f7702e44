// Transcript steps shared by the WHIR prover and verifier (spec §7).
#pragma once
#include <span>
#include <vector>

#include "whir/poly.hpp"
#include "zkgpu/challenger.hpp"
#include "zkgpu/whir.hpp"

namespace zkgpu::whir::detail {

// SmallRng(1) Poseidon2-16 constants, 090b overwrite absorb, with the domain separator absorbed.
DuplexChallenger start_transcript(const WhirConfig& cfg);

// zkgpu's deviation from 090b: bind the statement (number of claims, then each point's
// coordinates and value) after the commitment's OOD answers, before the first combination challenge.
void absorb_claims(DuplexChallenger& ch, std::span<const Claim> claims);

// get_challenge_stir_queries at 090b (spec §7.3): sorted and deduplicated indices below
// 2^(log_domain - k).
std::vector<size_t> stir_query_indices(DuplexChallenger& ch, unsigned log_domain, unsigned k, size_t num_queries);

const Poseidon2Params<16>& whir_poseidon2();

// One opened fibre folded at the round's randomness: the row's base elements, or its extension
// elements (four words each) when the committed table was over the extension, evaluated at `rand`.
// The prover's STIR answers and the verifier's check both take it from here, so they agree.
poly::EF opened_fibre_value(const MerkleOpening& o, bool ext, std::span<const poly::EF> rand);

}  // namespace zkgpu::whir::detail
