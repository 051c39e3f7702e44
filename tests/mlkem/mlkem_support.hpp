// One-item wrappers over the ML-KEM batch API with the length checks a caller of variable-length
// input makes (as the CLI does): nullopt means "rejected".
#pragma once
#include <optional>
#include <utility>
#include <vector>

#include "zkgpu/mlkem.hpp"

namespace zkgpu::test {

using Bytes = std::vector<uint8_t>;

inline std::optional<std::pair<Bytes, Bytes>> kem_keygen(MlKemSet set, const Bytes& seed) {
  if (seed.size() != MlKemSizes::seed) return std::nullopt;
  const auto sz = mlkem_sizes(set);
  Bytes ek(sz.ek), dk(sz.dk);
  mlkem_keygen_batch(set, seed, ek, dk, Backend::Cpu);
  return std::make_pair(ek, dk);
}

inline std::optional<std::pair<Bytes, Bytes>> kem_encaps(MlKemSet set, const Bytes& ek, const Bytes& m) {
  const auto sz = mlkem_sizes(set);
  if (ek.size() != sz.ek || m.size() != 32) return std::nullopt;
  Bytes c(sz.ct), k(32);
  PqStatus st;
  mlkem_encaps_batch(set, ek, m, c, k, {&st, 1}, Backend::Cpu);
  if (st != PqStatus::Ok) return std::nullopt;
  return std::make_pair(c, k);
}

inline std::optional<Bytes> kem_decaps(MlKemSet set, const Bytes& dk, const Bytes& c) {
  const auto sz = mlkem_sizes(set);
  if (dk.size() != sz.dk || c.size() != sz.ct) return std::nullopt;
  Bytes k(32);
  PqStatus st;
  mlkem_decaps_batch(set, dk, c, k, {&st, 1}, Backend::Cpu);
  if (st != PqStatus::Ok) return std::nullopt;
  return k;
}

}  // namespace zkgpu::test
