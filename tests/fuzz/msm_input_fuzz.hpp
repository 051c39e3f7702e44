// One fuzz input for the untrusted BLS12-377 decoders: the `msm run` line parser and the
// arkworks point deserializers. Invariants: no crash; an accepted line re-prints to an equal
// point; an accepted compressed encoding re-serialises to the same bytes. Shared by the libFuzzer
// target (msm_input_fuzz.cc) and the gtest that runs it over random inputs.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "msm/msm_line.hpp"
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
    if (!p.on_curve() || !Fr::is_canonical(s)) std::abort();
    if (!p.infinity) {
      G1Affine q;
      Scalar t;
      if (!parse_msm_line(to_hex(p.x) + ":" + to_hex(p.y) + ":" + to_hex(s), q, t, err) || !(q == p) || !(t == s))
        std::abort();
    }
  } else if (err.empty()) {
    std::abort();  // a rejection must say why
  }
  if (data.size() >= G1_COMPRESSED_BYTES) {
    G1Affine q;
    auto in = data.first<G1_COMPRESSED_BYTES>();
    if (deserialize_compressed(in, q, err)) {
      ++accepted;
      auto again = serialize_compressed(q);
      for (size_t i = 0; i < again.size(); ++i)
        if (again[i] != in[i]) std::abort();
    }
  }
  if (data.size() >= G1_UNCOMPRESSED_BYTES) {
    G1Affine q;
    if (deserialize_uncompressed(data.first<G1_UNCOMPRESSED_BYTES>(), q, err)) {
      ++accepted;
      if (!in_subgroup(q) || !q.on_curve()) std::abort();
    }
  }
  return accepted;
}

}  // namespace zkgpu::fuzz
