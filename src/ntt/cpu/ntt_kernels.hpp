// The NTT loops, written once over a packed field type P (PackedScalar, PackedAvx2,
// PackedAvx512) and instantiated by one file per instruction set. Everything here has internal
// linkage (anonymous namespace): the same inline code compiled with different -m flags must not
// be merged by the linker across those files.
//
// Layout: every kernel works on a row-major block of W-wide rows, and a butterfly between two
// rows applies one scalar twiddle to the whole row, so the packed lanes run along the row. A row
// holds c matrix columns times a chunk of q independent sub-transforms, which is how cols == 1
// still fills the vectors (four-step view below).
#pragma once
#include <omp.h>

#include "ntt/cpu/ntt_plan.hpp"

namespace zkgpu::cpu::ntt_detail {
namespace {

inline uint32_t bit_reverse(uint32_t x, unsigned bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  x = (x >> 16) | (x << 16);
  return x >> (32 - bits);
}

template <class P>
struct Kernels {
  static constexpr size_t L = P::LANES;

  // Rows here are short (tens to hundreds of bytes): an inlined vector copy beats a libc call.
  static void copy_elems(BabyBear* dst, const BabyBear* src, size_t n) {
    size_t i = 0;
    for (; i + L <= n; i += L) P::load(src + i).store(dst + i);
    for (; i < n; ++i) dst[i] = src[i];
  }

  static void mul_row(BabyBear* x, const BabyBear* f, size_t w) {
    size_t i = 0;
    for (; i + L <= w; i += L) (P::load(x + i) * P::load(f + i)).store(x + i);
    for (; i < w; ++i) x[i] *= f[i];
  }
  static void scale_row(BabyBear* x, BabyBear s, size_t w) {
    P sv = P::broadcast(s);
    size_t i = 0;
    for (; i + L <= w; i += L) (P::load(x + i) * sv).store(x + i);
    for (; i < w; ++i) x[i] *= s;
  }

  // Radix-2 DIT butterfly with twiddle 1: (a, b) -> (a + b, a - b).
  static void bfly_plain(BabyBear* r0, BabyBear* r1, size_t w) {
    size_t i = 0;
    for (; i + L <= w; i += L) {
      P a = P::load(r0 + i), b = P::load(r1 + i);
      (a + b).store(r0 + i);
      (a - b).store(r1 + i);
    }
    for (; i < w; ++i) {
      BabyBear a = r0[i], b = r1[i];
      r0[i] = a + b;
      r1[i] = a - b;
    }
  }

  // Two DIT layers at once (half sizes h and 2h) on rows r0..r3 = base + {0, h, 2h, 3h}:
  // layer h pairs (r0, r1), (r2, r3) with twiddle t1; layer 2h pairs (r0, r2) with t2 and
  // (r1, r3) with t3. One load and one store per element for two layers.
  static void bfly4(BabyBear* r0, BabyBear* r1, BabyBear* r2, BabyBear* r3, BabyBear t1, BabyBear t2, BabyBear t3,
                    size_t w) {
    P v1 = P::broadcast(t1), v2 = P::broadcast(t2), v3 = P::broadcast(t3);
    size_t i = 0;
    for (; i + L <= w; i += L) {
      P a0 = P::load(r0 + i), a1 = P::load(r1 + i) * v1, a2 = P::load(r2 + i), a3 = P::load(r3 + i) * v1;
      P b0 = a0 + a1, b1 = a0 - a1, b2 = (a2 + a3) * v2, b3 = (a2 - a3) * v3;
      (b0 + b2).store(r0 + i);
      (b0 - b2).store(r2 + i);
      (b1 + b3).store(r1 + i);
      (b1 - b3).store(r3 + i);
    }
    for (; i < w; ++i) {
      BabyBear a0 = r0[i], a1 = r1[i] * t1, a2 = r2[i], a3 = r3[i] * t1;
      BabyBear b0 = a0 + a1, b1 = a0 - a1, b2 = (a2 + a3) * t2, b3 = (a2 - a3) * t3;
      r0[i] = b0 + b2;
      r2[i] = b0 - b2;
      r1[i] = b1 + b3;
      r3[i] = b1 - b3;
    }
  }

  // In-place DIT over the rows of a (2^log_m) x w block whose rows are in bit-reversed order;
  // leaves the transform of every column in natural order. tw: layer h (half size) at tw + h - 1,
  // holding w_{2h}^k for k < h.
  static void dit(BabyBear* buf, unsigned log_m, size_t w, const BabyBear* tw) {
    const size_t m = size_t(1) << log_m;
    size_t h = 1;
    if (log_m & 1) {
      for (size_t b = 0; b < m; b += 2) bfly_plain(buf + b * w, buf + (b + 1) * w, w);
      h = 2;
    }
    for (; h < m; h *= 4) {
      const BabyBear* t1 = tw + (h - 1);
      const BabyBear* t2 = tw + (2 * h - 1);
      for (size_t b = 0; b < m; b += 4 * h)
        for (size_t k = 0; k < h; ++k) {
          BabyBear* r0 = buf + (b + k) * w;
          bfly4(r0, r0 + h * w, r0 + 2 * h * w, r0 + 3 * h * w, t1[k], t2[k], t2[k + h], w);
        }
    }
  }

  static void direct(const DirectJob& job, BabyBear* local) {
    const size_t n = size_t(1) << job.log_n, c = job.c;
    for (size_t r = 0; r < n; ++r) {
      BabyBear* dst = local + size_t(bit_reverse(uint32_t(r), job.log_n)) * c;
      copy_elems(dst, job.mat + r * job.stride, c);
      if (job.in_scale) scale_row(dst, job.in_scale[r], c);
    }
    dit(local, job.log_n, c, job.tw);
    for (size_t r = 0; r < n; ++r) {
      BabyBear* src = local + r * c;
      if (job.out_scale) scale_row(src, job.out_scale[r], c);
      copy_elems(job.mat + r * job.stride, src, c);
    }
  }

  // Four-step (Bailey): input row j = j1 n2 + j2, output row i = i1 + n1 i2,
  //   X[i1 + n1 i2] = sum_j2 w_{n2}^(i2 j2) * w^(i1 j2) * sum_j1 x[j1 n2 + j2] w_{n1}^(i1 j1).
  // Pass 1 (chunks of q values of j2): gather rows j1 (bit-reversed) into an n1 x (q c) block,
  // DIT over j1, multiply row i1 by w^(i1 j2) (a running product per column), write the block
  // transposed into scratch T[j2][i1][col]. Pass 2 (chunks of p values of i1): gather rows j2 of
  // T, DIT over j2, and row i2 of the result holds output rows n1 i2 + i1, consecutive in i1.
  // Coset factors ride along: shift^(j1 n2) on pass-1 input rows, shift^j2 as the initial value
  // of the running twiddle (it commutes with the DFT over j1); for the inverse, 1/n and
  // shift^-i1 join the running twiddle and shift^(-n1 i2) scales pass-2 output rows.
  static void four_step(const FourStepJob& job) {
    const unsigned log1 = job.log1, log2 = job.log2;
    const size_t n1 = size_t(1) << log1, n2 = size_t(1) << log2, c = job.c, stride = job.stride;
    const size_t q = job.q, p = job.p, w1 = q * c, w2 = p * c, t_row = n1 * c;
    BabyBear* const mat = job.mat;
    BabyBear* const t = job.scratch;
    constexpr size_t TILE = 16;  // rows of the block transposed together (cache lines stay in L1)
    // Per-thread blocks come from the driver: nothing here allocates (or throws) inside a
    // parallel region.
    const int threads = job.threads;

#pragma omp parallel num_threads(threads)
    {
      BabyBear* local = job.locals + size_t(omp_get_thread_num()) * job.local_elems;
      BabyBear* run = local + n1 * w1;  // running twiddle w^(i1 j2) (times coset factors)
      BabyBear* step = run + w1;
#pragma omp for schedule(dynamic)
      for (size_t j0 = 0; j0 < n2; j0 += q) {
        for (size_t j1 = 0; j1 < n1; ++j1) {
          BabyBear* dst = local + size_t(bit_reverse(uint32_t(j1), log1)) * w1;
          const BabyBear* src = mat + (j1 * n2 + j0) * stride;
          if (c == stride) {
            copy_elems(dst, src, w1);
          } else {
            for (size_t j = 0; j < q; ++j) copy_elems(dst + j * c, src + j * stride, c);
          }
          if (job.row_in_scale) scale_row(dst, job.row_in_scale[j1], w1);
        }
        dit(local, log1, w1, job.tw1);
        for (size_t j = 0; j < q; ++j) {
          BabyBear r0 = job.col_init ? job.col_init[j0 + j] : job.init_scalar;
          BabyBear s = job.step[j0 + j] * job.step_scalar;
          for (size_t k = 0; k < c; ++k) {
            run[j * c + k] = r0;
            step[j * c + k] = s;
          }
        }
        for (size_t i1 = 0; i1 < n1; ++i1) {
          mul_row(local + i1 * w1, run, w1);
          if (i1 + 1 < n1) mul_row(run, step, w1);
        }
        for (size_t ib = 0; ib < n1; ib += TILE) {
          const size_t ie = ib + TILE < n1 ? ib + TILE : n1;
          for (size_t j = 0; j < q; ++j) {
            BabyBear* trow = t + (j0 + j) * t_row;
            if (c == 1) {
              for (size_t i1 = ib; i1 < ie; ++i1) trow[i1] = local[i1 * w1 + j];
            } else {
              for (size_t i1 = ib; i1 < ie; ++i1) copy_elems(trow + i1 * c, local + i1 * w1 + j * c, c);
            }
          }
        }
      }
    }

#pragma omp parallel num_threads(threads)
    {
      BabyBear* local = job.locals + size_t(omp_get_thread_num()) * job.local_elems;
#pragma omp for schedule(dynamic)
      for (size_t k0 = 0; k0 < n1; k0 += p) {
        for (size_t r = 0; r < n2; ++r)
          copy_elems(local + size_t(bit_reverse(uint32_t(r), log2)) * w2, t + r * t_row + k0 * c, w2);
        dit(local, log2, w2, job.tw2);
        for (size_t i2 = 0; i2 < n2; ++i2) {
          BabyBear* row = local + i2 * w2;
          if (job.row_out_scale) scale_row(row, job.row_out_scale[i2], w2);
          BabyBear* dst = mat + (n1 * i2 + k0) * stride;
          if (c == stride) {
            copy_elems(dst, row, w2);
          } else {
            for (size_t i = 0; i < p; ++i) copy_elems(dst + i * stride, row + i * c, c);
          }
        }
      }
    }
  }
};

template <class P>
const NttIsa& make_isa() {
  static const NttIsa isa{P::LANES, &Kernels<P>::direct, &Kernels<P>::four_step};
  return isa;
}

}  // namespace
}  // namespace zkgpu::cpu::ntt_detail
