// ML-DSA signing (Sign_internal from mu, FIPS 204 Algorithm 7) on the GPU as a loop of kernels
// over the items still looking for an accepted attempt. Each step runs at the grain that suits it:
// the SHAKE streams (ExpandA's k*l entries, ExpandMask's l polynomials) one thread per stream, the
// challenge hash and SampleInBall one thread per item, the NTT work one warp per item with the
// polynomials of the step in shared memory. Between steps the per-item state (A, the NTT forms of
// s1, s2, t0, y, w0, w1) lives in device memory. All arithmetic is the core's (the functions
// sign_mu calls), and every decision is the CPU's, so signatures are byte-identical to it.
#include <algorithm>

#include "core/mldsa/dsa.hpp"
#include "pq/cuda/mldsa_warp.cuh"
#include "pq/cuda/pq_launch.cuh"
#include "pq/pq_cuda.hpp"

namespace zkgpu::cuda {

namespace {
using namespace pq_launch;
using mldsa::N;
using mldsa_warp::FULL_MASK;

constexpr int SIGN_WARPS = 4;       // items per block in the warp kernels
constexpr unsigned ITEM_THREADS = 128;  // block size of the thread-per-item and per-stream kernels

// The batch's device state, structure of arrays indexed by item (chunk-local index).
template <class P>
struct SignState {
  const uint8_t* sk;   // SK_BYTES per item
  const uint8_t* mu;   // 64
  const uint8_t* rnd;  // 32
  uint8_t* sig;        // SIG_BYTES
  uint8_t* ok;         // 1 = signed, 0 = malformed key or kappa limit reached
  int32_t* A;          // K*L polynomials, NTT domain
  int32_t* s1h;        // L, NTT domain
  int32_t* s2h;        // K, NTT domain
  int32_t* t0h;        // K, NTT domain
  int32_t* y;          // L: y of the attempt, then z
  int32_t* w0;         // K: LowBits of w
  uint8_t* w1;         // K*N: HighBits of w
  uint8_t* w1p;        // K*32*W1_BITS: w1Encode(w1)
  int8_t* c;           // N: SampleInBall(c~)
  uint8_t* ctilde;     // CTILDE_BYTES
  uint8_t* rhopp;      // 64: rho''
  uint32_t* kappa;
  uint32_t* count;     // [0] items in `active`, [1] items in `next`
  uint32_t* active;    // item indices of the current attempt
  uint32_t* next;      // items whose attempt was rejected
};

template <class P>
constexpr size_t W1P_BYTES = size_t(P::K) * 32 * P::W1_BITS;

// Device bytes per item of SignState (inputs and outputs included): what mldsa_sign allocates.
template <class P>
constexpr size_t sign_state_bytes() {
  return P::SK_BYTES + 64 + 32 + P::SIG_BYTES + 1 + 4 * N * (P::K * P::L + 2 * P::L + 3 * P::K) + P::K * N +
         W1P_BYTES<P> + N + P::CTILDE_BYTES + 64 + 3 * 4;  // ... rhopp, kappa, active, next
}

__device__ __forceinline__ int lane_id() { return int(threadIdx.x & 31); }

// Setup, one warp per item: skDecode of s1, s2, t0 with the range check of sign_mu, their NTTs,
// rho'' = H(K || rnd || mu), kappa = 0, and the item into the first active list if its key is
// well formed.
template <class P>
__global__ void __launch_bounds__(32 * SIGN_WARPS) sign_setup_kernel(size_t n, SignState<P> st) {
  using SK = mldsa::SkLayout<P>;
  __shared__ int32_t scratch[SIGN_WARPS][N];
  const int lane = lane_id(), warp = int(threadIdx.x >> 5);
  const size_t item = size_t(blockIdx.x) * SIGN_WARPS + warp;
  if (item >= n) return;
  const uint8_t* sk = st.sk + item * P::SK_BYTES;
  int32_t* a = scratch[warp];
  uint32_t bad = 0;
  for (int q = 0; q < P::L + 2 * P::K; ++q) {
    const uint8_t* src;
    int bits;
    int32_t offset;
    int32_t* dst;
    if (q < P::L) {
      src = sk + SK::S1 + q * P::ETA_BYTES, bits = P::ETA_BITS, offset = P::ETA;
      dst = st.s1h + (item * P::L + q) * N;
    } else if (q < P::L + P::K) {
      src = sk + SK::S2 + (q - P::L) * P::ETA_BYTES, bits = P::ETA_BITS, offset = P::ETA;
      dst = st.s2h + (item * P::K + q - P::L) * N;
    } else {
      src = sk + SK::T0 + (q - P::L - P::K) * P::T0_BYTES, bits = mldsa::D, offset = 1 << (mldsa::D - 1);
      dst = st.t0h + (item * P::K + q - P::L - P::K) * N;
    }
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      const int k = lane + 32 * t;
      const int32_t v = mldsa::unpack_coeff(src, k, bits, offset);
      if (q < P::L + P::K) bad |= uint32_t(v + P::ETA) >> 31;  // below -eta: outside skDecode's domain
      a[k] = v;
    }
    __syncwarp();
    mldsa_warp::ntt(a, lane);
#pragma unroll
    for (int t = 0; t < 8; ++t) dst[lane + 32 * t] = a[lane + 32 * t];
    __syncwarp();
  }
  bad = __any_sync(FULL_MASK, bad);
  if (lane != 0) return;
  st.ok[item] = 0;
  if (bad) return;
  keccak::Sponge h = keccak::shake256();
  h.absorb(sk + SK::KEY, 32);
  h.absorb(st.rnd + item * 32, 32);
  h.absorb(st.mu + item * 64, 64);
  h.squeeze(st.rhopp + item * 64, 64);
  st.kappa[item] = 0;
  st.active[atomicAdd(&st.count[0], 1u)] = uint32_t(item);
}

// ExpandA, one thread per entry A[i][j] (all items; a malformed key's matrix is simply unused).
template <class P>
__global__ void sign_expand_a_kernel(size_t n, SignState<P> st) {
  const size_t tid = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tid >= n * P::K * P::L) return;
  const size_t item = tid / (P::K * P::L);
  const int e = int(tid % (P::K * P::L)), i = e / P::L, j = e % P::L;
  int32_t* out = st.A + tid * N;  // (item * K + i) * L + j
  mldsa_warp::rej_ntt_poly(st.sk + item * P::SK_BYTES + mldsa::SkLayout<P>::RHO, uint8_t(j), uint8_t(i),
                           [&](int k, int32_t v) { out[k] = v; });
}

// ExpandMask for the current attempt: y_i = sample_mask(rho'', kappa + i), one thread per (item, i).
template <class P>
__global__ void sign_mask_kernel(SignState<P> st) {
  const size_t tid = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tid >= size_t(st.count[0]) * P::L) return;
  const uint32_t item = st.active[tid / P::L];
  const int i = int(tid % P::L);
  mldsa::Poly& y = *reinterpret_cast<mldsa::Poly*>(st.y + (size_t(item) * P::L + i) * N);
  mldsa::sample_mask(y, st.rhopp + size_t(item) * 64, uint16_t(st.kappa[item] + i), P::GAMMA1_BITS);
}

// w = NTT^-1(A NTT(y)), (w1, w0) = Decompose(w) and w1Encode(w1), one warp per item.
template <class P>
__global__ void __launch_bounds__(32 * SIGN_WARPS) sign_w_kernel(SignState<P> st) {
  __shared__ int32_t yh[SIGN_WARPS][P::L][N];
  __shared__ int32_t wrow[SIGN_WARPS][N];
  const int lane = lane_id(), warp = int(threadIdx.x >> 5);
  const size_t idx = size_t(blockIdx.x) * SIGN_WARPS + warp;
  if (idx >= st.count[0]) return;
  const size_t item = st.active[idx];
  for (int j = 0; j < P::L; ++j)
#pragma unroll
    for (int t = 0; t < 8; ++t) yh[warp][j][lane + 32 * t] = st.y[(item * P::L + j) * N + lane + 32 * t];
  __syncwarp();
  for (int j = 0; j < P::L; ++j) mldsa_warp::ntt(yh[warp][j], lane);
  int32_t* w = wrow[warp];
  for (int i = 0; i < P::K; ++i) {
    const int32_t* Ai = st.A + (item * P::K + i) * P::L * N;
#pragma unroll
    for (int t = 0; t < 8; ++t) {  // poly_pointwise_acc over j, then poly_reduce
      const int k = lane + 32 * t;
      int32_t acc = 0;
      for (int j = 0; j < P::L; ++j) acc += mldsa::montgomery_reduce(int64_t(Ai[j * N + k]) * yh[warp][j][k]);
      w[k] = mldsa::reduce32(acc);
    }
    __syncwarp();
    mldsa_warp::invntt_tomont(w, lane);
    int32_t v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      const int k = 8 * lane + e;
      int32_t w0;
      v[e] = mldsa::decompose<P::GAMMA2>(w0, mldsa::caddq(w[k]));
      st.w0[(item * P::K + i) * N + k] = w0;
      st.w1[(item * P::K + i) * N + k] = uint8_t(v[e]);
    }
    mldsa::pack_simple8(st.w1p + item * W1P_BYTES<P> + i * 32 * P::W1_BITS + lane * P::W1_BITS, v, P::W1_BITS);
    __syncwarp();  // w is rewritten for the next row
  }
}

// c~ = H(mu || w1Encode(w1)) and c = SampleInBall(c~), one thread per item.
template <class P>
__global__ void sign_challenge_kernel(SignState<P> st) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= st.count[0]) return;
  const size_t item = st.active[idx];
  uint8_t* ctilde = st.ctilde + item * P::CTILDE_BYTES;
  keccak::Sponge h = keccak::shake256();
  h.absorb(st.mu + item * 64, 64);
  h.absorb(st.w1p + item * W1P_BYTES<P>, W1P_BYTES<P>);
  h.squeeze(ctilde, P::CTILDE_BYTES);
  mldsa::Poly c;
  mldsa::sample_in_ball(c, ctilde, P::CTILDE_BYTES, P::TAU);
  for (int k = 0; k < N; ++k) st.c[item * N + k] = int8_t(c.c[k]);
}

// z = y + c s1, r0 = w0 - c s2, c t0, the four rejection tests and the hint, one warp per item.
// An accepted item packs its signature; a rejected one moves on to the next kappa in `next`.
template <class P>
__global__ void __launch_bounds__(32 * SIGN_WARPS) sign_z_kernel(SignState<P> st) {
  __shared__ int32_t ch[SIGN_WARPS][N];
  __shared__ int32_t tmp[SIGN_WARPS][N];
  __shared__ uint32_t hmask[SIGN_WARPS][P::K][8];
  const int lane = lane_id(), warp = int(threadIdx.x >> 5);
  const size_t idx = size_t(blockIdx.x) * SIGN_WARPS + warp;
  if (idx >= st.count[0]) return;
  const size_t item = st.active[idx];
  int32_t* c = ch[warp];
  int32_t* t = tmp[warp];
#pragma unroll
  for (int u = 0; u < 8; ++u) c[lane + 32 * u] = st.c[item * N + lane + 32 * u];
  __syncwarp();
  mldsa_warp::ntt(c, lane);
  uint32_t reject = 0;
  // t = NTT^-1(c * x) for a polynomial x in NTT form (poly_pointwise, invntt_tomont).
  auto c_times = [&](const int32_t* x) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const int k = lane + 32 * u;
      t[k] = mldsa::montgomery_reduce(int64_t(c[k]) * x[k]);
    }
    __syncwarp();
    mldsa_warp::invntt_tomont(t, lane);
  };
  for (int i = 0; i < P::L; ++i) {
    c_times(st.s1h + (item * P::L + i) * N);
    int32_t* y = st.y + (item * P::L + i) * N;
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const int k = lane + 32 * u;
      const int32_t z = mldsa::reduce32(t[k] + y[k]);
      reject |= mldsa::coeff_exceeds(z, P::GAMMA1 - P::BETA);
      y[k] = z;  // y is not needed again: the next attempt samples a new one
    }
    __syncwarp();
  }
  uint32_t hints = 0;
  for (int i = 0; i < P::K; ++i) {
    int32_t r0[8];
    c_times(st.s2h + (item * P::K + i) * N);
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const int k = lane + 32 * u;
      r0[u] = mldsa::reduce32(st.w0[(item * P::K + i) * N + k] - t[k]);
      reject |= mldsa::coeff_exceeds(r0[u], P::GAMMA2 - P::BETA);
    }
    __syncwarp();
    c_times(st.t0h + (item * P::K + i) * N);
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const int k = lane + 32 * u;
      const int32_t ct0 = mldsa::reduce32(t[k]);
      reject |= mldsa::coeff_exceeds(ct0, P::GAMMA2);
      const uint32_t hint = mldsa::make_hint<P::GAMMA2>(r0[u] + ct0, st.w1[(item * P::K + i) * N + k]);
      hints += hint;
      const uint32_t m = __ballot_sync(FULL_MASK, hint);  // coefficients 32u .. 32u+31
      if (lane == 0) hmask[warp][i][u] = m;
    }
    __syncwarp();
  }
  hints = __reduce_add_sync(FULL_MASK, hints);
  reject |= uint32_t(P::OMEGA - int32_t(hints)) >> 31;
  if (__any_sync(FULL_MASK, reject)) {
    if (lane == 0) {
      const uint32_t kappa = st.kappa[item] + P::L;
      st.kappa[item] = kappa;
      if (kappa + P::L <= uint32_t(mldsa::KAPPA_LIMIT)) st.next[atomicAdd(&st.count[1], 1u)] = uint32_t(item);
    }
    return;
  }
  // Accepted: sigEncode(c~, z, h) (pack_signature), the hint indices in increasing order.
  uint8_t* sig = st.sig + item * P::SIG_BYTES;
  for (int b = lane; b < P::CTILDE_BYTES; b += 32) sig[b] = st.ctilde[item * P::CTILDE_BYTES + b];
  uint8_t* zb = sig + P::CTILDE_BYTES;
  for (int i = 0; i < P::L; ++i)
    mldsa::pack_bits8(zb + i * P::Z_BYTES + lane * (P::GAMMA1_BITS + 1), st.y + (item * P::L + i) * N + 8 * lane,
                      P::GAMMA1_BITS + 1, P::GAMMA1);
  uint8_t* hb = zb + P::L * P::Z_BYTES;
  for (int b = lane; b < P::OMEGA + P::K; b += 32) hb[b] = 0;
  __syncwarp();
  uint32_t pos = 0;
  for (int i = 0; i < P::K; ++i) {
    for (int u = 0; u < 8; ++u) {
      const uint32_t m = hmask[warp][i][u];
      if ((m >> lane) & 1) hb[pos + __popc(m & ((1u << lane) - 1))] = uint8_t(32 * u + lane);
      pos += __popc(m);
    }
    if (lane == 0) hb[P::OMEGA + i] = uint8_t(pos);
  }
  if (lane == 0) st.ok[item] = 1;
}

// Signs items [0, n) of the device buffers: setup, ExpandA, then attempts until every item is
// accepted or has given up. One host round trip per attempt (the count of rejected items).
template <class P>
void sign_chunk(SignState<P> st, size_t n, Trace& trace) {
  ZKGPU_CUDA_CHECK(cudaMemset(st.count, 0, 2 * sizeof(uint32_t)));
  sign_setup_kernel<P><<<unsigned((n + SIGN_WARPS - 1) / SIGN_WARPS), 32 * SIGN_WARPS>>>(n, st);
  ZKGPU_CUDA_CHECK_LAUNCH();
  const size_t streams = n * P::K * P::L;
  sign_expand_a_kernel<P><<<unsigned((streams + ITEM_THREADS - 1) / ITEM_THREADS), ITEM_THREADS>>>(n, st);
  ZKGPU_CUDA_CHECK_LAUNCH();
  trace.mark("setup+expandA");
  uint32_t active = 0;
  ZKGPU_CUDA_CHECK(cudaMemcpy(&active, st.count, sizeof active, cudaMemcpyDeviceToHost));
  while (active > 0) {
    const unsigned warp_blocks = unsigned((active + SIGN_WARPS - 1) / SIGN_WARPS);
    sign_mask_kernel<P><<<unsigned((size_t(active) * P::L + ITEM_THREADS - 1) / ITEM_THREADS), ITEM_THREADS>>>(st);
    ZKGPU_CUDA_CHECK_LAUNCH();
    sign_w_kernel<P><<<warp_blocks, 32 * SIGN_WARPS>>>(st);
    ZKGPU_CUDA_CHECK_LAUNCH();
    sign_challenge_kernel<P><<<unsigned((active + ITEM_THREADS - 1) / ITEM_THREADS), ITEM_THREADS>>>(st);
    ZKGPU_CUDA_CHECK_LAUNCH();
    sign_z_kernel<P><<<warp_blocks, 32 * SIGN_WARPS>>>(st);
    ZKGPU_CUDA_CHECK_LAUNCH();
    uint32_t counts[2];
    ZKGPU_CUDA_CHECK(cudaMemcpy(counts, st.count, sizeof counts, cudaMemcpyDeviceToHost));
    active = counts[1];
    std::swap(st.active, st.next);
    const uint32_t reset[2] = {active, 0};
    ZKGPU_CUDA_CHECK(cudaMemcpy(st.count, reset, sizeof reset, cudaMemcpyHostToDevice));
  }
  trace.mark("attempts");
}

// Items per chunk: the per-item state is about 70 KB (ML-DSA-65), so a chunk of 2^15 items holds
// some 2.3 GB; larger batches run chunk after chunk on the same buffers.
constexpr size_t SIGN_CHUNK_ITEMS = size_t(1) << 15;

}  // namespace

void mldsa_sign(int level, size_t n, const uint8_t* sk, const uint8_t* mu, const uint8_t* rnd, uint8_t* sig, uint8_t* ok) {
  if (n == 0) return;
  mldsa_warp::with_level(level, [&]<class P>() {
    Trace trace("mldsa sign", n);
    const size_t chunk = std::min(n, SIGN_CHUNK_ITEMS);
    DeviceBuffer<uint8_t> mem(chunk * sign_state_bytes<P>() + 64 * 32);  // + alignment of 21 pieces, count
    uint8_t* next = mem.data();
    auto take = [&](size_t bytes) {  // 64-byte aligned pieces of one allocation
      uint8_t* p = next;
      next += (bytes + 63) / 64 * 64;
      return p;
    };
    SignState<P> st{};
    uint8_t* d_sk = take(chunk * P::SK_BYTES);
    uint8_t* d_mu = take(chunk * 64);
    uint8_t* d_rnd = take(chunk * 32);
    st.sk = d_sk, st.mu = d_mu, st.rnd = d_rnd;
    st.sig = take(chunk * P::SIG_BYTES);
    st.ok = take(chunk);
    st.A = reinterpret_cast<int32_t*>(take(chunk * 4 * N * P::K * P::L));
    st.s1h = reinterpret_cast<int32_t*>(take(chunk * 4 * N * P::L));
    st.s2h = reinterpret_cast<int32_t*>(take(chunk * 4 * N * P::K));
    st.t0h = reinterpret_cast<int32_t*>(take(chunk * 4 * N * P::K));
    st.y = reinterpret_cast<int32_t*>(take(chunk * 4 * N * P::L));
    st.w0 = reinterpret_cast<int32_t*>(take(chunk * 4 * N * P::K));
    st.w1 = take(chunk * N * P::K);
    st.w1p = take(chunk * W1P_BYTES<P>);
    st.c = reinterpret_cast<int8_t*>(take(chunk * N));
    st.ctilde = take(chunk * P::CTILDE_BYTES);
    st.rhopp = take(chunk * 64);
    st.kappa = reinterpret_cast<uint32_t*>(take(chunk * 4));
    st.count = reinterpret_cast<uint32_t*>(take(8));
    st.active = reinterpret_cast<uint32_t*>(take(chunk * 4));
    st.next = reinterpret_cast<uint32_t*>(take(chunk * 4));
    trace.mark("alloc");
    for (size_t first = 0; first < n; first += chunk) {
      const size_t m = std::min(chunk, n - first);
      ZKGPU_CUDA_CHECK(cudaMemcpy(d_sk, sk + first * P::SK_BYTES, m * P::SK_BYTES, cudaMemcpyHostToDevice));
      ZKGPU_CUDA_CHECK(cudaMemcpy(d_mu, mu + first * 64, m * 64, cudaMemcpyHostToDevice));
      ZKGPU_CUDA_CHECK(cudaMemcpy(d_rnd, rnd + first * 32, m * 32, cudaMemcpyHostToDevice));
      trace.mark("upload");
      sign_chunk<P>(st, m, trace);
      ZKGPU_CUDA_CHECK(cudaMemcpy(sig + first * P::SIG_BYTES, st.sig, m * P::SIG_BYTES, cudaMemcpyDeviceToHost));
      ZKGPU_CUDA_CHECK(cudaMemcpy(ok + first, st.ok, m, cudaMemcpyDeviceToHost));
      trace.mark("download");
    }
  });
}

}  // namespace zkgpu::cuda
