// ML-KEM and ML-DSA batch kernels: thin loops over src/core (one thread per item, the same
// functions the CPU backend calls), so GPU results are byte-identical to the CPU by construction.
// A first, correct version: the per-item working set (polynomials, the ML-DSA matrix) lives in
// local memory; splitting the NTTs and Keccak across a warp is the next step (see BENCHMARKS.md).
#include "core/mldsa/dsa.hpp"
#include "core/mlkem/kem.hpp"
#include "cuda/runtime.cuh"
#include "pq/pq_cuda.hpp"

namespace zkgpu::cuda {

namespace {

constexpr int PQ_THREADS = 64;  // small blocks: each thread holds kilobytes of local memory

unsigned blocks_for(size_t n) { return unsigned((n + PQ_THREADS - 1) / PQ_THREADS); }

template <int K>
__global__ void mlkem_keygen_kernel(size_t n, const uint8_t* seeds, uint8_t* ek, uint8_t* dk) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using P = mlkem::Params<K>;
  mlkem::keygen<K>(ek + i * P::ek_bytes, dk + i * P::dk_bytes, seeds + i * 64, seeds + i * 64 + 32);
}

template <int K>
__global__ void mlkem_encaps_kernel(size_t n, const uint8_t* ek, const uint8_t* m, uint8_t* c, uint8_t* key,
                                    uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using P = mlkem::Params<K>;
  ok[i] = mlkem::encaps<K>(c + i * P::c_bytes, key + i * 32, ek + i * P::ek_bytes, m + i * 32) ? 1 : 0;
}

template <int K>
__global__ void mlkem_decaps_kernel(size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* key, uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using P = mlkem::Params<K>;
  ok[i] = mlkem::decaps<K>(key + i * 32, dk + i * P::dk_bytes, c + i * P::c_bytes) ? 1 : 0;
}

template <class P>
__global__ void mldsa_keygen_kernel(size_t n, const uint8_t* seeds, uint8_t* pk, uint8_t* sk) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  mldsa::keygen<P>(pk + i * P::PK_BYTES, sk + i * P::SK_BYTES, seeds + i * 32);
}

template <class P>
__global__ void mldsa_sign_kernel(size_t n, const uint8_t* sk, const uint8_t* mu, const uint8_t* rnd, uint8_t* sig,
                                  uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ok[i] = mldsa::sign_mu<P>(sig + i * P::SIG_BYTES, sk + i * P::SK_BYTES, mu + i * 64, rnd + i * 32) ? 1 : 0;
}

template <class P>
__global__ void mldsa_verify_kernel(size_t n, const uint8_t* pk, const uint8_t* mu, const uint8_t* sig, uint8_t* ok) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ok[i] = mldsa::verify_mu<P>(pk + i * P::PK_BYTES, mu + i * 64, sig + i * P::SIG_BYTES) ? 1 : 0;
}

// Uploads the inputs, runs `launch(device pointers...)`, downloads the outputs.
struct Io {
  const uint8_t* host;
  size_t bytes;
  DeviceBuffer<uint8_t> dev;
};
Io in(const uint8_t* p, size_t bytes) {
  Io io{p, bytes, DeviceBuffer<uint8_t>(bytes)};
  io.dev.upload(p, bytes);
  return io;
}
Io out(uint8_t* p, size_t bytes) { return Io{p, bytes, DeviceBuffer<uint8_t>(bytes)}; }
void fetch(Io& io) { io.dev.download(const_cast<uint8_t*>(io.host), io.bytes); }
void finish() {
  ZKGPU_CUDA_CHECK_LAUNCH();
  ZKGPU_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class F>
void with_rank(int k, F&& f) {
  if (k == 2) return f.template operator()<2>();
  if (k == 3) return f.template operator()<3>();
  if (k == 4) return f.template operator()<4>();
  throw_invalid("ML-KEM rank must be 2, 3 or 4");
}
template <class F>
void with_level(int level, F&& f) {
  if (level == 44) return f.template operator()<mldsa::P44>();
  if (level == 65) return f.template operator()<mldsa::P65>();
  if (level == 87) return f.template operator()<mldsa::P87>();
  throw_invalid("ML-DSA level must be 44, 65 or 87");
}

}  // namespace

void mlkem_keygen(int k, size_t n, const uint8_t* seeds, uint8_t* ek, uint8_t* dk) {
  if (n == 0) return;
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    Io s = in(seeds, n * 64), e = out(ek, n * P::ek_bytes), d = out(dk, n * P::dk_bytes);
    mlkem_keygen_kernel<K><<<blocks_for(n), PQ_THREADS>>>(n, s.dev.data(), e.dev.data(), d.dev.data());
    finish();
    fetch(e);
    fetch(d);
  });
}

void mlkem_encaps(int k, size_t n, const uint8_t* ek, const uint8_t* m, uint8_t* c, uint8_t* key, uint8_t* ok) {
  if (n == 0) return;
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    Io e = in(ek, n * P::ek_bytes), mm = in(m, n * 32), cc = out(c, n * P::c_bytes), kk = out(key, n * 32), o = out(ok, n);
    mlkem_encaps_kernel<K><<<blocks_for(n), PQ_THREADS>>>(n, e.dev.data(), mm.dev.data(), cc.dev.data(), kk.dev.data(),
                                                         o.dev.data());
    finish();
    fetch(cc);
    fetch(kk);
    fetch(o);
  });
}

void mlkem_decaps(int k, size_t n, const uint8_t* dk, const uint8_t* c, uint8_t* key, uint8_t* ok) {
  if (n == 0) return;
  with_rank(k, [&]<int K>() {
    using P = mlkem::Params<K>;
    Io d = in(dk, n * P::dk_bytes), cc = in(c, n * P::c_bytes), kk = out(key, n * 32), o = out(ok, n);
    mlkem_decaps_kernel<K><<<blocks_for(n), PQ_THREADS>>>(n, d.dev.data(), cc.dev.data(), kk.dev.data(), o.dev.data());
    finish();
    fetch(kk);
    fetch(o);
  });
}

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

void mldsa_sign(int level, size_t n, const uint8_t* sk, const uint8_t* mu, const uint8_t* rnd, uint8_t* sig, uint8_t* ok) {
  if (n == 0) return;
  with_level(level, [&]<class P>() {
    Io k = in(sk, n * P::SK_BYTES), u = in(mu, n * 64), r = in(rnd, n * 32), s = out(sig, n * P::SIG_BYTES), o = out(ok, n);
    mldsa_sign_kernel<P><<<blocks_for(n), PQ_THREADS>>>(n, k.dev.data(), u.dev.data(), r.dev.data(), s.dev.data(),
                                                       o.dev.data());
    finish();
    fetch(s);
    fetch(o);
  });
}

void mldsa_verify(int level, size_t n, const uint8_t* pk, const uint8_t* mu, const uint8_t* sig, uint8_t* ok) {
  if (n == 0) return;
  with_level(level, [&]<class P>() {
    Io p = in(pk, n * P::PK_BYTES), u = in(mu, n * 64), s = in(sig, n * P::SIG_BYTES), o = out(ok, n);
    mldsa_verify_kernel<P><<<blocks_for(n), PQ_THREADS>>>(n, p.dev.data(), u.dev.data(), s.dev.data(), o.dev.data());
    finish();
    fetch(o);
  });
}

}  // namespace zkgpu::cuda
