// ML-DSA key generation (one thread per item over src/core/mldsa) and verification (a warp per
// item for the bulk of the work, see below); signing is in mldsa_sign.cu. mu comes from the host.
#include "core/mldsa/dsa.hpp"
#include "pq/cuda/mldsa_warp.cuh"
#include "pq/cuda/pq_launch.cuh"
#include "pq/pq_cuda.hpp"

namespace zkgpu::cuda {

namespace {
using namespace pq_launch;
using mldsa::N;

template <class P>
__global__ void mldsa_keygen_kernel(size_t n, const uint8_t* seeds, uint8_t* pk, uint8_t* sk) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  mldsa::keygen<P>(pk + i * P::PK_BYTES, sk + i * P::SK_BYTES, seeds + i * 32);
}

// Verification in three kernels. The two sequential hashes of an item (SampleInBall before, the
// challenge hash of w1 after) run one thread per item; the bulk of the work (ExpandA's k*l SHAKE128
// streams, the NTTs, UseHint) runs one warp per item in between, with the item's polynomials in
// shared memory. Each kernel calls the core functions the CPU's verify_mu calls.

// 1. The hint encoding check (HintBitUnpack's canonical form) and c = SampleInBall(c~), as int8.
template <class P>
__global__ void verify_prepare_kernel(size_t n, const uint8_t* sig, int8_t* cball, uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint8_t* s = sig + i * P::SIG_BYTES;
  mldsa::Poly h[P::K];
  ok[i] = mldsa::unpack_hint<P>(h, s + P::CTILDE_BYTES + P::L * P::Z_BYTES) ? 1 : 0;
  mldsa::Poly c;
  mldsa::sample_in_ball(c, s, P::CTILDE_BYTES, P::TAU);
  for (int k = 0; k < N; ++k) cball[i * N + k] = int8_t(c.c[k]);
}

// Shared memory of one item in the warp kernel.
template <class P>
struct VerifyShared {
  int32_t z[P::L][N];  // z, then NTT(z)
  int32_t w[P::K][N];  // A NTT(z) accumulated, then w'_approx
  int32_t c[N];        // NTT(c)
  int32_t t[N];        // NTT(t1 * 2^d) of the current row
  uint32_t hint[N / 32];
};
constexpr int VERIFY_WARPS = 2;  // items per block; 2 x 17.4 KB of shared memory at most (ML-DSA-87)

// 2. The z norm check, w'_approx = NTT^-1(A NTT(z) - NTT(c) NTT(t1 * 2^d)), UseHint and w1Encode.
// Writes the packed w1 (k * 32 * W1_BITS bytes per item) and ok = the z check.
template <class P>
__global__ void __launch_bounds__(32 * VERIFY_WARPS)
    verify_core_kernel(size_t n, const uint8_t* pk, const uint8_t* sig, const int8_t* cball, const uint8_t* hint_ok,
                       uint8_t* w1, uint8_t* ok) {
  __shared__ VerifyShared<P> shared[VERIFY_WARPS];
  const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
  const size_t item = size_t(blockIdx.x) * VERIFY_WARPS + warp;
  if (item >= n) return;  // whole warps only
  if (!hint_ok[item]) {
    if (lane == 0) ok[item] = 0;
    return;
  }
  VerifyShared<P>& S = shared[warp];
  const uint8_t* p = pk + item * P::PK_BYTES;
  const uint8_t* zb = sig + item * P::SIG_BYTES + P::CTILDE_BYTES;
  const uint8_t* hb = zb + P::L * P::Z_BYTES;
  uint32_t bad = 0;
  for (int j = 0; j < P::L; ++j)
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      const int k = lane + 32 * t;
      const int32_t v = mldsa::unpack_coeff(zb + j * P::Z_BYTES, k, P::GAMMA1_BITS + 1, P::GAMMA1);
      bad |= mldsa::coeff_exceeds(v, P::GAMMA1 - P::BETA);
      S.z[j][k] = v;
    }
  if (__any_sync(mldsa_warp::FULL_MASK, bad)) {
    if (lane == 0) ok[item] = 0;
    return;
  }
#pragma unroll
  for (int t = 0; t < 8; ++t) {
    const int k = lane + 32 * t;
    S.c[k] = cball[item * N + k];
    for (int i = 0; i < P::K; ++i) S.w[i][k] = 0;
  }
  __syncwarp();
  for (int j = 0; j < P::L; ++j) mldsa_warp::ntt(S.z[j], lane);
  mldsa_warp::ntt(S.c, lane);
  // ExpandA: stream (i, j) per lane, each accepted entry multiplied into row i at once. Integer
  // addition is exact here (|sum| < l*q), so the order of the atomic adds does not matter.
  for (int s = lane; s < P::K * P::L; s += 32) {
    const int i = s / P::L, j = s % P::L;
    mldsa_warp::rej_ntt_poly(p, uint8_t(j), uint8_t(i), [&](int k, int32_t a) {
      atomicAdd(&S.w[i][k], mldsa::montgomery_reduce(int64_t(a) * S.z[j][k]));
    });
  }
  __syncwarp();
  uint8_t* w1i = w1 + item * (P::K * 32 * P::W1_BITS);
  for (int i = 0; i < P::K; ++i) {
#pragma unroll
    for (int t = 0; t < 8; ++t) {  // t1 * 2^d, as unpack_simple then poly_shiftl
      const int k = lane + 32 * t;
      S.t[k] = -mldsa::unpack_coeff(p + 32 + i * P::T1_BYTES, k, 10, 0) * (1 << mldsa::D);
    }
    if (lane < N / 32) S.hint[lane] = 0;
    __syncwarp();
    mldsa_warp::ntt(S.t, lane);
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      const int k = lane + 32 * t;
      S.w[i][k] = mldsa::reduce32(S.w[i][k] - mldsa::montgomery_reduce(int64_t(S.c[k]) * S.t[k]));
    }
    // Row i's hint positions (validated by verify_prepare_kernel) as a 256-bit mask.
    const int start = i ? hb[P::OMEGA + i - 1] : 0, end = hb[P::OMEGA + i];
    for (int x = start + lane; x < end; x += 32) atomicOr(&S.hint[hb[x] >> 5], 1u << (hb[x] & 31));
    __syncwarp();
    mldsa_warp::invntt_tomont(S.w[i], lane);
    // Lane packs coefficients 8*lane .. 8*lane+7: W1_BITS bytes of the row's encoding.
    const uint32_t hbits = S.hint[lane >> 2] >> (8 * (lane & 3));
    int32_t v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e)
      v[e] = mldsa::use_hint<P::GAMMA2>(mldsa::caddq(S.w[i][8 * lane + e]), (hbits >> e) & 1);
    mldsa::pack_simple8(w1i + i * 32 * P::W1_BITS + lane * P::W1_BITS, v, P::W1_BITS);
    __syncwarp();  // S.t and S.hint are rewritten for the next row
  }
  if (lane == 0) ok[item] = 1;
}

// 3. c~' = H(mu || w1Encode(w1)) against c~ (Algorithm 8 lines 12-13).
template <class P>
__global__ void verify_finish_kernel(size_t n, const uint8_t* mu, const uint8_t* sig, const uint8_t* w1,
                                     const uint8_t* core_ok, uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (!core_ok[i]) {
    ok[i] = 0;
    return;
  }
  keccak::Sponge h = keccak::shake256();
  h.absorb(mu + i * 64, 64);
  h.absorb(w1 + i * (P::K * 32 * P::W1_BITS), P::K * 32 * P::W1_BITS);
  uint8_t c2[P::CTILDE_BYTES];
  h.squeeze(c2, sizeof c2);
  ok[i] = pq::ct_differ(c2, sig + i * P::SIG_BYTES, sizeof c2) == 0 ? 1 : 0;
}

using mldsa_warp::with_level;

}  // namespace

void mldsa_keygen(int level, size_t n, const uint8_t* seeds, uint8_t* pk, uint8_t* sk) {
  if (n == 0) return;
  with_level(level, [&]<class P>() {
    Io s = in(seeds, n * 32), p = out(pk, n * P::PK_BYTES), k = out(sk, n * P::SK_BYTES);
    mldsa_keygen_kernel<P><<<blocks_for(n), PQ_THREADS>>>(n, s.dev.data(), p.dev.data(), k.dev.data());
    finish();
    fetch(p);
    fetch(k);
  });
}

void mldsa_verify(int level, size_t n, const uint8_t* pk, const uint8_t* mu, const uint8_t* sig, uint8_t* ok) {
  if (n == 0) return;
  with_level(level, [&]<class P>() {
    Trace trace("mldsa verify", n);
    Io p = in(pk, n * P::PK_BYTES), u = in(mu, n * 64), s = in(sig, n * P::SIG_BYTES), o = out(ok, n);
    DeviceBuffer<uint8_t> cball(n * N), hint_ok(n), core_ok(n), w1(n * P::K * 32 * P::W1_BITS);
    trace.mark("alloc+upload");
    constexpr unsigned T = 128;
    const unsigned item_blocks = unsigned((n + T - 1) / T);
    verify_prepare_kernel<P><<<item_blocks, T>>>(n, s.dev.data(), reinterpret_cast<int8_t*>(cball.data()),
                                                 hint_ok.data());
    ZKGPU_CUDA_CHECK_LAUNCH();
    trace.mark("prepare");
    verify_core_kernel<P><<<unsigned((n + VERIFY_WARPS - 1) / VERIFY_WARPS), 32 * VERIFY_WARPS>>>(
        n, p.dev.data(), s.dev.data(), reinterpret_cast<const int8_t*>(cball.data()), hint_ok.data(), w1.data(),
        core_ok.data());
    ZKGPU_CUDA_CHECK_LAUNCH();
    trace.mark("core");
    verify_finish_kernel<P><<<item_blocks, T>>>(n, u.dev.data(), s.dev.data(), w1.data(), core_ok.data(), o.dev.data());
    ZKGPU_CUDA_CHECK_LAUNCH();
    trace.mark("finish");
    finish();
    fetch(o);
    trace.mark("download");
  });
}

}  // namespace zkgpu::cuda
