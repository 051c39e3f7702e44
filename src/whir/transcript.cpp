#include "whir/transcript.hpp"

#include <algorithm>

#include "zkgpu/core/poseidon2/params.hpp"

namespace zkgpu::whir::detail {

const Poseidon2Params<16>& whir_poseidon2() {
  static const Poseidon2Params<16> p = poseidon2_params<16>(Poseidon2Constants::Whir);
  return p;
}

poly::EF opened_fibre_value(const MerkleOpening& o, bool ext, std::span<const poly::EF> rand) {
  if (!ext) return poly::evaluate(std::span<const BabyBear>(o.row), rand);
  std::vector<poly::EF> v(o.row.size() / 4);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = poly::EF{{o.row[4 * i], o.row[4 * i + 1], o.row[4 * i + 2], o.row[4 * i + 3]}};
  return poly::evaluate(std::span<const poly::EF>(v), rand);
}

DuplexChallenger start_transcript(const WhirConfig& cfg) {
  DuplexChallenger ch(whir_poseidon2(), AbsorbRule::Overwrite090b);
  const std::vector<BabyBear> pattern = domain_separator_pattern(cfg);
  ch.observe_slice(pattern);
  return ch;
}

void absorb_claims(DuplexChallenger& ch, std::span<const Claim> claims) {
  ch.observe(BabyBear::from_u64(claims.size()));
  for (const Claim& c : claims) {
    for (const BabyBear4& x : c.point) ch.observe(x);
    ch.observe(c.value);
  }
}

std::vector<size_t> stir_query_indices(DuplexChallenger& ch, unsigned log_domain, unsigned k, size_t t) {
  const unsigned b = log_domain - k;
  constexpr unsigned MAX_BITS = 20;  // min(F::bits() - 1, 20)
  std::vector<size_t> q;
  q.reserve(t);
  const size_t mask = (size_t(1) << b) - 1;
  if (t * b <= MAX_BITS) {
    uint32_t x = ch.sample_bits(static_cast<unsigned>(t * b));
    for (size_t i = 0; i < t; ++i) {
      q.push_back(x & mask);
      x = b < 32 ? x >> b : 0;
    }
  } else if (MAX_BITS / b >= 2) {
    const size_t per = MAX_BITS / b;
    for (size_t left = t; left > 0;) {
      const size_t batch = std::min(left, per);
      uint32_t x = ch.sample_bits(static_cast<unsigned>(batch * b));
      for (size_t i = 0; i < batch; ++i) {
        q.push_back(x & mask);
        x >>= b;
      }
      left -= batch;
    }
  } else {
    for (size_t i = 0; i < t; ++i) q.push_back(ch.sample_bits(b));
  }
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());
  return q;
}

}  // namespace zkgpu::whir::detail
