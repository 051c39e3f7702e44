// The ML-DSA device-pointer calls (zkgpu/mldsa.hpp *_device) on a GPU: on the caller's
// non-blocking stream they give the CPU backend's keys, signatures, statuses and verdicts on fresh
// random inputs of several sizes (malformed keys, contexts, external mu and every way a signature
// can fail mixed in), into poisoned outputs; offsets the device rejects reject their items alone;
// a small budget splits a call into chunks with the same verdicts; host memory, overlaps and
// misaligned offsets are Error(InvalidArgument). Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "zkgpu/backend.hpp"
#include "zkgpu/core/mldsa/dsa.hpp"
#include "zkgpu/mldsa.hpp"
#if ZKGPU_HAVE_CUDA
#include "pq/device_support.hpp"
#endif

namespace zkgpu::test {
namespace {

#if ZKGPU_HAVE_CUDA

class MlDsaDeviceGpu : public DeviceStreamTest {
 protected:
  MlDsaSet set() const { return *parse_mldsa_set(std::to_string(GetParam())); }
  MlDsaSizes sz() const { return mldsa_sizes(set()); }
};

// A batch of n keys (every 17th expanded key with an s1 coefficient out of range when `bad_keys`),
// messages of 0 to 300 bytes and contexts of 0 to 40 bytes (every 13th empty).
struct DsaInputs {
  Bytes seeds, pk, sk;
  std::vector<Bytes> msgs, ctxs, rnds;
};
DsaInputs dsa_inputs(MlDsaSet set, size_t n, Rng& rng, bool bad_keys) {
  const MlDsaSizes sz = mldsa_sizes(set);
  DsaInputs in{rng.bytes(n * 32), Bytes(n * sz.pk), Bytes(n * sz.sk), {}, {}, {}};
  mldsa_keygen_batch(set, in.seeds, in.pk, in.sk, Backend::Cpu);
  if (bad_keys)
    for (size_t i = 3; i < n; i += 17) in.sk[i * sz.sk + 128] = 0xff;
  for (size_t i = 0; i < n; ++i) {
    in.msgs.push_back(rng.bytes(rng.u32() % 301));
    in.ctxs.push_back(rng.bytes(i % 13 == 0 ? 0 : rng.u32() % 41));
    in.rnds.push_back(rng.bytes(32));
  }
  return in;
}

// The CPU's signatures and statuses of the batch (hedged with the rnds, or deterministic).
std::pair<Bytes, std::vector<PqStatus>> cpu_sign(MlDsaSet set, const DsaInputs& in, bool hedged) {
  const MlDsaSizes sz = mldsa_sizes(set);
  const size_t n = in.msgs.size();
  std::vector<MlDsaSignItem> items;
  for (size_t i = 0; i < n; ++i) {
    // A span of in.rnds[i] itself: `hedged ? in.rnds[i] : Bytes{}` would be a temporary copy that dies
    // before the CPU signs, so it would read freed memory as rnd.
    const std::span<const uint8_t> rnd = hedged ? std::span<const uint8_t>(in.rnds[i]) : std::span<const uint8_t>{};
    items.push_back({{&in.sk[i * sz.sk], sz.sk}, in.msgs[i], in.ctxs[i], rnd, false});
  }
  Bytes sigs(n * sz.sig);
  std::vector<PqStatus> st(n);
  mldsa_sign_batch(set, items, sigs, st, Backend::Cpu);
  return {sigs, st};
}

Bytes joined(const std::vector<Bytes>& v) { return Packed(v).bytes; }

TEST_P(MlDsaDeviceGpu, KeygenAndSignEqualCpu) {
  const MlDsaSizes sz = this->sz();
  Rng rng(GetParam() + 41);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  for (size_t n : sized<size_t>({1, 3, 64, 257, 1000}, {1, 3, 64, 257})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const DsaInputs in = dsa_inputs(set(), n, rng, true);
    Bytes pk_c(n * sz.pk), sk_c(n * sz.sk);
    mldsa_keygen_batch(set(), in.seeds, pk_c, sk_c, Backend::Cpu);
    const Dev<> seeds(in.seeds, s);
    Dev<> pk_g(n * sz.pk, 0xa5, s), sk_g(n * sz.sk, 0xa5, s);
    mldsa_keygen_batch_device(set(), seeds.p(), pk_g.p(), sk_g.p(), n, gs);
    EXPECT_EQ(first_bad_item(pk_g.read(s), pk_c, sz.pk), -1) << "pk";
    EXPECT_EQ(first_bad_item(sk_g.read(s), sk_c, sz.sk), -1) << "sk";

    const Dev<> sk(in.sk, s), rnds(joined(in.rnds), s);
    const Packed msgs(in.msgs), ctxs(in.ctxs);
    const DevMessages dm(msgs, &ctxs, s);
    for (bool hedged : {true, false}) {
      SCOPED_TRACE(hedged ? "hedged" : "deterministic");
      const auto [sig_c, st_c] = cpu_sign(set(), in, hedged);
      Dev<> sig_g(n * sz.sig, 0xa5, s), st_g(n, 0x77, s);
      const MlDsaPackedSignBatch b{sk.span(), hedged ? rnds.span() : std::span<const uint8_t>{}, dm.view()};
      mldsa_sign_batch_device(set(), b, sig_g.p(), reinterpret_cast<PqStatus*>(st_g.p()), gs);
      EXPECT_EQ(first_bad_item(sig_g.read(s), sig_c, sz.sig), -1) << "signature";
      const Bytes st = st_g.read(s);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(st[i], uint8_t(st_c[i])) << "status of item " << i;
        ASSERT_EQ(st_c[i] == PqStatus::Ok, i < 3 || (i - 3) % 17 != 0) << "item " << i;
      }
    }
  }
}

// Verification equals the CPU on honest signatures and on each way one can fail (c~, z out of
// range, a non-canonical hint, z changed in range, t1 changed, another context), with contexts
// and with external mu, into poisoned verdicts.
TEST_P(MlDsaDeviceGpu, VerifyEqualsCpu) {
  const MlDsaSizes sz = this->sz();
  const size_t ctilde = GetParam() == 44 ? 32 : GetParam() == 65 ? 48 : 64;
  const size_t omega = GetParam() == 44 ? 80 : GetParam() == 65 ? 55 : 75;
  Rng rng(GetParam() + 42);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  for (size_t n : sized<size_t>({1, 3, 64, 257, 1000}, {1, 3, 64, 257})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    DsaInputs in = dsa_inputs(set(), n, rng, false);
    auto [sig, st] = cpu_sign(set(), in, true);
    for (size_t i = 0; i < n; ++i) {
      uint8_t* g = &sig[i * sz.sig];
      switch (i % 7) {
        case 1: g[5] ^= 0x40; break;                                   // c~
        case 2: g[ctilde] = g[ctilde + 1] = g[ctilde + 2] = 0; break;  // z_0 = gamma1: out of range
        case 3: g[sz.sig - 1] = uint8_t(omega + 1); break;             // hint end index > omega
        case 4: g[ctilde + 100] ^= 0x01; break;                        // z changed, still in range
        case 5: in.pk[i * sz.pk + 40] ^= 0x08; break;                  // t1 changed
        case 6: in.ctxs[i].push_back(1); break;                        // another context
        default: break;                                                // honest
      }
    }
    std::vector<MlDsaVerifyItem> items;
    for (size_t i = 0; i < n; ++i)
      items.push_back({{&in.pk[i * sz.pk], sz.pk}, in.msgs[i], in.ctxs[i], {&sig[i * sz.sig], sz.sig}, false});
    Bytes ok_c(n);
    mldsa_verify_batch(set(), items, ok_c, Backend::Cpu);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(ok_c[i], i % 7 == 0 ? 1 : 0) << "item " << i;
    const Dev<> pk(in.pk, s), sigs(sig, s);
    const Packed msgs(in.msgs), ctxs(in.ctxs);
    const DevMessages dm(msgs, &ctxs, s);
    Dev<> ok_g(n, 7, s);
    mldsa_verify_batch_device(set(), {pk.span(), sigs.span(), dm.view()}, ok_g.p(), gs);
    EXPECT_EQ(ok_g.read(s), ok_c);

    // External mu: mu computed as the signer did; contexts are ignored.
    std::vector<Bytes> mus(n, Bytes(64));
    for (size_t i = 0; i < n; ++i) {
      uint8_t tr[64];
      keccak::shake256(tr, 64, &in.pk[i * sz.pk], sz.pk);
      mldsa::compute_mu(mus[i].data(), tr, in.ctxs[i].data(), uint8_t(in.ctxs[i].size()), in.msgs[i].data(),
                        in.msgs[i].size());
      items[i].msg = mus[i];
      items[i].external_mu = true;
    }
    mldsa_verify_batch(set(), items, ok_c, Backend::Cpu);
    const Packed pm(mus);
    const DevMessages dmu(pm, &ctxs, s);
    Dev<> ok_m(n, 7, s);
    mldsa_verify_batch_device(set(), {pk.span(), sigs.span(), dmu.view(true)}, ok_m.p(), gs);
    EXPECT_EQ(ok_m.read(s), ok_c) << "external mu";
  }
}

// Offsets the device rejects reject exactly their items: a range past the end of the messages
// (items 2 and 3 share the broken offset), a context of 256 bytes (the CPU rejects it too), and with
// external mu a message of 63 bytes; the other items keep the CPU's results.
TEST_P(MlDsaDeviceGpu, BadOffsetsRejectTheirItemsAlone) {
  const MlDsaSizes sz = this->sz();
  Rng rng(GetParam() + 43);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  const size_t n = 9;
  DsaInputs in = dsa_inputs(set(), n, rng, false);
  in.ctxs[6] = rng.bytes(256);
  const auto [sig_c, st_c] = cpu_sign(set(), in, true);
  Packed msgs(in.msgs);
  const Packed ctxs(in.ctxs);
  msgs.offsets[3] = msgs.bytes.size() + 10;
  const Dev<> sk(in.sk, s), rnds(joined(in.rnds), s), pk(in.pk, s), sigs(sig_c, s);
  const DevMessages dm(msgs, &ctxs, s);
  Dev<> sig_g(n * sz.sig, 0xa5, s), st_g(n, 0x77, s), ok_g(n, 7, s);
  mldsa_sign_batch_device(set(), {sk.span(), rnds.span(), dm.view()}, sig_g.p(), reinterpret_cast<PqStatus*>(st_g.p()),
                          gs);
  mldsa_verify_batch_device(set(), {pk.span(), sigs.span(), dm.view()}, ok_g.p(), gs);
  const Bytes got = sig_g.read(s), st = st_g.read(s), ok = ok_g.read(s);
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE("item " + std::to_string(i));
    const Bytes one(got.begin() + i * sz.sig, got.begin() + (i + 1) * sz.sig);
    if (i == 2 || i == 3 || i == 6) {
      EXPECT_EQ(st[i], uint8_t(PqStatus::InvalidInput));
      EXPECT_EQ(one, Bytes(sz.sig, 0));
      EXPECT_EQ(ok[i], 0);
    } else {
      EXPECT_EQ(st[i], uint8_t(st_c[i]));
      EXPECT_EQ(one, Bytes(sig_c.begin() + i * sz.sig, sig_c.begin() + (i + 1) * sz.sig));
      EXPECT_EQ(ok[i], 1);
    }
  }
  EXPECT_EQ(st_c[6], PqStatus::InvalidInput) << "the CPU rejects a 256-byte context too";

  // External mu (the signer's) with one message of 63 bytes: that item alone is rejected.
  std::vector<Bytes> mus(n, Bytes(64));
  for (size_t i = 0; i < n; ++i) {
    uint8_t tr[64];
    keccak::shake256(tr, 64, &in.pk[i * sz.pk], sz.pk);
    mldsa::compute_mu(mus[i].data(), tr, in.ctxs[i].data(), uint8_t(in.ctxs[i].size()), in.msgs[i].data(),
                      in.msgs[i].size());
  }
  mus[4].pop_back();
  const Packed pm(mus);
  const DevMessages dmu(pm, nullptr, s);
  Dev<> ok_m(n, 7, s);
  mldsa_verify_batch_device(set(), {pk.span(), sigs.span(), dmu.view(true)}, ok_m.p(), gs);
  std::vector<MlDsaVerifyItem> items;
  for (size_t i = 0; i < n; ++i)
    items.push_back({{&in.pk[i * sz.pk], sz.pk}, mus[i], {}, {&sig_c[i * sz.sig], sz.sig}, true});
  Bytes ok_c(n);
  mldsa_verify_batch(set(), items, ok_c, Backend::Cpu);
  EXPECT_EQ(ok_m.read(s), ok_c);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(ok_c[i], i == 4 || i == 6 ? 0 : 1) << "external mu, item " << i;
}

// A budget of 1 MiB (signing: 4 MiB) splits verification and signing into several chunks on the
// stream with the unlimited calls' results; below one item's scratch it is Error(OutOfMemory).
TEST_P(MlDsaDeviceGpu, SmallBudgetGivesTheSameResultsInChunks) {
  const MlDsaSizes sz = this->sz();
  Rng rng(GetParam() + 44);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  const size_t n = sized<size_t>(3000, 1500);
  DsaInputs in = dsa_inputs(set(), n, rng, false);
  auto [sig, st] = cpu_sign(set(), in, false);
  for (size_t i = 0; i < n; i += 3) sig[i * sz.sig + 7] ^= 2;
  const Dev<> pk(in.pk, s), sigs(sig, s);
  const Packed msgs(in.msgs), ctxs(in.ctxs);
  const DevMessages dm(msgs, &ctxs, s);
  const MlDsaPackedVerifyBatch b{pk.span(), sigs.span(), dm.view()};
  Dev<> ok0(n, 7, s), ok1(n, 9, s);
  PhaseTimes t0, t1;
  mldsa_verify_batch_device(set(), b, ok0.p(), gs, {.phase_times = &t0});
  mldsa_verify_batch_device(set(), b, ok1.p(), gs, {.phase_times = &t1, .gpu_memory_budget = uint64_t{1} << 20});
  EXPECT_EQ(phase_count(t0, "finish"), 1u);
  EXPECT_GE(phase_count(t1, "finish"), 2u);
  const Bytes v0 = ok0.read(s);
  EXPECT_EQ(ok1.read(s), v0);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(v0[i], i % 3 == 0 ? 0 : 1) << "item " << i;
  EXPECT_EQ(error_code([&] { mldsa_verify_batch_device(set(), b, ok1.p(), gs, {.gpu_memory_budget = 1000}); },
                       "a budget of 1000 bytes"),
            ErrorCode::OutOfMemory);

  const size_t m = 300;  // signing: a warp's slot of device memory per item, 40-110 KB, so 4 MiB is 36-100 items
  const Dev<> sk(in.sk, s);
  const MlDsaPackedSignBatch sb{
      {sk.p(), m * sz.sk},
      {},
      {dm.msgs.span(), {dm.msg_off.p(), m + 1}, dm.ctxs.span(), {dm.ctx_off.p(), m + 1}, false}};
  Dev<> sig_g(m * sz.sig, 0xa5, s), st_g(m, 0x77, s);
  PhaseTimes ts;
  mldsa_sign_batch_device(set(), sb, sig_g.p(), reinterpret_cast<PqStatus*>(st_g.p()), gs,
                          {.phase_times = &ts, .gpu_memory_budget = uint64_t{4} << 20});
  const auto [sig_cpu, st_cpu] = [&] {
    DsaInputs head = in;
    head.msgs.resize(m), head.ctxs.resize(m), head.sk.resize(m * sz.sk);
    return cpu_sign(set(), head, false);
  }();
  EXPECT_EQ(first_bad_item(sig_g.read(s), sig_cpu, sz.sig), -1);
  EXPECT_GE(phase_count(ts, "sign"), 3u);
}

// Host memory, outputs overlapping inputs or each other, misaligned offsets, too few offsets and
// Backend::Cpu are refused before anything is enqueued; the device stays usable afterwards.
TEST_P(MlDsaDeviceGpu, RejectsBadBuffers) {
  const MlDsaSizes sz = this->sz();
  Rng rng(GetParam() + 45);
  const cuda::Stream& s = stream();
  const GpuStream gs = this->gs();
  const size_t n = 4;
  DsaInputs in = dsa_inputs(set(), n, rng, false);
  for (Bytes& c : in.ctxs) c.clear();  // the device batch below has no contexts
  const auto [sig, st] = cpu_sign(set(), in, false);
  const Dev<> pk(in.pk, s), sigs(sig, s), sk(in.sk, s);
  const Packed msgs(in.msgs);
  const DevMessages dm(msgs, nullptr, s);
  Dev<> ok(n + 8, 0, s), out(n * sz.sig, 0, s), stat(n, 0, s);
  auto* sp = reinterpret_cast<PqStatus*>(stat.p());
  MlDsaPackedVerifyBatch b{pk.span(), sigs.span(), dm.view()};
  Bytes host_ok(n);
  EXPECT_INVALID(mldsa_verify_batch_device(set(), b, host_ok.data(), gs), "host verdicts");
  EXPECT_INVALID(mldsa_verify_batch_device(set(), b, sigs.p() + 1, gs), "verdicts inside the signatures");
  EXPECT_INVALID(mldsa_verify_batch_device(set(), b, dm.msgs.p(), gs), "verdicts over the messages");
  MlDsaPackedVerifyBatch host = b;
  host.public_keys = in.pk;
  EXPECT_INVALID(mldsa_verify_batch_device(set(), host, ok.p(), gs), "host public keys");
  MlDsaPackedVerifyBatch mis = b;
  mis.messages.message_offsets = {
      reinterpret_cast<const uint64_t*>(reinterpret_cast<const uint8_t*>(dm.msg_off.p()) + 1), n + 1};
  EXPECT_INVALID(mldsa_verify_batch_device(set(), mis, ok.p(), gs), "misaligned offsets");
  MlDsaPackedVerifyBatch few = b;
  few.messages.message_offsets = few.messages.message_offsets.first(n);
  EXPECT_INVALID(mldsa_verify_batch_device(set(), few, ok.p(), gs), "n offsets");
  EXPECT_INVALID(mldsa_verify_batch_device(set(), b, ok.p(), gs, {.backend = Backend::Cpu}), "Backend::Cpu");
  const MlDsaPackedSignBatch sb{sk.span(), {}, dm.view()};
  EXPECT_INVALID(mldsa_sign_batch_device(set(), sb, out.p(), reinterpret_cast<PqStatus*>(out.p() + 8), gs),
                 "status inside the signatures");
  EXPECT_INVALID(mldsa_sign_batch_device(set(), sb, sk.p(), sp, gs), "signatures over the keys");
  mldsa_sign_batch_device(set(), sb, out.p(), sp, gs);
  EXPECT_EQ(out.read(s), sig);
  mldsa_verify_batch_device(set(), b, ok.p(), gs);
  const Bytes v = ok.read(s);
  EXPECT_EQ(Bytes(v.begin(), v.begin() + n), Bytes(n, 1));
}

INSTANTIATE_TEST_SUITE_P(AllSets, MlDsaDeviceGpu, ::testing::Values(44, 65, 87));

#endif  // ZKGPU_HAVE_CUDA

}  // namespace
}  // namespace zkgpu::test
