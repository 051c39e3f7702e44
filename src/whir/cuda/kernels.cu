// Kernels of the GPU WHIR prover: thin drivers over the include/zkgpu/core field arithmetic (see kernels.cuh).
#include <string>

#include "runtime/cuda/runtime.cuh"
#include "whir/cuda/kernels.cuh"

namespace zkgpu::whir::cuda {
namespace {

using zkgpu::cuda::ceil_div;

constexpr unsigned THREADS = 256;
constexpr unsigned WARPS = THREADS / 32;

// 16-byte accesses for extension elements (cudaMalloc memory and every offset used are aligned).
__device__ __forceinline__ EF ld(const EF* p, size_t i) {
  const uint4 v = reinterpret_cast<const uint4*>(p)[i];
  return EF{{BabyBear{v.x}, BabyBear{v.y}, BabyBear{v.z}, BabyBear{v.w}}};
}
__device__ __forceinline__ BabyBear ld(const BabyBear* p, size_t i) { return p[i]; }
__device__ __forceinline__ void st(EF* p, size_t i, const EF& a) {
  reinterpret_cast<uint4*>(p)[i] = make_uint4(a.c[0].v, a.c[1].v, a.c[2].v, a.c[3].v);
}

// The bind of spec §1, exactly as poly.cpp computes it.
__device__ __forceinline__ EF bind1(BabyBear lo, BabyBear hi, const EF& r) {
  EF v = r * (hi - lo);
  v.c[0] += lo;
  return v;
}
__device__ __forceinline__ EF bind1(const EF& lo, const EF& hi, const EF& r) { return lo + r * (hi - lo); }

__device__ __forceinline__ EF warp_sum(EF a) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    EF o;
#pragma unroll
    for (int i = 0; i < 4; ++i) o.c[i].v = __shfl_down_sync(0xffffffffu, a.c[i].v, off);
    a += o;
  }
  return a;
}

// Every thread of the (THREADS-wide) block must call this; thread 0 writes out[0], out[1].
__device__ __forceinline__ void block_sum2(EF a, EF b, EF* out) {
  __shared__ EF sa[WARPS], sb[WARPS];
  a = warp_sum(a);
  b = warp_sum(b);
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    sa[warp] = a;
    sb[warp] = b;
  }
  __syncthreads();
  if (warp == 0) {
    a = lane < WARPS ? sa[lane] : EF::zero();
    b = lane < WARPS ? sb[lane] : EF::zero();
    a = warp_sum(a);
    b = warp_sum(b);
    if (lane == 0) {
      st(out, 0, a);
      st(out, 1, b);
    }
  }
}

unsigned reduce_grid(size_t work) {
  const size_t b = (work + THREADS - 1) / THREADS;
  return static_cast<unsigned>(b == 0 ? 1 : (b < REDUCE_BLOCKS ? b : REDUCE_BLOCKS));
}

// ---- transpose ----

template <class E>
__global__ void transpose_narrow_kernel(const E* __restrict__ in, E* __restrict__ out, size_t rows, unsigned log_cols,
                                        size_t total) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total; i += size_t(gridDim.x) * blockDim.x) {
    const size_t j = i >> log_cols, c = i & ((size_t(1) << log_cols) - 1);
    out[i] = in[c * rows + j];
  }
}

// 32 x 32 tiles through shared memory: coalesced on both sides.
template <class E>
__global__ void transpose_tiled_kernel(const E* __restrict__ in, E* __restrict__ out, size_t rows, size_t cols) {
  __shared__ E tile[32][33];
  const size_t j0 = size_t(blockIdx.x) * 32, c0 = size_t(blockIdx.y) * 32;
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  for (unsigned y = ty; y < 32; y += 8) {
    const size_t c = c0 + y, j = j0 + tx;
    if (c < cols && j < rows) tile[y][tx] = in[c * rows + j];
  }
  __syncthreads();
  for (unsigned y = ty; y < 32; y += 8) {
    const size_t j = j0 + y, c = c0 + tx;
    if (j < rows && c < cols) out[j * cols + c] = tile[tx][y];
  }
}

template <class E>
void transpose_impl(const E* in, E* out, size_t rows, size_t cols, cudaStream_t s) {
  if (rows == 0 || cols == 0 || (cols & (cols - 1)) != 0)
    throw_invalid("WHIR transpose: cols must be a power of two, got " + std::to_string(cols));
  if (cols < 8) {
    const unsigned log_cols = static_cast<unsigned>(__builtin_ctzll(cols));
    const size_t total = rows * cols;
    const size_t blocks = (total + THREADS - 1) / THREADS;
    transpose_narrow_kernel<E>
        <<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), THREADS, 0, s>>>(in, out, rows, log_cols, total);
  } else {
    const size_t gx = (rows + 31) / 32, gy = (cols + 31) / 32;
    if (gx > 0x7fffffffull || gy > 65535) throw_invalid("WHIR transpose: matrix too large for one launch");
    transpose_tiled_kernel<E>
        <<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), dim3(32, 8), 0, s>>>(in, out, rows, cols);
  }
  ZKGPU_CUDA_CHECK_LAUNCH();
}

// ---- sumcheck ----

template <class T>
__global__ void __launch_bounds__(THREADS)
    sumcheck_kernel(const T* __restrict__ t, const EF* __restrict__ w, size_t h, EF* __restrict__ partials) {
  EF a0 = EF::zero(), a2 = EF::zero();
  for (size_t i = blockIdx.x * size_t(THREADS) + threadIdx.x; i < h; i += size_t(gridDim.x) * THREADS) {
    const T tl = ld(t, i), th = ld(t, i + h);
    const EF wl = ld(w, i), wh = ld(w, i + h);
    a0 += wl * tl;
    const T t2 = th + th - tl;
    a2 += (wh + wh - wl) * t2;
  }
  block_sum2(a0, a2, partials + 2 * size_t(blockIdx.x));
}

template <class T>
unsigned sumcheck_impl(const T* t, const EF* w, size_t len, EF* partials, cudaStream_t s) {
  if (len < 2 || len % 2 != 0) throw_invalid("WHIR sumcheck: table length must be even and >= 2");
  const size_t h = len / 2;
  const unsigned grid = reduce_grid(h);
  sumcheck_kernel<T><<<grid, THREADS, 0, s>>>(t, w, h, partials);
  ZKGPU_CUDA_CHECK_LAUNCH();
  return grid;
}

// Output length h = len/2, q = h/2. Thread i owns input positions i, i+q, i+h, i+h+q and output
// positions i, i+q of both tables, so binding in place is race-free; it also accumulates the next
// round's coefficients from the two outputs it produced (a lo/hi pair of the next round).
template <class T>
__global__ void __launch_bounds__(THREADS)
    bind_kernel(const T* t_in, EF* t_out, EF* w, size_t h, EF r, EF* __restrict__ partials) {
  if (h == 1) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      const EF t0 = bind1(ld(t_in, 0), ld(t_in, 1), r);
      const EF w0 = bind1(ld(w, 0), ld(w, 1), r);
      st(t_out, 0, t0);
      st(w, 0, w0);
    }
    return;  // uniform across the grid: no block reaches the reduction
  }
  const size_t q = h / 2;
  EF a0 = EF::zero(), a2 = EF::zero();
  for (size_t i = blockIdx.x * size_t(THREADS) + threadIdx.x; i < q; i += size_t(gridDim.x) * THREADS) {
    const T l0 = ld(t_in, i), l1 = ld(t_in, i + q), h0 = ld(t_in, i + h), h1 = ld(t_in, i + h + q);
    const EF wl0 = ld(w, i), wl1 = ld(w, i + q), wh0 = ld(w, i + h), wh1 = ld(w, i + h + q);
    const EF t0 = bind1(l0, h0, r), t1 = bind1(l1, h1, r);
    const EF w0 = bind1(wl0, wh0, r), w1 = bind1(wl1, wh1, r);
    st(t_out, i, t0);
    st(t_out, i + q, t1);
    st(w, i, w0);
    st(w, i + q, w1);
    a0 += w0 * t0;
    a2 += (w1 + w1 - w0) * (t1 + t1 - t0);
  }
  block_sum2(a0, a2, partials + 2 * size_t(blockIdx.x));
}

template <class T>
unsigned bind_impl(const T* t_in, EF* t_out, EF* w, size_t len, const EF& r, EF* partials, cudaStream_t s) {
  if (len < 2 || len % 2 != 0) throw_invalid("WHIR bind: table length must be even and >= 2");
  const size_t h = len / 2;
  const unsigned grid = h == 1 ? 1 : reduce_grid(h / 2);
  bind_kernel<T><<<grid, THREADS, 0, s>>>(t_in, t_out, w, h, r, partials);
  ZKGPU_CUDA_CHECK_LAUNCH();
  return h >= 2 ? grid : 0;
}

__global__ void __launch_bounds__(THREADS)
    reduce_kernel(const EF* __restrict__ partials, unsigned n, EF* __restrict__ out) {
  EF a = EF::zero(), b = EF::zero();
  for (unsigned i = threadIdx.x; i < n; i += THREADS) {
    a += ld(partials, 2 * size_t(i));
    b += ld(partials, 2 * size_t(i) + 1);
  }
  block_sum2(a, b, out);
}

// ---- multilinear evaluation ----

template <class T>
__global__ void __launch_bounds__(THREADS)
    eq_dot_kernel(const T* __restrict__ t, size_t len, const EF* __restrict__ hi, const EF* __restrict__ lo,
                  unsigned lo_bits, EF* __restrict__ partials) {
  const size_t mask = (size_t(1) << lo_bits) - 1;
  EF a = EF::zero();
  for (size_t j = blockIdx.x * size_t(THREADS) + threadIdx.x; j < len; j += size_t(gridDim.x) * THREADS)
    a += (ld(hi, j >> lo_bits) * ld(lo, j & mask)) * ld(t, j);
  block_sum2(a, EF::zero(), partials + 2 * size_t(blockIdx.x));
}

// The same sum factored by rows of the hi/lo split: sum_h hi[h] * (sum_l lo[l] * t[h*L + l]). The
// inner products are extension-by-base (4 multiplications) for a base table instead of an
// extension product per entry, and the hi factor is applied once per row and thread. Field sums are
// exact, so the result equals eq_dot_kernel's. Needs L = 2^lo_bits >= THREADS.
template <class T>
__global__ void __launch_bounds__(THREADS)
    eq_dot_rows_kernel(const T* __restrict__ t, size_t hi_len, const EF* __restrict__ hi, const EF* __restrict__ lo,
                       unsigned lo_bits, EF* __restrict__ partials) {
  const size_t lo_len = size_t(1) << lo_bits;
  EF a = EF::zero();
  for (size_t h = blockIdx.x; h < hi_len; h += gridDim.x) {
    const T* row = t + (h << lo_bits);
    EF part = EF::zero();
    for (size_t l = threadIdx.x; l < lo_len; l += THREADS) part += ld(lo, l) * ld(row, l);
    a += ld(hi, h) * part;
  }
  block_sum2(a, EF::zero(), partials + 2 * size_t(blockIdx.x));
}

template <class T>
unsigned eq_dot_impl(const T* t, size_t len, const EF* hi, const EF* lo, unsigned lo_bits, EF* partials,
                     cudaStream_t s) {
  if (len == 0) throw_invalid("WHIR evaluate: empty table");
  if ((size_t(1) << lo_bits) >= THREADS) {
    const size_t hi_len = len >> lo_bits;
    const unsigned grid = static_cast<unsigned>(hi_len < REDUCE_BLOCKS ? hi_len : REDUCE_BLOCKS);
    eq_dot_rows_kernel<T><<<grid, THREADS, 0, s>>>(t, hi_len, hi, lo, lo_bits, partials);
    ZKGPU_CUDA_CHECK_LAUNCH();
    return grid;
  }
  const unsigned grid = reduce_grid(len);
  eq_dot_kernel<T><<<grid, THREADS, 0, s>>>(t, len, hi, lo, lo_bits, partials);
  ZKGPU_CUDA_CHECK_LAUNCH();
  return grid;
}

// ---- weights ----

constexpr unsigned WEIGHT_STEPS = 16;  // entries per thread, THREADS apart: z^j advances by z^THREADS

__global__ void __launch_bounds__(THREADS) add_weights_kernel(WeightsArgs a) {
  constexpr size_t TILE = size_t(THREADS) * WEIGHT_STEPS;
  const size_t mask = (size_t(1) << a.lo_bits) - 1;
  const size_t hi_len = a.len >> a.lo_bits, lo_len = size_t(1) << a.lo_bits;
  for (size_t base = blockIdx.x * TILE; base < a.len; base += size_t(gridDim.x) * TILE) {
    const size_t j0 = base + threadIdx.x;
    EF acc[WEIGHT_STEPS];
#pragma unroll
    for (unsigned s = 0; s < WEIGHT_STEPS; ++s) {
      const size_t j = j0 + size_t(s) * THREADS;
      acc[s] = j < a.len ? ld(a.w, j) : EF::zero();
    }
    for (unsigned p = 0; p < a.n_eq; ++p) {
      const EF* hi = a.hi + p * hi_len;
      const EF* lo = a.lo + p * lo_len;
#pragma unroll
      for (unsigned s = 0; s < WEIGHT_STEPS; ++s) {
        const size_t j = j0 + size_t(s) * THREADS;
        if (j < a.len) acc[s] += ld(hi, j >> a.lo_bits) * ld(lo, j & mask);
      }
    }
    for (unsigned l = 0; l < a.n_sel; ++l) {
      const BabyBear z = a.z[l];
      BabyBear step = z;
#pragma unroll
      for (unsigned b = 1; b < THREADS; b <<= 1) step = step.square();  // z^THREADS
      EF c = ld(a.scale, l) * z.pow(j0);
#pragma unroll
      for (unsigned s = 0; s < WEIGHT_STEPS; ++s) {
        acc[s] += c;  // beyond len: accumulated but never stored
        c = c * step;
      }
    }
#pragma unroll
    for (unsigned s = 0; s < WEIGHT_STEPS; ++s) {
      const size_t j = j0 + size_t(s) * THREADS;
      if (j < a.len) st(a.w, j, acc[s]);
    }
  }
}

// ---- openings ----

__global__ void open_rows_kernel(const BabyBear* __restrict__ matrix, size_t rows, size_t cols,
                                 const Digest* __restrict__ nodes, unsigned log_rows,
                                 const uint64_t* __restrict__ indices, BabyBear* __restrict__ out) {
  const size_t q = blockIdx.x;
  const uint64_t idx = indices[q];
  const size_t stride = cols + 8 * size_t(log_rows);
  BabyBear* o = out + q * stride;
  for (size_t k = threadIdx.x; k < stride; k += blockDim.x) {
    if (k < cols) {
      o[k] = matrix[idx * cols + k];
    } else {
      const size_t l = (k - cols) / 8, e = (k - cols) % 8;
      const size_t level_off = 2 * rows - 2 * (rows >> l);  // level l's first node
      o[k] = nodes[level_off + ((idx >> l) ^ 1)].e[e];
    }
  }
}

}  // namespace

void transpose_device(const BabyBear* in, BabyBear* out, size_t rows, size_t cols, cudaStream_t s) {
  transpose_impl<BabyBear>(in, out, rows, cols, s);
}
void transpose_device(const EF* in, EF* out, size_t rows, size_t cols, cudaStream_t s) {
  transpose_impl<uint4>(reinterpret_cast<const uint4*>(in), reinterpret_cast<uint4*>(out), rows, cols, s);
}

unsigned sumcheck_partials_device(const BabyBear* t, const EF* w, size_t len, EF* d_partials, cudaStream_t s) {
  return sumcheck_impl(t, w, len, d_partials, s);
}
unsigned sumcheck_partials_device(const EF* t, const EF* w, size_t len, EF* d_partials, cudaStream_t s) {
  return sumcheck_impl(t, w, len, d_partials, s);
}

unsigned bind_device(const BabyBear* t_in, EF* t_out, EF* w, size_t len, const EF& r, EF* d_partials, cudaStream_t s) {
  return bind_impl(t_in, t_out, w, len, r, d_partials, s);
}
unsigned bind_device(const EF* t_in, EF* t_out, EF* w, size_t len, const EF& r, EF* d_partials, cudaStream_t s) {
  return bind_impl(t_in, t_out, w, len, r, d_partials, s);
}

void reduce_partials_device(const EF* d_partials, unsigned n_pairs, EF* d_out, cudaStream_t s) {
  if (n_pairs == 0 || n_pairs > REDUCE_BLOCKS) throw_invalid("WHIR reduce: bad partial count");
  reduce_kernel<<<1, THREADS, 0, s>>>(d_partials, n_pairs, d_out);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

unsigned eq_dot_partials_device(const BabyBear* t, size_t len, const EF* hi, const EF* lo, unsigned lo_bits,
                                EF* d_partials, cudaStream_t s) {
  return eq_dot_impl(t, len, hi, lo, lo_bits, d_partials, s);
}
unsigned eq_dot_partials_device(const EF* t, size_t len, const EF* hi, const EF* lo, unsigned lo_bits, EF* d_partials,
                                cudaStream_t s) {
  return eq_dot_impl(t, len, hi, lo, lo_bits, d_partials, s);
}

void add_weights_device(const WeightsArgs& a, cudaStream_t s) {
  if (a.len == 0 || (a.n_eq == 0 && a.n_sel == 0)) return;
  constexpr size_t TILE = size_t(THREADS) * WEIGHT_STEPS;
  const size_t tiles = (a.len + TILE - 1) / TILE;
  add_weights_kernel<<<static_cast<unsigned>(tiles < 8192 ? tiles : 8192), THREADS, 0, s>>>(a);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

void open_rows_device(const BabyBear* d_matrix, size_t rows, size_t cols, const Digest* d_nodes,
                      const uint64_t* d_indices, size_t n, BabyBear* d_out, cudaStream_t s) {
  if (n == 0) return;
  if (rows == 0 || (rows & (rows - 1)) != 0) throw_invalid("WHIR open: rows must be a power of two");
  if (n > 0x7fffffffull) throw_invalid("WHIR open: too many indices");
  const unsigned log_rows = static_cast<unsigned>(__builtin_ctzll(rows));
  open_rows_kernel<<<static_cast<unsigned>(n), 128, 0, s>>>(d_matrix, rows, cols, d_nodes, log_rows, d_indices, d_out);
  ZKGPU_CUDA_CHECK_LAUNCH();
}

}  // namespace zkgpu::whir::cuda
