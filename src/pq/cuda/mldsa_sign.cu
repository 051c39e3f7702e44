// ML-DSA signing (Sign_internal from mu, FIPS 204 Algorithm 7) on the GPU as a loop of kernels
// over the items still looking for an accepted attempt. Each step runs at the grain that suits it:
// the SHAKE streams (ExpandA's k*l entries, ExpandMask's l polynomials) one thread per stream, the
// challenge hash and SampleInBall one thread per item, the NTT work one warp per item with the
// polynomials of the step in shared memory. Between steps the per-item state (A, the NTT forms of
// s1, s2, t0, y, w0, w1) lives in device memory. All arithmetic is the core's (the functions
// sign_mu calls), and every decision is the CPU's, so signatures are byte-identical to it.
#include <algorithm>

#include "core/mldsa/dsa.hpp"
#include "pq/cuda/mldsa_msg.cuh"
#include "pq/cuda/mldsa_warp.cuh"
#include "pq/cuda/pq_pipeline.cuh"
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
  const mldsa_msg::MsgMeta* meta;  // where each item's context and message lie in blob
  const uint8_t* blob;
  uint8_t* mu;         // 64, computed by the setup kernel
  const uint8_t* rnd;  // 32 (zeros: deterministic signing)
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

// Device scratch of a chunk of n items: the SignState arrays that are neither input nor output.
template <class P>
struct SignScratch {
  size_t n;
  size_t at(int piece) const {  // pieces: mu A s1h s2h t0h y w0 w1 w1p c ctilde rhopp kappa active next count
    const size_t sizes[] = {64, 4 * N * P::K * P::L, 4 * N * P::L, 4 * N * P::K, 4 * N * P::K, 4 * N * P::L,
                            4 * N * P::K, N * P::K, W1P_BYTES<P>, N, P::CTILDE_BYTES, 64, 4, 4, 4, 0};
    size_t off = 0;
    for (int q = 0; q < piece; ++q) off += align64(n * sizes[q]);
    return off;
  }
  size_t bytes() const { return at(15) + 64; }  // + the two counters
};
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
  uint8_t* mu = st.mu + item * 64;
  mldsa_msg::item_mu(mu, sk + SK::TR, st.meta[item], st.blob);
  keccak::Sponge h = keccak::shake256();
  h.absorb(sk + SK::KEY, 32);
  h.absorb(st.rnd + item * 32, 32);
  h.absorb(mu, 64);
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

// The counters after an attempt: the rejected items are the next attempt's active ones.
__global__ void sign_advance_kernel(uint32_t* count) {
  count[0] = count[1];
  count[1] = 0;
}

constexpr int BLIND_ATTEMPTS = 4;  // attempts enqueued between two reads of the active count

// Signs the n items of a chunk on stream `st`: setup, ExpandA, then attempts until every item is
// accepted or has given up. The kernels skip the indices beyond the device-side active count, so
// the host enqueues BLIND_ATTEMPTS attempts sized by the last count it read, then reads it again.
template <class P>
void sign_chunk(SignState<P> st, size_t n, cudaStream_t stream, Trace& trace) {
  ZKGPU_CUDA_CHECK(cudaMemsetAsync(st.count, 0, 2 * sizeof(uint32_t), stream));
  sign_setup_kernel<P><<<unsigned((n + SIGN_WARPS - 1) / SIGN_WARPS), 32 * SIGN_WARPS, 0, stream>>>(n, st);
  ZKGPU_CUDA_CHECK_LAUNCH();
  const size_t streams = n * P::K * P::L;
  sign_expand_a_kernel<P><<<unsigned((streams + ITEM_THREADS - 1) / ITEM_THREADS), ITEM_THREADS, 0, stream>>>(n, st);
  ZKGPU_CUDA_CHECK_LAUNCH();
  trace.mark("setup+expandA");
  size_t bound = n;  // the active count never grows
  while (bound > 0) {
    const unsigned warp_blocks = unsigned((bound + SIGN_WARPS - 1) / SIGN_WARPS);
    const unsigned item_blocks = unsigned((bound + ITEM_THREADS - 1) / ITEM_THREADS);
    for (int a = 0; a < BLIND_ATTEMPTS; ++a) {
      sign_mask_kernel<P><<<unsigned((bound * P::L + ITEM_THREADS - 1) / ITEM_THREADS), ITEM_THREADS, 0, stream>>>(st);
      sign_w_kernel<P><<<warp_blocks, 32 * SIGN_WARPS, 0, stream>>>(st);
      sign_challenge_kernel<P><<<item_blocks, ITEM_THREADS, 0, stream>>>(st);
      sign_z_kernel<P><<<warp_blocks, 32 * SIGN_WARPS, 0, stream>>>(st);
      sign_advance_kernel<<<1, 1, 0, stream>>>(st.count);
      ZKGPU_CUDA_CHECK_LAUNCH();
      std::swap(st.active, st.next);
    }
    uint32_t active = 0;
    ZKGPU_CUDA_CHECK(cudaMemcpyAsync(&active, st.count, sizeof active, cudaMemcpyDeviceToHost, stream));
    ZKGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
    bound = active;
  }
  trace.mark("attempts");
}

// Items per chunk: the per-item device state is about 70 KB (ML-DSA-65).
constexpr size_t SIGN_MIN_CHUNK = size_t(1) << 11, SIGN_MAX_CHUNK = size_t(1) << 14;

Pipeline& sign_pipeline() {  // never destroyed: its streams and pinned buffers live until exit
  static Pipeline* p = new Pipeline();
  return *p;
}

// Chunk layout in pinned host and device memory: sk | meta | rnd | blob; results: sig | ok.
template <class P>
struct SignLayout {
  size_t n = 0, blob = 0;
  size_t meta() const { return align64(n * P::SK_BYTES); }
  size_t rnd() const { return meta() + align64(n * sizeof(mldsa_msg::MsgMeta)); }
  size_t blob_at() const { return rnd() + align64(n * 32); }
  size_t bytes() const { return blob_at() + blob; }
  size_t ok() const { return align64(n * P::SIG_BYTES); }
  size_t out_bytes() const { return ok() + n; }
};

}  // namespace

void mldsa_sign_items(int level, std::span<const MlDsaSignItem> items, uint8_t* sigs, uint8_t* ok) {
  std::vector<uint32_t> todo;  // the items to sign, packed
  for (size_t i = 0; i < items.size(); ++i)
    if (ok[i]) todo.push_back(uint32_t(i));
  if (todo.empty()) return;
  mldsa_warp::with_level(level, [&]<class P>() {
    const size_t chunk = chunk_items(todo.size(), SIGN_MIN_CHUNK, SIGN_MAX_CHUNK);
    auto layout = [&](size_t first, size_t end) {
      SignLayout<P> lay{end - first};
      for (size_t j = first; j < end; ++j) lay.blob += mldsa_msg::blob_bytes(items[todo[j]]);
      return lay;
    };
    auto plan = [&](size_t first) {
      const size_t end = std::min(todo.size(), first + chunk);
      const SignLayout<P> lay = layout(first, end);
      return ChunkPlan{end, lay.bytes(), lay.out_bytes(), SignScratch<P>{lay.n}.bytes()};
    };
    auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
      const SignLayout<P> lay = layout(first, p.end);
      auto* meta = reinterpret_cast<mldsa_msg::MsgMeta*>(h + lay.meta());
      mldsa_msg::set_meta(meta, items, todo.data() + first, lay.n);
      const auto n = int64_t(lay.n);
#pragma omp parallel for schedule(static) if (n >= 1024)
      for (int64_t j = 0; j < n; ++j) {
        const MlDsaSignItem& it = items[todo[first + size_t(j)]];
        std::memcpy(h + j * P::SK_BYTES, it.sk.data(), P::SK_BYTES);
        uint8_t* r = h + lay.rnd() + j * 32;
        if (it.rnd.empty())
          std::memset(r, 0, 32);  // deterministic signing: rnd = 0^32
        else
          std::memcpy(r, it.rnd.data(), 32);
        mldsa_msg::copy_message(h + lay.blob_at(), meta[j], it);
      }
    };
    auto launch = [&](Slot& s, size_t first, const ChunkPlan& p) {
      const SignLayout<P> lay = layout(first, p.end);
      const SignScratch<P> sc{lay.n};
      const uint8_t* in = s.dev_in.data();
      uint8_t* x = s.dev_scratch.data();
      SignState<P> st{};
      st.sk = in;
      st.meta = reinterpret_cast<const mldsa_msg::MsgMeta*>(in + lay.meta());
      st.rnd = in + lay.rnd();
      st.blob = in + lay.blob_at();
      st.sig = s.dev_out.data();
      st.ok = s.dev_out.data() + lay.ok();
      st.mu = x + sc.at(0);
      st.A = reinterpret_cast<int32_t*>(x + sc.at(1));
      st.s1h = reinterpret_cast<int32_t*>(x + sc.at(2));
      st.s2h = reinterpret_cast<int32_t*>(x + sc.at(3));
      st.t0h = reinterpret_cast<int32_t*>(x + sc.at(4));
      st.y = reinterpret_cast<int32_t*>(x + sc.at(5));
      st.w0 = reinterpret_cast<int32_t*>(x + sc.at(6));
      st.w1 = x + sc.at(7);
      st.w1p = x + sc.at(8);
      st.c = reinterpret_cast<int8_t*>(x + sc.at(9));
      st.ctilde = x + sc.at(10);
      st.rhopp = x + sc.at(11);
      st.kappa = reinterpret_cast<uint32_t*>(x + sc.at(12));
      st.active = reinterpret_cast<uint32_t*>(x + sc.at(13));
      st.next = reinterpret_cast<uint32_t*>(x + sc.at(14));
      st.count = reinterpret_cast<uint32_t*>(x + sc.at(15));
      sign_chunk<P>(st, lay.n, s.stream, *s.trace);
    };
    auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
      const size_t n = p.end - first;
      const size_t ok_at = align64(n * P::SIG_BYTES);
#pragma omp parallel for schedule(static) if (n >= 1024)
      for (int64_t j = 0; j < int64_t(n); ++j) {
        const size_t i = todo[first + size_t(j)];
        ok[i] = h[ok_at + size_t(j)];
        std::memcpy(sigs + i * P::SIG_BYTES, h + size_t(j) * P::SIG_BYTES, P::SIG_BYTES);
      }
    };
    sign_pipeline().run("mldsa sign", todo.size(), plan, pack, launch, deliver);
  });
}

}  // namespace zkgpu::cuda
