// Constant-time check of ML-KEM and ML-DSA under valgrind (the "ctgrind" method): secrets are
// marked undefined with VALGRIND_MAKE_MEM_UNDEFINED, and memcheck then reports every branch and
// every memory address that depends on them. Built with ZKGPU_CT_VALGRIND, so the values the
// standards make public (rho, c~, the rejection verdict, accepted signatures) are declassified
// by the library itself (pq::ct_declassify) and everything else must stay secret-independent.
// Run: valgrind --error-exitcode=1 zkgpu_ct_valgrind. With --leak it runs a deliberately leaky
// function instead, to show the harness does catch a secret-dependent branch.
#include <valgrind/memcheck.h>

#include <cstdio>
#include <cstring>

#include "zkgpu/core/mldsa/dsa.hpp"
#include "zkgpu/core/mlkem/kem.hpp"
#include "pq/cpu/mldsa_cpu.hpp"
#include "pq/cpu/mlkem_cpu.hpp"
#include "zkgpu/backend.hpp"

namespace {

using namespace zkgpu;

void secret(const void* p, size_t n) { VALGRIND_MAKE_MEM_UNDEFINED(p, n); }
void pub(const void* p, size_t n) { VALGRIND_MAKE_MEM_DEFINED(p, n); }

void fill(uint8_t* p, size_t n, uint8_t salt) {
  for (size_t i = 0; i < n; ++i) p[i] = uint8_t(i * 131 + salt * 17 + 7);
}

// One KeyGen / Encaps / Decaps (honest and implicit rejection) with the given building blocks:
// mlkem::PortableOps (what the CUDA kernels run) or the host backend's pq::cpu::MlKemOps.
template <int K, class Ops>
bool check_mlkem(const char* what) {
  using P = mlkem::Params<K>;
  static uint8_t seed[64], ek[P::ek_bytes], dk[P::dk_bytes], m[32], c[P::c_bytes], k1[32], k2[32];
  Ops ops;
  fill(seed, 64, K);
  fill(m, 32, K + 1);
  secret(seed, 64);
  mlkem::keygen_with<K>(ops, ek, dk, seed, seed + 32);
  pub(ek, sizeof ek);  // the encapsulation key is published
  secret(m, 32);
  const bool enc_ok = mlkem::encaps_with<K>(ops, c, k1, ek, m);
  pub(c, sizeof c);  // the ciphertext is sent in the clear
  secret(dk, sizeof dk);
  const bool dec_ok = mlkem::decaps_with<K>(ops, k2, dk, c);
  c[5] ^= 1;  // the implicit-rejection path
  uint8_t k3[32];
  const bool rej_ok = mlkem::decaps_with<K>(ops, k3, dk, c);
  pub(k1, 32);
  pub(k2, 32);
  pub(k3, 32);
  const bool ok = enc_ok && dec_ok && rej_ok && std::memcmp(k1, k2, 32) == 0 && std::memcmp(k1, k3, 32) != 0;
  std::printf("ML-KEM k=%d, %s: %s\n", K, what, ok ? "ok" : "WRONG RESULT");
  return ok;
}

template <int K>
bool check_mlkem_all() {
  bool ok = check_mlkem<K, mlkem::PortableOps>("portable");
  ok &= check_mlkem<K, pq::cpu::MlKemOps>(to_string(simd_level()));  // AVX2 where valgrind has it
  set_simd_level_cap(SimdLevel::Scalar);
  ok &= check_mlkem<K, pq::cpu::MlKemOps>("host scalar");
  set_simd_level_cap(std::nullopt);
  return ok;
}

// KeyGen, hedged and deterministic Sign, and Verify with the given samplers (see check_mlkem).
template <class P, class Ops>
bool check_mldsa(const char* name, const char* what) {
  static uint8_t xi[32], pk[P::PK_BYTES], sk[P::SK_BYTES], sig[P::SIG_BYTES], mu[64], rnd[32];
  fill(xi, 32, uint8_t(P::K));
  fill(rnd, 32, uint8_t(P::L));
  secret(xi, 32);
  static Ops ops;  // the host samplers hold about 80 KB
  mldsa::keygen_with<P>(ops, pk, sk, xi);
  pub(pk, sizeof pk);
  secret(sk, sizeof sk);
  pub(sk + mldsa::SkLayout<P>::TR, 64);  // tr = H(pk) is public
  const uint8_t msg[] = "constant-time check";
  mldsa::compute_mu(mu, sk + mldsa::SkLayout<P>::TR, nullptr, 0, msg, sizeof msg);
  secret(rnd, 32);
  bool ok = mldsa::sign_mu_with<P>(ops, sig, sk, mu, rnd);
  const uint8_t zero[32] = {};
  ok &= mldsa::sign_mu_with<P>(ops, sig, sk, mu, zero);  // deterministic signing
  pub(sig, sizeof sig);
  ok &= mldsa::verify_mu_with<P>(ops, pk, mu, sig);
  std::printf("%s, %s: %s\n", name, what, ok ? "ok" : "WRONG RESULT");
  return ok;
}

template <class P>
bool check_mldsa_all(const char* name) {
  bool ok = check_mldsa<P, mldsa::PortableOps>(name, "portable");
  ok &= check_mldsa<P, pq::cpu::MlDsaOps>(name, to_string(simd_level()));
  set_simd_level_cap(SimdLevel::Scalar);
  ok &= check_mldsa<P, pq::cpu::MlDsaOps>(name, "host scalar");
  set_simd_level_cap(std::nullopt);
  return ok;
}

// A comparison that stops at the first difference: memcheck must flag it.
__attribute__((noinline)) int leaky_compare(const uint8_t* a, const uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--leak") == 0) {
    uint8_t a[32], b[32];
    fill(a, 32, 1);
    fill(b, 32, 1);
    secret(a, 32);
    const int r = leaky_compare(a, b, 32);
    pub(&r, sizeof r);
    std::printf("leaky compare: %d\n", r);
    return 0;
  }
  bool ok = check_mlkem_all<2>() && check_mlkem_all<3>() && check_mlkem_all<4>();
  ok = ok && check_mldsa_all<mldsa::P44>("ML-DSA-44") && check_mldsa_all<mldsa::P65>("ML-DSA-65") &&
       check_mldsa_all<mldsa::P87>("ML-DSA-87");
  return ok ? 0 : 2;
}
