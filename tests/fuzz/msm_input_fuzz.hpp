// One fuzz input for the untrusted BLS12-377 decoders: the `msm run` line parser and the
// arkworks point deserializers. Invariants: no crash; an accepted line re-prints to an equal
// point; an accepted compressed encoding re-serialises to the same bytes. Shared by the libFuzzer
// target (msm_input_fuzz.cc), the gtest that runs it over random inputs and the corpus gtest. A
// broken invariant throws std::logic_error (fuzz_support.hpp).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "io/msm_line.hpp"
#include "zkgpu/bls12_377.hpp"

namespace zkgpu::fuzz {

inline int msm_input_one(std::span<const uint8_t> data) {
  using namespace zkgpu::bls12_377;
  std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
  G1Affine p;
  Scalar s;
  std::string err;
  int accepted = 0;
  if (parse_msm_line(text, p, s, err)) {
    ++accepted;
    check(p.on_curve() && Fr::is_canonical(s), "parse_msm_line accepted a point off the curve or a scalar >= r");
    if (!p.infinity) {
      G1Affine q;
      Scalar t;
      check(parse_msm_line(to_hex(p.x) + ":" + to_hex(p.y) + ":" + to_hex(s), q, t, err) && q == p && t == s,
            "an accepted msm line does not re-print to an equal point and scalar");
    }
  } else {
    check(!err.empty(), "parse_msm_line rejected a line without a reason");
  }
  if (data.size() >= G1_COMPRESSED_BYTES) {
    G1Affine q;
    auto in = data.first<G1_COMPRESSED_BYTES>();
    if (deserialize_compressed(in, q, err)) {
      ++accepted;
      auto again = serialize_compressed(q);
      check(std::equal(again.begin(), again.end(), in.begin()),
            "a compressed point does not re-serialise to its bytes");
    }
  }
  if (data.size() >= G1_UNCOMPRESSED_BYTES) {
    G1Affine q;
    if (deserialize_uncompressed(data.first<G1_UNCOMPRESSED_BYTES>(), q, err)) {
      ++accepted;
      check(in_subgroup(q) && q.on_curve(), "deserialize_uncompressed accepted a point outside G1");
    }
  }
  return accepted;
}

}  // namespace zkgpu::fuzz
