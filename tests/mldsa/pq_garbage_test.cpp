// Random bytes of the right lengths never crash or hang the decoders: ML-KEM encaps/decaps and
// ML-DSA sign/verify answer with a status (or 0), and sign never loops on a malformed key.
#include <gtest/gtest.h>

#include "support/test_support.hpp"
#include "zkgpu/mldsa.hpp"
#include "zkgpu/mlkem.hpp"

namespace zkgpu::test {
namespace {

using Bytes = std::vector<uint8_t>;

TEST(PqGarbage, MlKemRandomKeysAndCiphertexts) {
  Rng rng(77);
  for (MlKemSet set : {MlKemSet::MlKem512, MlKemSet::MlKem768, MlKemSet::MlKem1024}) {
    const auto sz = mlkem_sizes(set);
    const size_t n = 32;
    const Bytes ek = rng.bytes(n * sz.ek), dk = rng.bytes(n * sz.dk), c = rng.bytes(n * sz.ct), m = rng.bytes(n * 32);
    Bytes out_c(n * sz.ct), k(n * 32);
    std::vector<PqStatus> st(n);
    mlkem_encaps_batch(set, ek, m, out_c, k, st, Backend::Cpu);
    for (auto s : st) EXPECT_EQ(s, PqStatus::InvalidInput);  // a random ek has values >= q
    mlkem_decaps_batch(set, dk, c, k, st, Backend::Cpu);
    for (auto s : st) EXPECT_EQ(s, PqStatus::InvalidInput);  // its stored H(ek) does not match
  }
}

TEST(PqGarbage, MlDsaRandomKeysAndSignatures) {
  Rng rng(78);
  for (MlDsaSet set : {MlDsaSet::MlDsa44, MlDsaSet::MlDsa65, MlDsaSet::MlDsa87}) {
    const auto sz = mldsa_sizes(set);
    const size_t n = 16;
    std::vector<Bytes> keep;
    keep.reserve(4 * n);
    std::vector<MlDsaSignItem> sign;
    std::vector<MlDsaVerifyItem> verify;
    for (size_t i = 0; i < n; ++i) {
      keep.push_back(rng.bytes(sz.sk));
      const Bytes& sk = keep.back();
      keep.push_back(rng.bytes(sz.pk));
      const Bytes& pk = keep.back();
      keep.push_back(rng.bytes(sz.sig));
      const Bytes& sig = keep.back();
      keep.push_back(rng.bytes(40));
      sign.push_back({sk, keep.back(), {}, {}, false});
      verify.push_back({pk, keep.back(), {}, sig, false});
    }
    Bytes sigs(n * sz.sig);
    std::vector<PqStatus> st(n);
    mldsa_sign_batch(set, sign, sigs, st, Backend::Cpu);  // must return: out-of-range keys are rejected
    std::vector<uint8_t> ok(n, 7);
    mldsa_verify_batch(set, verify, ok, Backend::Cpu);
    EXPECT_EQ(ok, std::vector<uint8_t>(n, 0));
  }
}

}  // namespace
}  // namespace zkgpu::test
