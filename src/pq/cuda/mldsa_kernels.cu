// ML-DSA batch kernels: thin loops over src/core/mldsa (one thread per item). Signing keeps the
// expanded matrix A (k*l polynomials) in local memory per thread; mu is computed on the host.
#include "core/mldsa/dsa.hpp"
#include "pq/cuda/pq_launch.cuh"
#include "pq/pq_cuda.hpp"

namespace zkgpu::cuda {

namespace {
using namespace pq_launch;

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


template <class F>
void with_level(int level, F&& f) {
  if (level == 44) return f.template operator()<mldsa::P44>();
  if (level == 65) return f.template operator()<mldsa::P65>();
  if (level == 87) return f.template operator()<mldsa::P87>();
  throw_invalid("ML-DSA level must be 44, 65 or 87");
}

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
