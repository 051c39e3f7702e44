// ML-KEM batch kernels over include/zkgpu/core/mlkem, byte-identical to the CPU backend. Key generation,
// encapsulation and decapsulation run K-PKE one warp per item (mlkem_warp.cuh) between
// thread-per-item kernels for the sequential hashes; key generation and encapsulation run their
// SHAKE streams one per thread in xof_kernel first.
#include <vector>

#include "zkgpu/core/mlkem/kem.hpp"
#include "pq/cuda/mlkem_hash.cuh"
#include "pq/cuda/mlkem_warp.cuh"
#include "pq/cuda/pq_device.cuh"
#include "pq/cuda/pq_launch.cuh"
#include "pq/pq_cuda.hpp"
#include "zkgpu/pq.hpp"

namespace zkgpu::cuda {

namespace {
using namespace pq_launch;

// The warp kernels (mlkem_warp.cuh): the sequential hashes of an item (H(ek), G, J and the dk hash
// check) run one thread per item, K-PKE one warp per item. Key generation, encapsulation and the
// decapsulation's re-encryption run their SHAKE streams (the K*K SampleNTT entries of A-hat and the
// PRF outputs for the CBD samples) in xof_kernel, one stream per thread, between a thread-per-item
// hash kernel that makes the seeds and a warp kernel with no Keccak at all. The streams used to run
// inside the warp kernel, one per lane, where 16 of 32 lanes (ML-KEM-768 encaps) did Keccak and the
// rest waited; as threads of their own every lane runs one.
constexpr int KEM_WARPS = 2;  // items per block of the decryption warp kernel (one scratch polynomial each)

// What xof_kernel samples for item t of a chunk.
struct XofJob {
  const uint8_t* rho;  // rho of item t at rho + rho_stride * t
  size_t rho_stride;
  const uint8_t* seed;  // the PRF key of item t (8-byte aligned) at seed + seed_stride * t
  size_t seed_stride;
  bool transpose;    // entry i*K + j = SampleNTT(rho || j || i) (key generation), else (rho || i || j)
  int streams;       // PRF nonces per item
  int eta1_streams;  // nonces below this use eta1, the others eta2
};

constexpr int XOF_THREADS = 64;

// The SHAKE streams of a chunk, one per thread, to where mlkem_warp::Sampled reads them. Blocks
// below a_blocks run SampleNTT entries: thread t samples entry t % K^2 of item t / K^2 into a
// shared row (516 bytes apart, so rows start in different banks) and the block copies its rows
// out coalesced. The other blocks run PRF(seed, q) (SHAKE256 of seed || q; 64*eta bytes), q =
// t % streams of item t / streams, and store the bytes (the warp kernels run the CBD).
template <int K>
__global__ void __launch_bounds__(XOF_THREADS)
    xof_kernel(size_t n, XofJob job, mlkem_warp::Sampled<K> out, unsigned a_blocks) {
  using P = mlkem::Params<K>;
  using S = mlkem_warp::Sampled<K>;
  constexpr unsigned WORDS = mlkem::N / 2, ROW = WORDS + 1;  // 32-bit words per polynomial, per staged row
  __shared__ uint32_t stage[XOF_THREADS * ROW];
  if (blockIdx.x < a_blocks) {  // uniform per block: the __syncthreads below is safe
    const size_t first = size_t(blockIdx.x) * XOF_THREADS, total = n * K * K;
    const size_t t = first + threadIdx.x;
    if (t < total) {
      const size_t item = t / (K * K);
      const int e = int(t % (K * K)), i = e / K, j = e % K;
      mlkem_warp::sample_ntt_lane(reinterpret_cast<int16_t*>(stage + threadIdx.x * ROW),
                                  job.rho + job.rho_stride * item, uint8_t(job.transpose ? j : i),
                                  uint8_t(job.transpose ? i : j));
    }
    __syncthreads();
    uint32_t* dst = reinterpret_cast<uint32_t*>(out.a) + first * WORDS;
    const size_t words = std::min(size_t(XOF_THREADS), total - first) * WORDS;
    for (size_t w = threadIdx.x; w < words; w += XOF_THREADS) dst[w] = stage[(w / WORDS) * ROW + w % WORDS];
    return;
  }
  const size_t t = size_t(blockIdx.x - a_blocks) * XOF_THREADS + threadIdx.x;
  if (t >= n * size_t(job.streams)) return;
  const size_t item = t / size_t(job.streams);
  const int q = int(t % size_t(job.streams));
  mlkem_hash::prf(reinterpret_cast<uint64_t*>(out.prf + S::PRF_STRIDE * t), job.seed + job.seed_stride * item,
                  uint8_t(q), q < job.eta1_streams ? P::eta1 : P::eta2);
}

// Where xof_kernel's output for a chunk of cnt items lies in a scratch buffer: A-hat, then the PRF
// outputs. The kernels before it keep 64 bytes of seeds per item ((rho, sigma), (K, r) or
// (K', r')) in front of it: seeds_bytes(cnt).
template <int K>
struct XofScratch {
  int streams;
  size_t prf_off, bytes;
  XofScratch(size_t cnt, int prf_streams)
      : streams(prf_streams),
        prf_off(align64(cnt * K * K * 512)),
        bytes(prf_off + cnt * size_t(prf_streams) * mlkem_warp::Sampled<K>::PRF_STRIDE) {}
  mlkem_warp::Sampled<K> sampled(uint8_t* base) const {
    return {reinterpret_cast<int16_t*>(base), base + prf_off, streams};
  }
};
inline size_t seeds_bytes(size_t cnt) { return align64(cnt * 64); }

// Enqueues xof_kernel for cnt items on st.
template <int K>
void run_xof(cudaStream_t st, size_t cnt, const XofJob& job, mlkem_warp::Sampled<K> out) {
  const unsigned a_blocks = unsigned((cnt * K * K + XOF_THREADS - 1) / XOF_THREADS);
  const unsigned prf_blocks = unsigned((cnt * size_t(job.streams) + XOF_THREADS - 1) / XOF_THREADS);
  xof_kernel<K><<<a_blocks + prf_blocks, XOF_THREADS, 0, st>>>(cnt, job, out, a_blocks);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

constexpr int PKE_WARPS = 4;  // items per block of the keygen / encaps warp kernels: (K+1) x 512 B each

// Key generation 1: (rho, sigma) = G(d || k) per item.
template <int K>
__global__ void keygen_hash_kernel(size_t n, const uint8_t* seeds, uint8_t* rs) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  mlkem_hash::g_seed<K>(reinterpret_cast<uint64_t*>(rs + i * 64), seeds + i * 64);
}

// Key generation 3 (after xof_kernel): K-PKE.KeyGen from the sampled streams: ek, and in dk the
// encoded s-hat and the copy of ek.
template <int K>
__global__ void __launch_bounds__(32 * PKE_WARPS)
    keygen_warp_kernel(size_t n, const uint8_t* rs, mlkem_warp::Sampled<K> sampled, uint8_t* ek, uint8_t* dk) {
  __shared__ mlkem_warp::KeygenPolys<K> shared[PKE_WARPS];
  using P = mlkem::Params<K>;
  const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
  const size_t item = size_t(blockIdx.x) * PKE_WARPS + warp;
  if (item >= n) return;  // whole warps only
  uint8_t* d = dk + item * P::dk_bytes;
  mlkem_warp::pke_keygen_sampled<K>(shared[warp], sampled, item, rs + item * 64, ek + item * P::ek_bytes,
                                    d + P::pke_sk_bytes, d, lane);
}

// Key generation 4: H(ek) and z into dk, per item.
template <int K>
__global__ void keygen_finish_kernel(size_t n, const uint8_t* seeds, const uint8_t* ek, uint8_t* dk) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using P = mlkem::Params<K>;
  uint64_t h[4];
  mlkem_hash::hash_ek<K>(h, ek + i * P::ek_bytes);
  uint64_t* out = reinterpret_cast<uint64_t*>(dk + i * P::dk_bytes + P::pke_sk_bytes + P::ek_bytes);
#pragma unroll
  for (int w = 0; w < 4; ++w) out[w] = h[w], out[4 + w] = keccak_regs::load64(seeds + i * 64 + 32 + 8 * w);  // h, z
}

// Encapsulation 1: (K, r) = G(m || H(ek)) per item.
template <int K>
__global__ void encaps_hash_kernel(size_t n, const uint8_t* ek, const uint8_t* m, uint8_t* kr) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t h[4];
  mlkem_hash::hash_ek<K>(h, ek + i * mlkem::Params<K>::ek_bytes);
  mlkem_hash::g_mh(reinterpret_cast<uint64_t*>(kr + i * 64), m + i * 32, h);
}

// Encapsulation 3 (after xof_kernel): the ek modulus check, c = K-PKE.Encrypt(ek, m, r) from the
// sampled streams, and the key K.
template <int K>
__global__ void __launch_bounds__(32 * PKE_WARPS)
    encaps_warp_kernel(size_t n, const uint8_t* ek, const uint8_t* m, const uint8_t* kr, mlkem_warp::Sampled<K> sampled,
                       uint8_t* c, uint8_t* key, uint8_t* ok) {
  __shared__ mlkem_warp::EncryptPolys<K> shared[PKE_WARPS];
  using P = mlkem::Params<K>;
  const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
  const size_t item = size_t(blockIdx.x) * PKE_WARPS + warp;
  if (item >= n) return;  // whole warps only
  const uint8_t* e = ek + item * P::ek_bytes;
  if (!mlkem_warp::ek_valid<K>(e, lane)) {
    if (lane == 0) ok[item] = 0;
    return;
  }
  mlkem_warp::pke_encrypt_sampled<K>(shared[warp], sampled, item, e, m + item * 32, c + item * P::c_bytes, nullptr,
                                     lane);
  key[item * 32 + lane] = kr[item * 64 + lane];
  if (lane == 0) ok[item] = 1;
}

// Decapsulation 1: m' = K-PKE.Decrypt(dk, c), and mh = m' || h.
template <int K>
__global__ void __launch_bounds__(32 * KEM_WARPS)
    decaps_decrypt_warp_kernel(size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* mh) {
  __shared__ mlkem::Poly scratch[KEM_WARPS];
  using P = mlkem::Params<K>;
  const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
  const size_t item = size_t(blockIdx.x) * KEM_WARPS + warp;
  if (item >= n) return;
  const uint8_t* d = dk + item * P::dk_bytes;
  mlkem_warp::pke_decrypt<K>(scratch[warp], d, c + item * P::c_bytes, mh + item * 64, lane);
  mh[item * 64 + 32 + lane] = d[P::pke_sk_bytes + P::ek_bytes + lane];
}

// Decapsulation 2: (K', r') = G(m' || h) per item.
__global__ void decaps_g_kernel(size_t n, const uint8_t* mh, uint8_t* kr) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t h[4];
#pragma unroll
  for (int w = 0; w < 4; ++w) h[w] = keccak_regs::load64(mh + i * 64 + 32 + 8 * w);
  mlkem_hash::g_mh(reinterpret_cast<uint64_t*>(kr + i * 64), mh + i * 64, h);
}

// Decapsulation 4 (after xof_kernel): whether K-PKE.Encrypt(ek, m', r') differs from c, every byte
// compared as it is produced.
template <int K>
__global__ void __launch_bounds__(32 * PKE_WARPS)
    decaps_reencrypt_warp_kernel(size_t n, const uint8_t* dk, const uint8_t* c, const uint8_t* mh,
                                 mlkem_warp::Sampled<K> sampled, uint8_t* differ) {
  __shared__ mlkem_warp::EncryptPolys<K> shared[PKE_WARPS];
  using P = mlkem::Params<K>;
  const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
  const size_t item = size_t(blockIdx.x) * PKE_WARPS + warp;
  if (item >= n) return;  // whole warps only
  const uint32_t d =
      mlkem_warp::pke_encrypt_sampled<K>(shared[warp], sampled, item, dk + item * P::dk_bytes + P::pke_sk_bytes,
                                         mh + item * 64, nullptr, c + item * P::c_bytes, lane);
  if (lane == 0) differ[item] = uint8_t(d);
}

// Decapsulation 5: the dk hash check, K-bar = J(z || c) and the masked choice of K' or K-bar, the
// hashes with the Keccak state in registers.
template <int K>
__global__ void decaps_final_kernel(size_t n, const uint8_t* dk, const uint8_t* c, const uint8_t* kr,
                                    const uint8_t* differ, uint8_t* key, uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using P = mlkem::Params<K>;
  constexpr size_t PK = P::pke_sk_bytes, EK = P::ek_bytes;
  const uint8_t* d = dk + i * P::dk_bytes;
  uint64_t h[4], j[4];
  mlkem_hash::hash_ek<K>(h, d + PK);
  uint64_t bad = 0;
#pragma unroll
  for (int w = 0; w < 4; ++w) bad |= h[w] ^ keccak_regs::load64(d + PK + EK + 8 * w);
  ok[i] = bad == 0 ? 1 : 0;  // a property of the key, public (the CPU declassifies it too)
  mlkem_hash::j_zc<K>(j, d + PK + EK + 32, c + i * P::c_bytes);
  uint8_t k[32];
#pragma unroll
  for (int b = 0; b < 32; ++b) k[b] = uint8_t(j[b / 8] >> (8 * (b % 8)));
  pq::ct_cmov(k, kr + i * 64, 32, 1u - uint32_t(differ[i]));
  for (int b = 0; b < 32; ++b) key[i * 32 + b] = k[b];
}

// Scratch bytes of m items per operation: the seeds of the hash kernels, then XofScratch;
// decapsulation keeps m' || h, K' || r' and the differ bytes in front of it.
template <int K>
size_t keygen_scratch(size_t m) {
  return seeds_bytes(m) + XofScratch<K>(m, 2 * K).bytes;
}
template <int K>
size_t encaps_scratch(size_t m) {
  return seeds_bytes(m) + XofScratch<K>(m, 2 * K + 1).bytes;
}
template <int K>
size_t decaps_scratch(size_t m) {
  return 2 * seeds_bytes(m) + align64(m) + XofScratch<K>(m, 2 * K + 1).bytes;
}

// The kernels of each operation for m items on device buffers (item i at i * size), on stream
// `st`, with keygen_scratch<K>(m) (encaps_scratch, decaps_scratch) bytes of scratch: what a chunk
// of the host pipeline and a chunk of a device call both run.
template <int K>
void keygen_chunk(cudaStream_t st, PhaseProfiler& phases, size_t m, const uint8_t* seeds, uint8_t* ek, uint8_t* dk,
                  uint8_t* scratch) {
  uint8_t* rs = scratch;  // (rho, sigma) per item
  const XofScratch<K> x(m, 2 * K);
  keygen_hash_kernel<K><<<blocks_for(m), PQ_THREADS, 0, st>>>(m, seeds, rs);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("hash");
  run_xof<K>(st, m, XofJob{rs, 64, rs + 32, 64, true, 2 * K, 2 * K}, x.sampled(rs + seeds_bytes(m)));
  phases.mark("xof");
  keygen_warp_kernel<K><<<unsigned((m + PKE_WARPS - 1) / PKE_WARPS), 32 * PKE_WARPS, 0, st>>>(
      m, rs, x.sampled(rs + seeds_bytes(m)), ek, dk);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("keygen");
  keygen_finish_kernel<K><<<blocks_for(m), PQ_THREADS, 0, st>>>(m, seeds, ek, dk);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("finish");
}

// ok[i] = 1 for an accepted ek; a rejected item's c and key are left unwritten.
template <int K>
void encaps_chunk(cudaStream_t st, PhaseProfiler& phases, size_t cnt, const uint8_t* ek, const uint8_t* m, uint8_t* c,
                  uint8_t* key, uint8_t* ok, uint8_t* scratch) {
  using P = mlkem::Params<K>;
  uint8_t* kr = scratch;  // (K, r) per item
  const XofScratch<K> x(cnt, 2 * K + 1);
  encaps_hash_kernel<K><<<blocks_for(cnt), PQ_THREADS, 0, st>>>(cnt, ek, m, kr);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("hash");
  run_xof<K>(st, cnt, XofJob{ek + 384 * K, P::ek_bytes, kr + 32, 64, false, 2 * K + 1, K},
             x.sampled(kr + seeds_bytes(cnt)));
  phases.mark("xof");
  encaps_warp_kernel<K><<<unsigned((cnt + PKE_WARPS - 1) / PKE_WARPS), 32 * PKE_WARPS, 0, st>>>(
      cnt, ek, m, kr, x.sampled(kr + seeds_bytes(cnt)), c, key, ok);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("encrypt");
}

// ok[i] = 1 for a dk whose H(ek) matches; key[i] is written for every item.
template <int K>
void decaps_chunk(cudaStream_t st, PhaseProfiler& phases, size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* key,
                  uint8_t* ok, uint8_t* scratch) {
  using P = mlkem::Params<K>;
  uint8_t* mh = scratch;  // m' || h per item
  uint8_t* kr = mh + seeds_bytes(n);
  uint8_t* differ = kr + seeds_bytes(n);
  uint8_t* xof = differ + align64(n);
  const XofScratch<K> x(n, 2 * K + 1);
  decaps_decrypt_warp_kernel<K><<<unsigned((n + KEM_WARPS - 1) / KEM_WARPS), 32 * KEM_WARPS, 0, st>>>(n, dk, c, mh);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("decrypt");
  decaps_g_kernel<<<blocks_for(n), PQ_THREADS, 0, st>>>(n, mh, kr);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("hash");
  run_xof<K>(st, n, XofJob{dk + P::pke_sk_bytes + 384 * K, P::dk_bytes, kr + 32, 64, false, 2 * K + 1, K},
             x.sampled(xof));
  phases.mark("xof");
  decaps_reencrypt_warp_kernel<K>
      <<<unsigned((n + PKE_WARPS - 1) / PKE_WARPS), 32 * PKE_WARPS, 0, st>>>(n, dk, c, mh, x.sampled(xof), differ);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("reencrypt");
  decaps_final_kernel<K><<<blocks_for(n), PQ_THREADS, 0, st>>>(n, dk, c, kr, differ, key, ok);
  ZKGPU_CUDA_CHECK_LAUNCH();
  phases.mark("final");
}

// Keygen / encaps / decaps share one context (pq_launch.cuh).
struct KemTag;
constexpr size_t KEM_MIN_CHUNK = size_t(1) << 11, KEM_MAX_CHUNK = size_t(1) << 14;
constexpr size_t KEM_DEVICE_CHUNK = pq_device::chunk_items(KEM_MAX_CHUNK);

template <class F>
void with_rank(int k, F&& f) {
  if (k == 2) return f.template operator()<2>();
  if (k == 3) return f.template operator()<3>();
  if (k == 4) return f.template operator()<4>();
  throw_invalid("ML-KEM rank must be 2, 3 or 4");
}
}  // namespace

void mlkem_keygen(int k, size_t n, const uint8_t* seeds, uint8_t* ek, uint8_t* dk, const PqGpuOptions& options) {
  if (n == 0) return;
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    // in: d || z per item; out: ek | dk.
    auto plan_of = [](size_t end, size_t m) {
      return ChunkPlan{end, m * 64, align64(m * P::ek_bytes) + m * P::dk_bytes, keygen_scratch<K>(m)};
    };
    const auto plan =
        fixed_chunks(n, KEM_MIN_CHUNK, KEM_MAX_CHUNK, options.memory_budget, plan_of, "ML-KEM key generation");
    auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
      parallel_copy(h, seeds + first * 64, (p.end - first) * 64);
    };
    auto launch = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
      const size_t m = p.end - first;
      keygen_chunk<K>(s.stream, *s.phases, m, s.dev_in, s.dev_out, s.dev_out + align64(m * P::ek_bytes), s.dev_scratch);
    };
    auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
      const size_t m = p.end - first;
      parallel_copy(ek + first * P::ek_bytes, h, m * P::ek_bytes);
      parallel_copy(dk + first * P::dk_bytes, h + align64(m * P::ek_bytes), m * P::dk_bytes);
    };
    pq_context<KemTag>(options.memory_budget)->pipeline.run(n, {.times = options.phases}, plan, pack, launch, deliver);
  });
}

void mlkem_encaps(int k, size_t n, const uint8_t* ek, const uint8_t* m, uint8_t* c, uint8_t* key, uint8_t* ok,
                  const PqGpuOptions& options) {
  if (n == 0) return;
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    // in: ek | m; out: c | key | ok.
    auto plan_of = [](size_t end, size_t cnt) {
      return ChunkPlan{end, align64(cnt * P::ek_bytes) + cnt * 32, align64(cnt * P::c_bytes) + align64(cnt * 32) + cnt,
                       encaps_scratch<K>(cnt)};
    };
    const auto plan =
        fixed_chunks(n, KEM_MIN_CHUNK, KEM_MAX_CHUNK, options.memory_budget, plan_of, "ML-KEM encapsulation");
    auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
      const size_t cnt = p.end - first;
      parallel_copy(h, ek + first * P::ek_bytes, cnt * P::ek_bytes);
      parallel_copy(h + align64(cnt * P::ek_bytes), m + first * 32, cnt * 32);
    };
    auto launch = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
      const size_t cnt = p.end - first;
      uint8_t* o = s.dev_out;
      encaps_chunk<K>(s.stream, *s.phases, cnt, s.dev_in, s.dev_in + align64(cnt * P::ek_bytes), o,
                      o + align64(cnt * P::c_bytes), o + align64(cnt * P::c_bytes) + align64(cnt * 32), s.dev_scratch);
    };
    auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
      const size_t cnt = p.end - first;
      parallel_copy(c + first * P::c_bytes, h, cnt * P::c_bytes);
      std::memcpy(key + first * 32, h + align64(cnt * P::c_bytes), cnt * 32);
      std::memcpy(ok + first, h + align64(cnt * P::c_bytes) + align64(cnt * 32), cnt);
    };
    pq_context<KemTag>(options.memory_budget)->pipeline.run(n, {.times = options.phases}, plan, pack, launch, deliver);
  });
}

void mlkem_decaps(int k, size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* key, uint8_t* ok,
                  const PqGpuOptions& options) {
  if (n == 0) return;
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    // in: dk | c; out: key | ok.
    auto plan_of = [](size_t end, size_t cnt) {
      return ChunkPlan{end, align64(cnt * P::dk_bytes) + cnt * P::c_bytes, align64(cnt * 32) + cnt,
                       decaps_scratch<K>(cnt)};
    };
    const auto plan =
        fixed_chunks(n, KEM_MIN_CHUNK, KEM_MAX_CHUNK, options.memory_budget, plan_of, "ML-KEM decapsulation");
    auto pack = [&](size_t first, const ChunkPlan& p, uint8_t* h) {
      const size_t cnt = p.end - first;
      parallel_copy(h, dk + first * P::dk_bytes, cnt * P::dk_bytes);
      parallel_copy(h + align64(cnt * P::dk_bytes), c + first * P::c_bytes, cnt * P::c_bytes);
    };
    auto launch = [&](BatchSlot& s, size_t first, const ChunkPlan& p) {
      const size_t cnt = p.end - first;
      decaps_chunk<K>(s.stream, *s.phases, cnt, s.dev_in, s.dev_in + align64(cnt * P::dk_bytes), s.dev_out,
                      s.dev_out + align64(cnt * 32), s.dev_scratch);
    };
    auto deliver = [&](size_t first, const ChunkPlan& p, const uint8_t* h) {
      const size_t cnt = p.end - first;
      std::memcpy(key + first * 32, h, cnt * 32);
      std::memcpy(ok + first, h + align64(cnt * 32), cnt);
    };
    pq_context<KemTag>(options.memory_budget)->pipeline.run(n, {.times = options.phases}, plan, pack, launch, deliver);
  });
}

// ---- device-pointer calls: the same chunks on the caller's buffers and stream -----------------

void mlkem_keygen_device(int k, size_t n, const uint8_t* seeds, uint8_t* ek, uint8_t* dk, void* stream,
                         const PqGpuOptions& options) {
  const auto st = static_cast<cudaStream_t>(stream);
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    auto launch = [&](size_t first, size_t m, uint8_t* x, PhaseProfiler& ph) {
      keygen_chunk<K>(st, ph, m, seeds + first * 64, ek + first * P::ek_bytes, dk + first * P::dk_bytes, x);
    };
    pq_device::run_on_stream(n, KEM_DEVICE_CHUNK, st, options, keygen_scratch<K>, launch, "ML-KEM key generation");
  });
}

void mlkem_encaps_device(int k, size_t n, const uint8_t* ek, const uint8_t* m, uint8_t* c, uint8_t* key,
                         uint8_t* status, void* stream, const PqGpuOptions& options) {
  const auto st = static_cast<cudaStream_t>(stream);
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    auto launch = [&](size_t first, size_t cnt, uint8_t* x, PhaseProfiler& ph) {
      uint8_t *ci = c + first * P::c_bytes, *ki = key + first * 32, *si = status + first;
      encaps_chunk<K>(st, ph, cnt, ek + first * P::ek_bytes, m + first * 32, ci, ki, si, x);
      pq_device::finish_statuses(st, cnt, si, {ci, P::c_bytes}, {ki, 32});
      ph.mark("status");
    };
    pq_device::run_on_stream(n, KEM_DEVICE_CHUNK, st, options, encaps_scratch<K>, launch, "ML-KEM encapsulation");
  });
}

void mlkem_encaps_random_device(int k, size_t n, const uint8_t* ek, uint8_t* c, uint8_t* key, uint8_t* status,
                                void* stream, const PqGpuOptions& options) {
  if (n == 0) return;
  const auto st = static_cast<cudaStream_t>(stream);
  std::vector<uint8_t> m(n * 32);
  fill_random(m.data(), m.size());
  StreamBuffer<uint8_t> dm(m.size(), st, "ML-KEM encapsulation messages");
  // From pageable memory: returns once the bytes are staged, so `m` may go when this call returns.
  ZKGPU_CUDA_CHECK(cudaMemcpyAsync(dm.data(), m.data(), m.size(), cudaMemcpyHostToDevice, st));
  mlkem_encaps_device(k, n, ek, dm.data(), c, key, status, stream, options);
}

void mlkem_decaps_device(int k, size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* key, uint8_t* status,
                         void* stream, const PqGpuOptions& options) {
  const auto st = static_cast<cudaStream_t>(stream);
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    auto launch = [&](size_t first, size_t cnt, uint8_t* x, PhaseProfiler& ph) {
      uint8_t *ki = key + first * 32, *si = status + first;
      decaps_chunk<K>(st, ph, cnt, dk + first * P::dk_bytes, c + first * P::c_bytes, ki, si, x);
      pq_device::finish_statuses(st, cnt, si, {ki, 32});
      ph.mark("status");
    };
    pq_device::run_on_stream(n, KEM_DEVICE_CHUNK, st, options, decaps_scratch<K>, launch, "ML-KEM decapsulation");
  });
}

}  // namespace zkgpu::cuda
