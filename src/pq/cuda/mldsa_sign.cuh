// ML-DSA signing (Sign_internal from mu, FIPS 204 Algorithm 7) on the GPU: one persistent kernel
// per chunk in which each warp takes an item, signs it from the expanded key to the packed
// signature, and takes the next (an atomic counter), with no host round trip and no lists of
// active items. Inside an item the lanes split the work by grain:
// - skDecode, the NTTs, A*y, the products with c, Decompose / MakeHint and the packing: 8
//   coefficients per lane, the polynomial being worked on in registers (mldsa_regs: NTTs with two
//   shared-memory exchanges each), NTT(y), w1 and the twiddles in shared memory, the item's A,
//   the NTT forms of s1, s2, t0, w0 and the masks in the warp's slot of device memory;
// - ExpandA: its K*L SHAKE128 streams one per lane (state in registers);
// - ExpandMask: the masks of S = 32 / L consecutive attempts at once, one SHAKE256 stream per
//   lane (the masks are a function of rho'' and kappa alone, so computing those of later attempts
//   early changes nothing but wastes the ones after the accepted attempt);
// - mu, rho'', the challenge c~ and SampleInBall's XOF: one sponge spread over the warp
//   (WarpKeccak), SampleInBall's walk itself on lane 0.
// The arithmetic is the core's (the functions sign_mu calls) and every decision is the CPU's: all
// four rejection tests run on every attempt, as in sign_mu, so only the accept bit is revealed.
// Signatures are byte-identical to the CPU backend. The kernel; its drivers (the host pipeline's
// chunks and the device calls) are in mldsa_sign.cu.
#pragma once
#include <algorithm>
#include <cstdint>

#include "zkgpu/core/mldsa/dsa.hpp"
#include "pq/cuda/mldsa_msg.cuh"
#include "pq/cuda/mldsa_regs.cuh"
#include "pq/cuda/mldsa_warp.cuh"  // with_level, rej_ntt_poly
#include "pq/cuda/pq_launch.cuh"
#include "pq/cuda/pq_warp_keccak.cuh"

namespace zkgpu::cuda::mldsa_sign {

using namespace pq_launch;
using mldsa::N;
using mldsa_warp::FULL_MASK;

// One warp per block: a block's registers and shared memory return as soon as its warp runs out of
// items, so the next chunk's kernel (on another stream) takes the place at once. With 4-warp
// blocks a block held its place until its slowest warp (its last item's attempts) finished.
constexpr int SIGN_WARPS = 1;
// Resident warps per SM the register budget must allow: 16 = 128 registers per thread. Measured on
// the H200 (ML-DSA-65, batch 65536): 12 warps (170 registers) 0.95 M/s, 16 1.01 M/s, 20 (102
// registers, with spills) 0.98 M/s.
constexpr int SIGN_WARPS_PER_SM = 16;

// Inputs and outputs of a chunk, indexed by the chunk-local item.
struct SignArgs {
  const uint8_t* sk;         // SK_BYTES per item
  mldsa_msg::MsgSource msg;  // where each item's context and message lie
  const uint8_t* valid;      // device calls: 0 for an item whose message ranges device_meta rejected (else null)
  const uint8_t* rnd;        // 32 bytes (zeros: deterministic signing) every rnd_stride bytes
  size_t rnd_stride;         // 32, or 0 for one rnd shared by every item
  uint8_t* sig;              // SIG_BYTES
  uint8_t* ok;               // 1 = signed, 0 = malformed key or kappa limit reached
  uint8_t* slots;            // WarpSlot<P>::BYTES per resident warp
  uint32_t* next_item;       // the work counter
  unsigned long long* prof;  // PROF_SLOTS counters when the caller asked for a sign profile (else null)
};

// The sign profile (MlDsaSignProfile): SM cycles spent by warps in each phase, summed over the
// warps of a chunk, and the number of attempts.
enum Phase { KEY_MU, EXPAND_A, MASKS, W, CHALLENGE, BALL, Z, PHASES };
constexpr int PROF_SLOTS = PHASES + 1;  // + attempts
constexpr const char* PHASE_NAMES[PHASES] = {"key+mu", "expandA", "masks", "w=Ay", "c~", "ball+ntt", "z+hint"};

// A warp's slot of device memory (byte offsets): what does not fit its share of shared memory.
template <class P>
struct WarpSlot {
  static constexpr int KL = P::K * P::L;
  static constexpr int S = 32 / P::L;                              // attempts whose masks are sampled together
  static constexpr size_t MASK_BYTES = 32 * (P::GAMMA1_BITS + 1);  // one ExpandMask stream
  static constexpr size_t A = 0;
  static constexpr size_t S1 = A + size_t(4) * N * KL;  // A[i][j][k] stored at (i N + k) L + j
  static constexpr size_t S2 = S1 + size_t(4) * N * P::L;
  static constexpr size_t T0 = S2 + size_t(4) * N * P::K;
  static constexpr size_t W0 = T0 + size_t(4) * N * P::K;
  static constexpr size_t Z = W0 + size_t(4) * N * P::K;  // the attempt's packed z
  static constexpr size_t MASKS = (Z + P::L * P::Z_BYTES + 63) / 64 * 64;
  static constexpr size_t BYTES = (MASKS + S * P::L * MASK_BYTES + 255) / 256 * 256;
  static_assert(S * P::L <= 32 && MASK_BYTES % 8 == 0);
};

// A warp's shared memory. poly holds, by phase: the setup's polynomial (poly[0]); y^ (poly[0..L))
// and a row of w (poly[L]); c^ (poly[0]) and the product with c (poly[1]).
template <class P>
struct alignas(16) SignSmem {
  int32_t poly[P::L + 1][N];
  uint8_t w1[P::K][N];
  uint8_t w1p[P::K * 32 * P::W1_BITS];  // w1Encode(w1)
  alignas(8) uint8_t mu[64];
  alignas(8) uint8_t rhopp[64];
  alignas(8) uint8_t ctilde[64];
  alignas(8) uint8_t buf[keccak::SHAKE256_RATE];  // SampleInBall's XOF block
  uint32_t hmask[P::K][8];                        // hint bits, 32 coefficients per word
  int32_t zetas[N];  // the NTT twiddle table (mldsa::zeta), read here rather than from global memory (1.13x)
  unsigned long long prof[PROF_SLOTS];  // this warp's phase profile (lane 0)
};

// Lane 0 adds the cycles since the last mark to the phase's counter, when profiling.
struct PhaseClock {
  bool on;
  long long last;
  __device__ explicit PhaseClock(bool enabled) : on(enabled), last(0) {}
  __device__ void restart() {
    if (on) last = clock64();
  }
  __device__ void mark(unsigned long long* prof, int phase, int lane) {
    if (!on) return;
    __syncwarp();
    const long long now = clock64();
    if (lane == 0) prof[phase] += (unsigned long long)(now - last);
    last = now;
  }
};

__device__ __forceinline__ int lane_id() { return int(threadIdx.x & 31); }

// skDecode of s1, s2, t0 with the range check of sign_mu, and their NTTs into the slot. False for
// a malformed key (an s1 or s2 coefficient below -eta).
template <class P>
__device__ bool load_key(const uint8_t* sk, SignSmem<P>& sm, uint8_t* slot, int lane) {
  using SK = mldsa::SkLayout<P>;
  int32_t* s1h = reinterpret_cast<int32_t*>(slot + WarpSlot<P>::S1);
  uint32_t bad = 0;
  for (int q = 0; q < P::L + 2 * P::K; ++q) {
    const uint8_t* src;
    int bits;
    int32_t offset;
    if (q < P::L + P::K) {  // s1 then s2: contiguous in sk and in the slot
      src = sk + SK::S1 + q * P::ETA_BYTES, bits = P::ETA_BITS, offset = P::ETA;
    } else {
      src = sk + SK::T0 + (q - P::L - P::K) * P::T0_BYTES, bits = mldsa::D, offset = 1 << (mldsa::D - 1);
    }
    int32_t r[8];
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      r[t] = mldsa::unpack_coeff(src, lane + 32 * t, bits, offset);
      if (q < P::L + P::K) bad |= uint32_t(r[t] + P::ETA) >> 31;  // below -eta: outside skDecode's domain
    }
    mldsa_regs::ntt(r, sm.poly[0], lane, mldsa::lanes::TableZetas{sm.zetas});
    mldsa_regs::store_runs(s1h + q * N, r, lane);  // S1, S2, T0 follow each other
  }
  static_assert(WarpSlot<P>::S2 == WarpSlot<P>::S1 + 4 * N * P::L && WarpSlot<P>::T0 == WarpSlot<P>::S2 + 4 * N * P::K);
  return !__any_sync(FULL_MASK, bad);
}

// c = SampleInBall(c~) into sm.poly[0], as mldsa::sample_in_ball: the XOF spread over the warp,
// block by block into sm.buf, the Fisher-Yates walk on lane 0.
template <class P>
__device__ void sample_in_ball(const WarpKeccak& kk, SignSmem<P>& sm, int lane) {
  int32_t* c = sm.poly[0];
  uint64_t a = kk.shake(P::CTILDE_BYTES, keccak::SHAKE256_RATE, [&](size_t p) { return sm.ctilde[p]; });
  kk.store(a, sm.buf, keccak::SHAKE256_RATE);
#pragma unroll
  for (int u = 0; u < 8; ++u) c[lane + 32 * u] = 0;
  __syncwarp();
  uint64_t signs = 0;
#pragma unroll
  for (int q = 0; q < 8; ++q) signs |= uint64_t(sm.buf[q]) << (8 * q);
  unsigned pos = 8;
  int i = N - P::TAU;
  for (;;) {
    if (lane == 0) {
      while (i < N && pos < keccak::SHAKE256_RATE) {
        const unsigned b = sm.buf[pos++];
        if (b > unsigned(i)) continue;
        c[i] = c[b];
        c[b] = 1 - 2 * int32_t(signs & 1);
        signs >>= 1;
        ++i;
      }
    }
    i = __shfl_sync(FULL_MASK, i, 0);
    if (i >= N) break;
    a = kk.permute(a);  // the next block of the XOF
    __syncwarp();       // lane 0 is done with the old one
    kk.store(a, sm.buf, keccak::SHAKE256_RATE);
    __syncwarp();
    pos = 0;
  }
  __syncwarp();
}

// The mask coefficients 8 lane .. 8 lane + 7 of an ExpandMask stream (sample_mask's BitUnpack):
// the lane's YBITS bytes read 2 at a time, unpacked by the core's unpack_coeff from registers.
template <class P>
__device__ __forceinline__ void load_mask_runs(int32_t v[8], const uint8_t* stream, int lane) {
  constexpr int YBITS = P::GAMMA1_BITS + 1;  // 18 or 20: even, so the lane's bytes are 2-aligned
  const uint16_t* src = reinterpret_cast<const uint16_t*>(stream + lane * YBITS);
  uint8_t b[YBITS];
#pragma unroll
  for (int h = 0; h < YBITS / 2; ++h) {
    const uint16_t w = src[h];
    b[2 * h] = uint8_t(w), b[2 * h + 1] = uint8_t(w >> 8);
  }
#pragma unroll
  for (int e = 0; e < 8; ++e) v[e] = mldsa::unpack_coeff(b, e, YBITS, P::GAMMA1);
}

// One attempt (Algorithm 7 lines 11-31) with the masks y_j = stream in_batch*L + j of the slot. True if
// accepted: then sig holds the signature.
template <class P>
__device__ bool attempt(const WarpKeccak& kk, SignSmem<P>& sm, uint8_t* slot, int in_batch, uint8_t* sig, int lane,
                        PhaseClock& clk) {
  using S = WarpSlot<P>;
  constexpr int YBITS = P::GAMMA1_BITS + 1;
  const int32_t* A = reinterpret_cast<const int32_t*>(slot + S::A);
  const int32_t* s1h = reinterpret_cast<const int32_t*>(slot + S::S1);
  const int32_t* s2h = reinterpret_cast<const int32_t*>(slot + S::S2);
  const int32_t* t0h = reinterpret_cast<const int32_t*>(slot + S::T0);
  int32_t* w0 = reinterpret_cast<int32_t*>(slot + S::W0);
  uint8_t* zp = slot + S::Z;
  const uint8_t* ym = slot + S::MASKS + size_t(in_batch) * P::L * S::MASK_BYTES;

  // w = NTT^-1(A NTT(y)), (w1, w0) = Decompose(w), w1Encode(w1). The NTTs run on registers
  // (mldsa_regs): y^_j goes to sm.poly[j] in natural order, w's rows stay in registers.
  for (int j = 0; j < P::L; ++j) {
    int32_t r[8];
    load_mask_runs<P>(r, ym + j * S::MASK_BYTES, lane);
    mldsa_regs::exchange<mldsa::lanes::RUNS, mldsa::lanes::ROWS>(r, sm.poly[j], lane);
    mldsa_regs::ntt(r, sm.poly[j], lane, mldsa::lanes::TableZetas{sm.zetas});
    mldsa_regs::store_runs(sm.poly[j], r, lane);
  }
  __syncwarp();
  for (int i = 0; i < P::K; ++i) {
    int32_t acc[8] = {};  // poly_pointwise_acc over j at k = 8 lane + t, then poly_reduce
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      // A[i][j] at k = 8 lane + 4 half + u is at (i N + k) L + j: the lane's 4 L entries are
      // contiguous and 16-byte aligned, read as L int4.
      int32_t a[4 * P::L];
      const int4* src = reinterpret_cast<const int4*>(A + (i * N + 8 * lane + 4 * half) * P::L);
#pragma unroll
      for (int q = 0; q < P::L; ++q) {
        const int4 v = src[q];
        a[4 * q] = v.x, a[4 * q + 1] = v.y, a[4 * q + 2] = v.z, a[4 * q + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < P::L; ++j) {
        const int4 y = reinterpret_cast<const int4*>(sm.poly[j])[2 * lane + half];
        const int32_t yv[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
        for (int u = 0; u < 4; ++u) acc[4 * half + u] += mldsa::montgomery_reduce(int64_t(a[u * P::L + j]) * yv[u]);
      }
    }
#pragma unroll
    for (int t = 0; t < 8; ++t) acc[t] = mldsa::reduce32(acc[t]);
    mldsa_regs::invntt_tomont(acc, sm.poly[P::L], lane, mldsa::lanes::TableZetas{sm.zetas});
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      const int k = lane + 32 * t;
      int32_t lo;
      sm.w1[i][k] = uint8_t(mldsa::decompose<P::GAMMA2>(lo, mldsa::caddq(acc[t])));
      w0[i * N + k] = lo;
    }
    __syncwarp();
    int32_t v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = sm.w1[i][8 * lane + e];
    mldsa::pack_simple8(sm.w1p + i * 32 * P::W1_BITS + lane * P::W1_BITS, v, P::W1_BITS);
  }
  __syncwarp();
  clk.mark(sm.prof, W, lane);

  // c~ = H(mu || w1Encode(w1)), c = SampleInBall(c~).
  constexpr size_t W1P = size_t(P::K) * 32 * P::W1_BITS;
  const uint64_t h =
      kk.shake(64 + W1P, keccak::SHAKE256_RATE, [&](size_t p) { return p < 64 ? sm.mu[p] : sm.w1p[p - 64]; });
  kk.store(h, sm.ctilde, P::CTILDE_BYTES);
  __syncwarp();
  clk.mark(sm.prof, CHALLENGE, lane);
  sample_in_ball<P>(kk, sm, lane);
  int32_t ch[8];  // c^ in RUNS, kept in registers for the products below
#pragma unroll
  for (int t = 0; t < 8; ++t) ch[t] = sm.poly[0][lane + 32 * t];
  mldsa_regs::ntt(ch, sm.poly[0], lane, mldsa::lanes::TableZetas{sm.zetas});
  clk.mark(sm.prof, BALL, lane);

  uint32_t reject = 0, hints = 0;
  // z = y + c s1, r0 = w0 - c s2, c t0, the four rejection tests and the hint: the L + 2K products
  // c^ * x (x = s1_j, then s2_i and t0_i in turn) through one loop, so that one copy of the inverse
  // NTT serves them all (the kernel is ~130 KB of code) and the next operand's load is issued
  // before the current transform (H200, ML-DSA-65: 1.12x over three loops).
  constexpr int PRODUCTS = P::L + 2 * P::K;
  auto operand = [&](int q) { return q < P::L ? s1h + q * N : ((q - P::L) & 1 ? t0h : s2h) + ((q - P::L) >> 1) * N; };
  int32_t next[8], r0[8];
  mldsa_regs::load_runs(next, operand(0), lane);
#pragma unroll 1
  for (int q = 0; q < PRODUCTS; ++q) {
    int32_t r[8];
#pragma unroll
    for (int t = 0; t < 8; ++t) r[t] = mldsa::montgomery_reduce(int64_t(ch[t]) * next[t]);
    if (q + 1 < PRODUCTS) mldsa_regs::load_runs(next, operand(q + 1), lane);
    const int i = (q - P::L) >> 1;
    const bool is_z = q < P::L, is_r0 = !is_z && ((q - P::L) & 1) == 0;
    // poly_pointwise, then invntt_tomont: r in ROWS
    mldsa_regs::invntt_tomont(r, sm.poly[1], lane, mldsa::lanes::TableZetas{sm.zetas});
    if (is_z) {
      // z in RUNS (8 consecutive coefficients per lane), where y is read and z packed
      mldsa_regs::exchange<mldsa::lanes::ROWS, mldsa::lanes::RUNS>(r, sm.poly[1], lane);
      int32_t y[8];
      load_mask_runs<P>(y, ym + q * S::MASK_BYTES, lane);
#pragma unroll
      for (int t = 0; t < 8; ++t) {
        r[t] = mldsa::reduce32(r[t] + y[t]);
        reject |= mldsa::coeff_exceeds(r[t], P::GAMMA1 - P::BETA);
      }
      mldsa::pack_bits8(zp + q * P::Z_BYTES + lane * YBITS, r, YBITS, P::GAMMA1);
    } else if (is_r0) {
#pragma unroll
      for (int t = 0; t < 8; ++t) {
        r0[t] = mldsa::reduce32(w0[i * N + lane + 32 * t] - r[t]);
        reject |= mldsa::coeff_exceeds(r0[t], P::GAMMA2 - P::BETA);
      }
    } else {
#pragma unroll
      for (int t = 0; t < 8; ++t) {
        const int32_t ct0 = mldsa::reduce32(r[t]);
        reject |= mldsa::coeff_exceeds(ct0, P::GAMMA2);
        const uint32_t hint = mldsa::make_hint<P::GAMMA2>(r0[t] + ct0, sm.w1[i][lane + 32 * t]);
        hints += hint;
        const uint32_t m = __ballot_sync(FULL_MASK, hint);  // coefficients 32t .. 32t+31
        if (lane == 0) sm.hmask[i][t] = m;
      }
    }
    // the next transform syncs the warp before it rewrites sm.poly[1]
  }
  __syncwarp();
  hints = __reduce_add_sync(FULL_MASK, hints);
  reject |= uint32_t(P::OMEGA - int32_t(hints)) >> 31;
  if (lane == 0 && clk.on) ++sm.prof[PHASES];
  if (__any_sync(FULL_MASK, reject)) {
    clk.mark(sm.prof, Z, lane);
    return false;
  }

  // Accepted: sigEncode(c~, z, h) (pack_signature), the hint indices in increasing order.
  for (int b = lane; b < P::CTILDE_BYTES; b += 32) sig[b] = sm.ctilde[b];
  uint8_t* zb = sig + P::CTILDE_BYTES;
  for (int b = lane; b < int(P::L * P::Z_BYTES); b += 32) zb[b] = zp[b];
  uint8_t* hb = zb + P::L * P::Z_BYTES;
  for (int b = lane; b < P::OMEGA + P::K; b += 32) hb[b] = 0;
  __syncwarp();
  uint32_t pos = 0;
  for (int i = 0; i < P::K; ++i) {
    for (int u = 0; u < 8; ++u) {
      const uint32_t m = sm.hmask[i][u];
      if ((m >> lane) & 1) hb[pos + __popc(m & ((1u << lane) - 1))] = uint8_t(32 * u + lane);
      pos += __popc(m);
    }
    if (lane == 0) hb[P::OMEGA + i] = uint8_t(pos);
  }
  clk.mark(sm.prof, Z, lane);
  return true;
}

// Sign_internal for one item, by one warp: the key, mu, rho'', ExpandA, then attempts until one is
// accepted or kappa reaches its limit (ok stays 0).
template <class P>
__device__ void sign_item(const SignArgs& g, size_t item, SignSmem<P>& sm, uint8_t* slot, const WarpKeccak& kk,
                          int lane, PhaseClock& clk) {
  using SK = mldsa::SkLayout<P>;
  using S = WarpSlot<P>;
  const uint8_t* sk = g.sk + item * P::SK_BYTES;
  if (lane == 0) g.ok[item] = 0;
  if (g.valid && !g.valid[item]) return;
  if (!load_key<P>(sk, sm, slot, lane)) return;

  // mu = H(tr || 0 || |ctx| || ctx || M) (mldsa::compute_mu), or the external mu.
  const mldsa_msg::MsgMeta m = g.msg.meta[item];
  const uint8_t* msg = g.msg.msgs + m.msg_off;
  if (m.external_mu) {
    for (int k = lane; k < 64; k += 32) sm.mu[k] = msg[k];
  } else {
    const uint8_t* tr = sk + SK::TR;
    const uint8_t* ctx = g.msg.ctxs + m.ctx_off;
    // Byte d of ctx || M from one address select and one load: the two sources as separate loads
    // cost the kernel registers (ML-DSA-65: 44 bytes of spill stores against 32 this way).
    const size_t ctx_len = m.ctx_len;
    const uintptr_t msg_base = reinterpret_cast<uintptr_t>(msg) - ctx_len;  // byte d >= ctx_len at msg_base + d
    const uint64_t h = kk.shake(66 + ctx_len + m.msg_len, keccak::SHAKE256_RATE, [&](size_t p) {
      if (p < 64) return tr[p];
      if (p < 66) return p == 64 ? uint8_t(0) : m.ctx_len;
      const size_t d = p - 66;
      const uintptr_t base = d < ctx_len ? reinterpret_cast<uintptr_t>(ctx) : msg_base;
      return *reinterpret_cast<const uint8_t*>(base + d);
    });
    kk.store(h, sm.mu, 64);
  }
  __syncwarp();
  {  // rho'' = H(K || rnd || mu)
    const uint8_t* key = sk + SK::KEY;
    const uint8_t* rnd = g.rnd + item * g.rnd_stride;
    const uint64_t h = kk.shake(128, keccak::SHAKE256_RATE, [&](size_t p) {
      return p < 32 ? key[p] : p < 64 ? rnd[p - 32] : sm.mu[p - 64];
    });
    kk.store(h, sm.rhopp, 64);
  }
  clk.mark(sm.prof, KEY_MU, lane);
  // ExpandA: entry e = i*L + j is A[i][j] = RejNTTPoly(rho || j || i).
  int32_t* A = reinterpret_cast<int32_t*>(slot + S::A);
  for (int e = lane; e < S::KL; e += 32)
    mldsa_warp::rej_ntt_poly(sk + SK::RHO, uint8_t(e % P::L), uint8_t(e / P::L),
                             [&](int k, int32_t v) { A[(e / P::L * N + k) * P::L + e % P::L] = v; });
  __syncwarp();
  clk.mark(sm.prof, EXPAND_A, lane);

  uint8_t* sig = g.sig + item * P::SIG_BYTES;
  for (uint32_t kappa = 0; kappa + P::L <= uint32_t(mldsa::KAPPA_LIMIT); kappa += P::L) {
    const int r = int((kappa / P::L) % S::S);
    if (r == 0) {  // the masks of attempts kappa/L .. kappa/L + S - 1: stream s has counter kappa + s
      const int s = lane;
      if (s < S::S * P::L && kappa + uint32_t(s) < uint32_t(mldsa::KAPPA_LIMIT)) {
        const uint32_t ks = kappa + uint32_t(s);
        shake256_words(sm.rhopp, uint8_t(ks), uint8_t(ks >> 8),
                       reinterpret_cast<uint64_t*>(slot + S::MASKS + size_t(s) * S::MASK_BYTES),
                       int(S::MASK_BYTES / 8));
      }
      clk.mark(sm.prof, MASKS, lane);
    }
    if (attempt<P>(kk, sm, slot, r, sig, lane, clk)) {
      if (lane == 0) g.ok[item] = 1;
      return;
    }
  }
}

template <class P>
__global__ void __launch_bounds__(32 * SIGN_WARPS, SIGN_WARPS_PER_SM / SIGN_WARPS) sign_kernel(size_t n, SignArgs g) {
  __shared__ SignSmem<P> smem[SIGN_WARPS];
  const int lane = lane_id(), warp = int(threadIdx.x >> 5);
  uint8_t* slot = g.slots + (size_t(blockIdx.x) * SIGN_WARPS + size_t(warp)) * WarpSlot<P>::BYTES;
  const WarpKeccak kk(lane);
  SignSmem<P>& sm = smem[warp];
  PhaseClock clk(g.prof != nullptr);
  if (lane < PROF_SLOTS) sm.prof[lane] = 0;
  for (int k = lane; k < N; k += 32) sm.zetas[k] = mldsa::zeta(k);
  __syncwarp();
  for (;;) {
    uint32_t item = 0;
    if (lane == 0) item = atomicAdd(g.next_item, 1u);
    item = __shfl_sync(FULL_MASK, item, 0);
    if (item >= n) break;
    clk.restart();
    sign_item<P>(g, item, sm, slot, kk, lane, clk);
    __syncwarp();
  }
  if (g.prof && lane < PROF_SLOTS) atomicAdd(&g.prof[lane], sm.prof[lane]);
}

}  // namespace zkgpu::cuda::mldsa_sign
