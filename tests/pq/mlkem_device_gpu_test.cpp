// The ML-KEM device-pointer calls (zkgpu/mlkem.hpp *_device) on a GPU: on the caller's
// non-blocking stream they give the CPU backend's bytes and statuses on fresh random inputs of
// several sizes (invalid keys and altered ciphertexts mixed in), into poisoned outputs, also when a
// small budget splits them into chunks; host memory, overlapping or misaligned buffers and
// Backend::Cpu are Error(InvalidArgument) before anything runs. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/mlkem.hpp"
#if ZKGPU_HAVE_CUDA
#include "pq/device_support.hpp"
#endif

namespace zkgpu::test {
namespace {

#if ZKGPU_HAVE_CUDA

class MlKemDeviceGpu : public DeviceStreamTest {
 protected:
  MlKemSet set() const { return *parse_mlkem_set(std::to_string(GetParam())); }
  MlKemSizes sz() const { return mlkem_sizes(set()); }
};

// Inputs of n items: keys from random seeds, every 7th ek with a coefficient >= q, every 11th dk
// with a wrong H(ek), and (after encapsulation) every 5th ciphertext with a flipped bit.
struct KemInputs {
  Bytes seeds, ek, dk, m;
};
KemInputs kem_inputs(MlKemSet set, size_t n, Rng& rng) {
  const MlKemSizes sz = mlkem_sizes(set);
  KemInputs in{rng.bytes(n * 64), Bytes(n * sz.ek), Bytes(n * sz.dk), rng.bytes(n * 32)};
  mlkem_keygen_batch(set, in.seeds, in.ek, in.dk, Backend::Cpu);
  for (size_t i = 0; i < n; i += 7) in.ek[i * sz.ek + 1] |= 0xf0, in.ek[i * sz.ek + 2] = 0xff;
  for (size_t i = 0; i < n; i += 11) in.dk[i * sz.dk + sz.dk - 40] ^= 1;
  return in;
}

TEST_P(MlKemDeviceGpu, KeygenEncapsDecapsEqualCpu) {
  const MlKemSizes sz = this->sz();
  Rng rng(GetParam() + 31);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  for (size_t n : sized<size_t>({1, 3, 64, 257, 1000}, {1, 3, 64, 257})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const KemInputs in = kem_inputs(set(), n, rng);
    // Key generation (from the seeds, before the keys were altered).
    Bytes ek_c(n * sz.ek), dk_c(n * sz.dk);
    mlkem_keygen_batch(set(), in.seeds, ek_c, dk_c, Backend::Cpu);
    const Dev<> seeds(in.seeds, s);
    Dev<> ek_g(n * sz.ek, 0xa5, s), dk_g(n * sz.dk, 0xa5, s);
    mlkem_keygen_batch_device(set(), seeds.p(), ek_g.p(), dk_g.p(), n, gs);
    EXPECT_EQ(first_bad_item(ek_g.read(s), ek_c, sz.ek), -1) << "ek";
    EXPECT_EQ(first_bad_item(dk_g.read(s), dk_c, sz.dk), -1) << "dk";

    // Encapsulation, invalid keys rejected with zeroed outputs as on the CPU.
    Bytes ct(n * sz.ct), key(n * 32);
    std::vector<PqStatus> st(n);
    mlkem_encaps_batch(set(), in.ek, in.m, ct, key, st, Backend::Cpu);
    const Dev<> ek(in.ek, s), m(in.m, s), dk(in.dk, s);
    Dev<> ct_g(n * sz.ct, 0xa5, s), key_g(n * 32, 0xa5, s), st_g(n, 0x77, s);
    mlkem_encaps_batch_device(set(), ek.p(), m.p(), ct_g.p(), key_g.p(), reinterpret_cast<PqStatus*>(st_g.p()), n, gs);
    EXPECT_EQ(first_bad_item(ct_g.read(s), ct, sz.ct), -1) << "ct";
    EXPECT_EQ(first_bad_item(key_g.read(s), key, 32), -1) << "encapsulated key";
    const Bytes st_bytes = st_g.read(s);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(st_bytes[i], uint8_t(st[i])) << "encaps status of item " << i;

    // Decapsulation of partly altered ciphertexts (implicit rejection) under partly bad keys.
    for (size_t i = 0; i < n; i += 5) ct[i * sz.ct + 3] ^= 0x10;
    Bytes dec(n * 32);
    mlkem_decaps_batch(set(), in.dk, ct, dec, st, Backend::Cpu);
    const Dev<> ct_in(ct, s);
    Dev<> dec_g(n * 32, 0xa5, s), dst_g(n, 0x77, s);
    mlkem_decaps_batch_device(set(), dk.p(), ct_in.p(), dec_g.p(), reinterpret_cast<PqStatus*>(dst_g.p()), n, gs);
    EXPECT_EQ(first_bad_item(dec_g.read(s), dec, 32), -1) << "decapsulated key";
    const Bytes dst = dst_g.read(s);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(dst[i], uint8_t(st[i])) << "decaps status of item " << i;
    EXPECT_EQ(ek.read(s), in.ek) << "an input changed";
  }
}

// Random encapsulation on the device: the CPU decapsulates every valid item to the device's key;
// invalid keys give InvalidInput and zeroed outputs.
TEST_P(MlKemDeviceGpu, RandomEncapsRoundTripsOnTheCpu) {
  const MlKemSizes sz = this->sz();
  Rng rng(GetParam() + 32);
  const cuda::Stream& s = stream();
  const size_t n = 100;
  KemInputs in = kem_inputs(set(), n, rng);
  mlkem_keygen_batch(set(), in.seeds, in.ek, in.dk, Backend::Cpu);  // honest dk
  for (size_t i = 0; i < n; i += 7) in.ek[i * sz.ek + 1] |= 0xf0, in.ek[i * sz.ek + 2] = 0xff;
  const Dev<> ek(in.ek, s);
  Dev<> ct_g(n * sz.ct, 0xa5, s), key_g(n * 32, 0xa5, s), st_g(n, 0x77, s);
  mlkem_encaps_random_batch_device(set(), ek.p(), ct_g.p(), key_g.p(), reinterpret_cast<PqStatus*>(st_g.p()), n, gs());
  const Bytes ct = ct_g.read(s), key = key_g.read(s), st = st_g.read(s);
  Bytes dec(n * 32);
  std::vector<PqStatus> dst(n);
  mlkem_decaps_batch(set(), in.dk, ct, dec, dst, Backend::Cpu);
  for (size_t i = 0; i < n; ++i) {
    const bool valid = i % 7 != 0;
    ASSERT_EQ(st[i], valid ? 0 : 1) << "item " << i;
    const Bytes k(key.begin() + i * 32, key.begin() + i * 32 + 32);
    if (valid)
      EXPECT_EQ(k, Bytes(dec.begin() + i * 32, dec.begin() + i * 32 + 32)) << "item " << i;
    else
      EXPECT_EQ(k, Bytes(32, 0)) << "item " << i;
  }
  EXPECT_NE(Bytes(key.begin() + 32, key.begin() + 64), Bytes(key.begin() + 64, key.begin() + 96)) << "fresh m";
}

// A budget of 2 MiB splits 2000 items into several chunks on the stream (the scratch is reused)
// with the unlimited call's bytes; phase times name each chunk's kernels; a budget below one
// item's scratch is Error(OutOfMemory) and the next call works.
TEST_P(MlKemDeviceGpu, SmallBudgetGivesTheSameBytesInChunks) {
  const MlKemSizes sz = this->sz();
  Rng rng(GetParam() + 33);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  const size_t n = 2000;
  const KemInputs in = kem_inputs(set(), n, rng);
  Bytes ct(n * sz.ct), key(n * 32), dec(n * 32);
  std::vector<PqStatus> st(n);
  mlkem_encaps_batch(set(), in.ek, in.m, ct, key, st, Backend::Cpu);
  mlkem_decaps_batch(set(), in.dk, ct, dec, st, Backend::Cpu);
  const Dev<> dk(in.dk, s), ct_in(ct, s);
  Dev<> dec_g(n * 32, 0xa5, s), st_g(n, 0x77, s);
  PhaseTimes t0, t1;
  auto* sg = reinterpret_cast<PqStatus*>(st_g.p());
  mlkem_decaps_batch_device(set(), dk.p(), ct_in.p(), dec_g.p(), sg, n, gs, {.phase_times = &t0});
  EXPECT_EQ(phase_count(t0, "final"), 1u);
  EXPECT_EQ(dec_g.read(s), dec);
  Dev<> dec2(n * 32, 0x5a, s);
  mlkem_decaps_batch_device(set(), dk.p(), ct_in.p(), dec2.p(), sg, n, gs,
                            {.phase_times = &t1, .gpu_memory_budget = uint64_t{2} << 20});
  EXPECT_GE(phase_count(t1, "final"), 3u);
  EXPECT_EQ(phase_count(t1, "status"), phase_count(t1, "final"));
  EXPECT_EQ(dec2.read(s), dec);
  const Bytes st_bytes = st_g.read(s);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(st_bytes[i], uint8_t(st[i])) << i;
  EXPECT_EQ(error_code(
                [&] {
                  mlkem_decaps_batch_device(set(), dk.p(), ct_in.p(), dec2.p(), sg, n, gs, {.gpu_memory_budget = 1000});
                },
                "a budget of 1000 bytes"),
            ErrorCode::OutOfMemory);
  mlkem_decaps_batch_device(set(), dk.p(), ct_in.p(), dec2.p(), sg, n, gs);
  EXPECT_EQ(dec2.read(s), dec);
}

// Host memory, outputs overlapping inputs or each other, misaligned buffers and Backend::Cpu are
// refused before anything is enqueued; the device stays usable afterwards.
TEST_P(MlKemDeviceGpu, RejectsBadBuffers) {
  const MlKemSizes sz = this->sz();
  Rng rng(GetParam() + 34);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  const size_t n = 8;
  const KemInputs in = kem_inputs(set(), n, rng);
  Bytes host_key(n * 32);
  const Dev<> dk(in.dk, s), ek(in.ek, s), m(in.m, s);
  Dev<> ct(n * sz.ct + 8, 0, s), key(n * 32 + 8, 0, s), st(n, 0, s);
  auto* sp = reinterpret_cast<PqStatus*>(st.p());
  EXPECT_INVALID(mlkem_decaps_batch_device(set(), in.dk.data(), ct.p(), key.p(), sp, n, gs), "a host dk");
  EXPECT_INVALID(mlkem_decaps_batch_device(set(), dk.p(), ct.p(), host_key.data(), sp, n, gs), "a host key");
  EXPECT_INVALID(mlkem_decaps_batch_device(set(), dk.p(), ct.p(), dk.p() + 64, sp, n, gs), "key inside dk");
  EXPECT_INVALID(
      mlkem_decaps_batch_device(set(), dk.p(), ct.p(), key.p(), reinterpret_cast<PqStatus*>(key.p() + 8), n, gs),
      "status inside key");
  EXPECT_INVALID(mlkem_encaps_batch_device(set(), ek.p(), m.p(), ct.p(), ct.p() + 8, sp, n, gs), "key inside ct");
  EXPECT_INVALID(mlkem_encaps_batch_device(set(), ek.p(), m.p(), ct.p() + 4, key.p(), sp, n, gs), "a misaligned ct");
  EXPECT_INVALID(mlkem_encaps_batch_device(set(), ek.p(), nullptr, ct.p(), key.p(), sp, n, gs), "a null m");
  EXPECT_INVALID(mlkem_keygen_batch_device(set(), dk.p(), dk.p() + 32, ct.p(), 1, gs), "ek over the seeds");
  EXPECT_INVALID(mlkem_encaps_random_batch_device(set(), ek.p(), ct.p(), key.p(), sp, n, gs, {.backend = Backend::Cpu}),
                 "Backend::Cpu");
  Bytes want_ct(n * sz.ct), want_key(n * 32);
  std::vector<PqStatus> want_st(n);
  mlkem_encaps_batch(set(), in.ek, in.m, want_ct, want_key, want_st, Backend::Cpu);
  mlkem_encaps_batch_device(set(), ek.p(), m.p(), ct.p(), key.p(), sp, n, gs);
  Bytes got = ct.read(s);
  got.resize(n * sz.ct);
  EXPECT_EQ(got, want_ct);
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlKemDeviceGpu, ::testing::Values(512, 768, 1024));

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu::test
