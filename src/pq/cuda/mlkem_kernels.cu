// ML-KEM batch kernels: thin loops over src/core/mlkem (one thread per item, the same functions
// the CPU backend calls), so GPU results are byte-identical to the CPU by construction. A first,
// correct version: the per-item polynomials live in local memory; splitting the NTTs and Keccak
// across a warp is the next step.
#include "core/mlkem/kem.hpp"
#include "pq/cuda/pq_launch.cuh"
#include "pq/pq_cuda.hpp"

namespace zkgpu::cuda {

namespace {
using namespace pq_launch;

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


template <class F>
void with_rank(int k, F&& f) {
  if (k == 2) return f.template operator()<2>();
  if (k == 3) return f.template operator()<3>();
  if (k == 4) return f.template operator()<4>();
  throw_invalid("ML-KEM rank must be 2, 3 or 4");
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

}  // namespace zkgpu::cuda
