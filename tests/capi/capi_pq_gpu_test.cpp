// The C ABI's ML-KEM / ML-DSA device-pointer variants on a GPU: on the caller's non-blocking
// stream they give the host calls' bytes, statuses and verdicts (outputs poisoned first, bad items
// mixed in), and host memory is ZKGPU_INVALID_ARGUMENT. Every test skips without a usable GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "capi/capi_test_support.hpp"
#if ZKGPU_HAVE_CUDA
#include "pq/device_support.hpp"
#endif

namespace zkgpu::test {
namespace {

#if ZKGPU_HAVE_CUDA

constexpr auto CPU = ZKGPU_BACKEND_CPU;

TEST(CApiPqGpu, MlKemDeviceCallsEqualTheHostCalls) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(61);
  cuda::Stream s;
  const size_t n = 37;
  for (zkgpu_mlkem_set set : {ZKGPU_MLKEM_512, ZKGPU_MLKEM_768, ZKGPU_MLKEM_1024}) {
    zkgpu_mlkem_sizes sz;
    EXPECT_CAPI_OK(zkgpu_mlkem_sizes_of(set, &sz));
    const Bytes seeds = rng.bytes(n * 64), m = rng.bytes(n * 32);
    Bytes ek(n * sz.encapsulation_key), dk(n * sz.decapsulation_key);
    EXPECT_CAPI_OK(zkgpu_mlkem_keygen_batch(set, seeds.data(), n, CPU, ek.data(), dk.data()));
    const Dev<> d_seeds(seeds, s);
    Dev<> d_ek(ek.size(), 0xa5, s), d_dk(dk.size(), 0xa5, s);
    EXPECT_CAPI_OK(zkgpu_mlkem_keygen_batch_device(set, d_seeds.p(), n, d_ek.p(), d_dk.p(), s.get()));
    EXPECT_EQ(d_ek.read(s), ek);
    EXPECT_EQ(d_dk.read(s), dk);

    for (size_t b = 0; b < 3; ++b) ek[4 * sz.encapsulation_key + b] = 0xff;  // item 4: ek not reduced mod q
    dk[6 * sz.decapsulation_key + sz.decapsulation_key - 64] ^= 1;           // item 6: wrong H(ek)
    Bytes ct(n * sz.ciphertext), key(n * 32), st(n);
    EXPECT_CAPI_OK(zkgpu_mlkem_encaps_batch(set, ek.data(), m.data(), n, CPU, ct.data(), key.data(), st.data()));
    const Dev<> e(ek, s), mm(m, s), d(dk, s);
    Dev<> d_ct(ct.size(), 0xa5, s), d_key(key.size(), 0xa5, s), d_st(n, 0x77, s);
    EXPECT_CAPI_OK(zkgpu_mlkem_encaps_batch_device(set, e.p(), mm.p(), n, d_ct.p(), d_key.p(), d_st.p(), s.get()));
    EXPECT_EQ(d_ct.read(s), ct);
    EXPECT_EQ(d_key.read(s), key);
    EXPECT_EQ(d_st.read(s), st);
    Bytes dec(n * 32), dst(n);
    EXPECT_CAPI_OK(zkgpu_mlkem_decaps_batch(set, dk.data(), ct.data(), n, CPU, dec.data(), dst.data()));
    const Dev<> c(ct, s);
    Dev<> d_dec(dec.size(), 0xa5, s), d_dst(n, 0x77, s);
    EXPECT_CAPI_OK(zkgpu_mlkem_decaps_batch_device(set, d.p(), c.p(), n, d_dec.p(), d_dst.p(), s.get()));
    EXPECT_EQ(d_dec.read(s), dec);
    EXPECT_EQ(d_dst.read(s), dst);
    EXPECT_EQ(dst[6], ZKGPU_PQ_INVALID_INPUT);
    EXPECT_CAPI_OK(zkgpu_mlkem_encaps_random_batch_device(set, e.p(), n, d_ct.p(), d_key.p(), d_st.p(), s.get()));
    EXPECT_EQ(d_st.read(s), st);  // the same keys are valid
    EXPECT_CAPI_ERR(zkgpu_mlkem_decaps_batch_device(set, dk.data(), c.p(), n, d_dec.p(), d_dst.p(), s.get()),
                    ZKGPU_INVALID_ARGUMENT, "dk");
  }
}

TEST(CApiPqGpu, MlDsaDeviceCallsEqualTheHostCalls) {
  ZKGPU_REQUIRE_GPU();
  Rng rng(62);
  cuda::Stream s;
  const size_t n = 23;
  for (zkgpu_mldsa_set set : {ZKGPU_MLDSA_44, ZKGPU_MLDSA_65, ZKGPU_MLDSA_87}) {
    zkgpu_mldsa_sizes sz;
    EXPECT_CAPI_OK(zkgpu_mldsa_sizes_of(set, &sz));
    const Bytes seeds = rng.bytes(n * 32);
    Bytes pk(n * sz.public_key), sk(n * sz.secret_key);
    EXPECT_CAPI_OK(zkgpu_mldsa_keygen_batch(set, seeds.data(), n, CPU, pk.data(), sk.data()));
    const Dev<> d_seeds(seeds, s);
    Dev<> d_pk(pk.size(), 0xa5, s), d_sk(sk.size(), 0xa5, s);
    EXPECT_CAPI_OK(zkgpu_mldsa_keygen_batch_device(set, d_seeds.p(), n, d_pk.p(), d_sk.p(), s.get()));
    EXPECT_EQ(d_pk.read(s), pk);
    EXPECT_EQ(d_sk.read(s), sk);

    std::vector<Bytes> sks, pks, msgs, ctxs, rnds;
    for (size_t i = 0; i < n; ++i) {
      sks.emplace_back(sk.begin() + i * sz.secret_key, sk.begin() + (i + 1) * sz.secret_key);
      pks.emplace_back(pk.begin() + i * sz.public_key, pk.begin() + (i + 1) * sz.public_key);
      msgs.push_back(rng.bytes(i * 11));
      ctxs.push_back(rng.bytes(i % 4 * 20));
      rnds.push_back(rng.bytes(32));
    }
    const ByteArrays a(sks), b(msgs), c(ctxs), r(rnds);
    Bytes sig(n * sz.signature), st(n);
    EXPECT_CAPI_OK(zkgpu_mldsa_sign_batch(set, a.ptrs.data(), a.lens.data(), b.ptrs.data(), b.lens.data(),
                                          c.ptrs.data(), c.lens.data(), r.ptrs.data(), r.lens.data(), n, 0, CPU,
                                          sig.data(), st.data()));
    const Packed pm(msgs), pc(ctxs), pr(rnds);
    const DevMessages dm(pm, &pc, s);
    const Dev<> d_rnds(pr.bytes, s);
    Dev<> d_sig(sig.size(), 0xa5, s), d_st(n, 0x77, s);
    EXPECT_CAPI_OK(zkgpu_mldsa_sign_batch_device(set, d_sk.p(), dm.msgs.p(), dm.msg_off.p(), pm.bytes.size(),
                                                 dm.ctxs.p(), dm.ctx_off.p(), pc.bytes.size(), d_rnds.p(), n, 0,
                                                 d_sig.p(), d_st.p(), s.get()));
    EXPECT_EQ(d_sig.read(s), sig);
    EXPECT_EQ(d_st.read(s), st);

    for (size_t i = 0; i < n; i += 4) sig[i * sz.signature + 3] ^= 1;  // every 4th signature broken
    std::vector<Bytes> sigs;
    for (size_t i = 0; i < n; ++i)
      sigs.emplace_back(sig.begin() + i * sz.signature, sig.begin() + (i + 1) * sz.signature);
    const ByteArrays e(pks), f(sigs);
    Bytes ok(n);
    EXPECT_CAPI_OK(zkgpu_mldsa_verify_batch(set, e.ptrs.data(), e.lens.data(), b.ptrs.data(), b.lens.data(),
                                            c.ptrs.data(), c.lens.data(), f.ptrs.data(), f.lens.data(), n, 0, CPU,
                                            ok.data()));
    const Dev<> d_sigs(sig, s);
    Dev<> d_ok(n, 7, s);
    EXPECT_CAPI_OK(zkgpu_mldsa_verify_batch_device(set, d_pk.p(), d_sigs.p(), dm.msgs.p(), dm.msg_off.p(),
                                                   pm.bytes.size(), dm.ctxs.p(), dm.ctx_off.p(), pc.bytes.size(), n, 0,
                                                   d_ok.p(), s.get()));
    EXPECT_EQ(d_ok.read(s), ok);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(ok[i], i % 4 == 0 ? 0 : 1) << i;
    EXPECT_CAPI_ERR(zkgpu_mldsa_verify_batch_device(set, pk.data(), d_sigs.p(), dm.msgs.p(), dm.msg_off.p(),
                                                    pm.bytes.size(), nullptr, nullptr, 0, n, 0, d_ok.p(), s.get()),
                    ZKGPU_INVALID_ARGUMENT, "public_keys");
  }
}

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu::test
