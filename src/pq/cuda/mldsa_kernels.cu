// ML-DSA key generation (one thread per item over include/zkgpu/core/mldsa) and verification (a warp per
// item for the bulk of the work, see below); signing is in mldsa_sign.cu. mu comes from the host.
#include <algorithm>
#include <cstring>
#include <vector>

#include "zkgpu/core/mldsa/dsa.hpp"
#include "pq/cuda/mldsa_msg.cuh"
#include "pq/cuda/mldsa_warp.cuh"
#include "pq/cuda/pq_device.cuh"
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

using mldsa_msg::MsgMeta;
using mldsa_msg::MsgSource;

// 1. mu (tr = H(pk, 64), then compute_mu, as the CPU front end does; or the external mu), the hint
// encoding check (HintBitUnpack's canonical form) and c = SampleInBall(c~) as int8. Items with
// valid[i] == 0 (device calls: message ranges that device_meta rejected; null for the host calls,
// whose front end filters the items) get ok 0 and are not read.
constexpr unsigned PREPARE_THREADS = 128;
// 4 blocks per SM: at most 128 registers (the kernel needs no more without spilling; uncapped,
// nvcc took 132, which fits only 3 blocks).
template <class P>
__global__ void __launch_bounds__(PREPARE_THREADS, 4)
    verify_prepare_kernel(size_t n, const uint8_t* pk, const uint8_t* sig, MsgSource src, const uint8_t* valid,
                          uint8_t* mu, int8_t* cball, uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (valid && !valid[i]) {
    ok[i] = 0;
    return;
  }
  const MsgMeta m = src.meta[i];
  uint8_t tr[64];
  if (!m.external_mu) keccak::shake256(tr, 64, pk + i * P::PK_BYTES, P::PK_BYTES);
  mldsa_msg::item_mu(mu + i * 64, tr, m, src);
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
    for (int e = 0; e < 8; ++e) v[e] = mldsa::use_hint<P::GAMMA2>(mldsa::caddq(S.w[i][8 * lane + e]), (hbits >> e) & 1);
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

// Verification runs on the chunked pipeline (pq_launch.cuh); a chunk holds up to 2^14 items and at
// most VERIFY_MAX_BLOB bytes of contexts and messages (one larger item still fits). Key generation
// takes chunks of the same sizes.
constexpr size_t VERIFY_MIN_CHUNK = size_t(1) << 11, VERIFY_MAX_CHUNK = size_t(1) << 14;
constexpr size_t VERIFY_MAX_BLOB = size_t(64) << 20;

// Chunk layout, the same in pinned host and device memory: pk | sig | meta | blob.
struct VerifyLayout {
  size_t pk_bytes, sig_bytes, n = 0, blob = 0;
  size_t sig() const { return align64(n * pk_bytes); }
  size_t meta() const { return sig() + align64(n * sig_bytes); }
  size_t blob_at() const { return meta() + n * sizeof(MsgMeta); }
  size_t bytes() const { return blob_at() + blob; }
};
using mldsa_msg::blob_bytes;

// Device scratch of a chunk: mu | cball | hint_ok | core_ok | w1.
template <class P>
struct VerifyScratch {
  size_t n;
  size_t cball() const { return align64(n * 64); }
  size_t hint_ok() const { return cball() + align64(n * N); }
  size_t core_ok() const { return hint_ok() + align64(n); }
  size_t w1() const { return core_ok() + align64(n); }
  size_t bytes() const { return w1() + n * P::K * 32 * P::W1_BITS; }
};

struct VerifyTag;
struct KeygenTag;

// Writes the chunk's items (batch indices `index`) in the layout.
template <class P>
void pack_verify_chunk(uint8_t* dst, std::span<const MlDsaVerifyItem> items, const uint32_t* index,
                       const VerifyLayout& lay) {
  MsgMeta* meta = reinterpret_cast<MsgMeta*>(dst + lay.meta());
  mldsa_msg::set_meta(meta, items, index, lay.n);
  const auto n = int64_t(lay.n);
#pragma omp parallel for schedule(static) if (n >= 1024)
  for (int64_t j = 0; j < n; ++j) {
    const MlDsaVerifyItem& it = items[index[size_t(j)]];
    std::memcpy(dst + j * P::PK_BYTES, it.pk.data(), P::PK_BYTES);
    std::memcpy(dst + lay.sig() + j * P::SIG_BYTES, it.sig.data(), P::SIG_BYTES);
    mldsa_msg::copy_message(dst + lay.blob_at(), meta[j], it);
  }
}

// The three verification kernels for n items on device buffers (item i at i * size), on stream
// `st`, with VerifyScratch<P>{n}.bytes() of scratch; ok receives the verdicts. What a chunk of the
// host pipeline and a chunk of a device call both run.
template <class P>
void verify_chunk(cudaStream_t st, PhaseProfiler& phases, size_t n, const uint8_t* pk, const uint8_t* sig,
                  const MsgSource& src, const uint8_t* valid, uint8_t* x, uint8_t* ok) {
  const VerifyScratch<P> sc{n};
  constexpr unsigned T = PREPARE_THREADS;  // the item kernels
  const unsigned item_blocks = unsigned((n + T - 1) / T);
  verify_prepare_kernel<P><<<item_blocks, T, 0, st>>>(n, pk, sig, src, valid, x,
                                                      reinterpret_cast<int8_t*>(x + sc.cball()), x + sc.hint_ok());
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("prepare");
  verify_core_kernel<P><<<unsigned((n + VERIFY_WARPS - 1) / VERIFY_WARPS), 32 * VERIFY_WARPS, 0, st>>>(
      n, pk, sig, reinterpret_cast<const int8_t*>(x + sc.cball()), x + sc.hint_ok(), x + sc.w1(), x + sc.core_ok());
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("core");
  verify_finish_kernel<P><<<item_blocks, T, 0, st>>>(n, x, sig, x + sc.w1(), x + sc.core_ok(), ok);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("finish");
}

template <class P>
void launch_verify_chunk(BatchSlot& s, const VerifyLayout& lay) {
  const uint8_t* in = s.dev_in;
  const MsgSource src{reinterpret_cast<const MsgMeta*>(in + lay.meta()), in + lay.blob_at(), in + lay.blob_at()};
  verify_chunk<P>(s.stream, *s.phases, lay.n, in, in + lay.sig(), src, nullptr, s.dev_scratch, s.dev_out);
}

// A device call's chunk scratch: VerifyScratch, then the chunk's MsgMeta and valid bytes.
template <class P>
struct DeviceVerifyScratch {
  size_t n;
  size_t meta() const { return align64(VerifyScratch<P>{n}.bytes()); }
  size_t valid() const { return meta() + align64(n * sizeof(MsgMeta)); }
  size_t bytes() const { return valid() + n; }
};

constexpr size_t DEVICE_CHUNK = pq_device::chunk_items(VERIFY_MAX_CHUNK);

}  // namespace

void mldsa_keygen(int level, size_t n, const uint8_t* seeds, uint8_t* pk, uint8_t* sk, const PqGpuOptions& options) {
  if (n == 0) return;
  with_level(level, [&]<class P>() {
    // in: the seeds; out: pk | sk.
    auto plan_of = [](size_t end, size_t m) {
      return ChunkPlan{end, m * 32, align64(m * P::PK_BYTES) + m * P::SK_BYTES, 0};
    };
    const auto plan =
        fixed_chunks(n, VERIFY_MIN_CHUNK, VERIFY_MAX_CHUNK, options.memory_budget, plan_of, "ML-DSA key generation");
    auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
      parallel_copy(h, seeds + first * 32, (p.end - first) * 32);
    };
    auto launch = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
      const size_t m = p.end - first;
      mldsa_keygen_kernel<P>
          <<<blocks_for(m), PQ_THREADS, 0, s.stream>>>(m, s.dev_in, s.dev_out, s.dev_out + align64(m * P::PK_BYTES));
      ZKGPU_CUDA_CHECK_LAUNCH();
      s.phases->mark("keygen");
    };
    auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
      const size_t m = p.end - first;
      parallel_copy(pk + first * P::PK_BYTES, h, m * P::PK_BYTES);
      parallel_copy(sk + first * P::SK_BYTES, h + align64(m * P::PK_BYTES), m * P::SK_BYTES);
    };
    pq_context<KeygenTag>(options.memory_budget)
        ->pipeline.run(n, {.times = options.phases}, plan, pack, launch, deliver);
  });
}

void mldsa_verify_items(int level, std::span<const MlDsaVerifyItem> items, uint8_t* ok, const PqGpuOptions& options) {
  std::vector<uint32_t> todo;  // the items to verify, packed
  for (size_t i = 0; i < items.size(); ++i)
    if (ok[i]) todo.push_back(uint32_t(i));
  if (todo.empty()) return;
  with_level(level, [&]<class P>() {
    const size_t chunk = chunk_items(todo.size(), VERIFY_MIN_CHUNK, VERIFY_MAX_CHUNK);
    auto layout = [&](size_t first, size_t end) {
      VerifyLayout lay{P::PK_BYTES, P::SIG_BYTES, end - first};
      for (size_t j = first; j < end; ++j) lay.blob += blob_bytes(items[todo[j]]);
      return lay;
    };
    auto plan = [&](size_t first) {
      return BatchPipeline::fill_chunk(
          first, todo.size(), chunk, VERIFY_MAX_BLOB, options.memory_budget,
          [&](size_t j) { return blob_bytes(items[todo[j]]); },
          [](size_t end, size_t m, size_t blob) {
            const VerifyLayout lay{P::PK_BYTES, P::SIG_BYTES, m, blob};
            return ChunkPlan{end, lay.bytes(), lay.n, VerifyScratch<P>{lay.n}.bytes()};
          },
          "ML-DSA verification");
    };
    auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
      pack_verify_chunk<P>(h, items, todo.data() + first, layout(first, p.end));
    };
    auto launch = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
      launch_verify_chunk<P>(s, layout(first, p.end));
    };
    auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
      for (size_t j = first; j < p.end; ++j) ok[todo[j]] = h[j - first];
    };
    pq_context<VerifyTag>(options.memory_budget)
        ->pipeline.run(todo.size(), {.times = options.phases}, plan, pack, launch, deliver);
  });
}

// ---- device-pointer calls: the same kernels on the caller's buffers and stream ----------------

void mldsa_keygen_device(int level, size_t n, const uint8_t* seeds, uint8_t* pk, uint8_t* sk, void* stream,
                         const PqGpuOptions& options) {
  const auto st = static_cast<cudaStream_t>(stream);
  with_level(level, [&]<class P>() {
    auto launch = [&](size_t first, size_t m, uint8_t*, PhaseProfiler& ph) {
      mldsa_keygen_kernel<P><<<blocks_for(m), PQ_THREADS, 0, st>>>(m, seeds + first * 32, pk + first * P::PK_BYTES,
                                                                   sk + first * P::SK_BYTES);
      ZKGPU_CUDA_CHECK_LAUNCH();
      ph.mark("keygen");
    };
    pq_device::run_on_stream(
        n, DEVICE_CHUNK, st, options, [](size_t) { return size_t{0}; }, launch, "ML-DSA key generation");
  });
}

void mldsa_verify_device(int level, const MlDsaPackedVerifyBatch& batch, uint8_t* verdicts, void* stream,
                         const PqGpuOptions& options) {
  const auto st = static_cast<cudaStream_t>(stream);
  with_level(level, [&]<class P>() {
    const size_t n = batch.public_keys.size() / P::PK_BYTES;
    auto launch = [&](size_t first, size_t m, uint8_t* x, PhaseProfiler& ph) {
      const DeviceVerifyScratch<P> sc{m};
      auto* meta = reinterpret_cast<MsgMeta*>(x + sc.meta());
      mldsa_msg::device_meta(st, first, m, batch.messages, meta, x + sc.valid());
      ph.mark("offsets");
      const MsgSource src{meta, batch.messages.messages.data(), batch.messages.contexts.data()};
      verify_chunk<P>(st, ph, m, batch.public_keys.data() + first * P::PK_BYTES,
                      batch.signatures.data() + first * P::SIG_BYTES, src, x + sc.valid(), x, verdicts + first);
    };
    pq_device::run_on_stream(
        n, DEVICE_CHUNK, st, options, [](size_t m) { return DeviceVerifyScratch<P>{m}.bytes(); }, launch,
        "ML-DSA verification");
  });
}

}  // namespace zkgpu::cuda
