// The window reduction (reduction.cuh): stage 1 on lanes and the first folds in one kernel, folds
// down to a few pairs per window on the device, then the host's last folds and Horner's rule.
// (Horner's c doublings per window are a serial chain, which one CPU core runs faster than one GPU
// thread; the window table already put every window at its weight.)
#include <vector>

#include "msm/bucket_reduce.hpp"
#include "msm/cuda/reduction.cuh"
#include "msm/plan.hpp"

namespace zkgpu::bls12_377::cuda {

namespace {

// Folds the pairs X, Y, U[0, n) in place in groups of `group` consecutive pairs (a power of two)
// down to one pair per group, at index g * group; pairs from `valid` on are never read (groups
// are wholly valid or not). The thread of fold lane `lane` (FOLD_X, FOLD_Y, FOLD_U; others idle)
// and index i takes step i of each level, pairs a = 2*s*i and a + s.
__device__ void fold_block(TeExtended* X, TeExtended* Y, TeExtended* U, uint32_t n, uint32_t group, uint32_t valid,
                           unsigned lane, unsigned i) {
  ZKGPU_NO_UNROLL
  for (uint32_t s = 1; s < group; s *= 2) {
    const uint32_t a = 2 * s * i;
    if (lane <= FOLD_U && a < n && a < valid) {
      const TeExtended r = fold_lane(lane, X[a], Y[a], U[a], X[a + s], Y[a + s], U[a + s]);
      (lane == FOLD_X ? X : lane == FOLD_Y ? Y : U)[a] = r;
    }
    __syncthreads();
  }
}

// Bucket reduction (core/bls12_377/bucket_reduce.hpp), stage 1 and the first folds. A block holds
// LANE_PARTS parts, part = blockIdx.x * LANE_PARTS + i, the (part % P)-th of its window's P parts:
// buckets window_first + part % P + r * P, r < len (interleaved, so a warp reads consecutive
// buckets). One warp per lane of them: warp l is lane l of every part (part_lane_operand), so a
// warp's threads take the same formula, and a part's chain is about len dependent additions
// instead of 2*len in one thread. Lane 0's running sum goes to lane 1 through shared memory, one
// barrier per step. Then the block's pairs (x = y = T, u = V) are folded in shared memory in
// groups of `group` consecutive pairs (group = min(LANE_PARTS, P): groups never cross windows):
// lane 0's warp takes x (threads 0-15) and y (16-31), lane 1's warp u; each group's pair goes to
// xo/yo/uo[blockIdx.x * LANE_PARTS / group + g].
// Every addition of the kernel, whatever the phase, goes through the one te_add call in its loop:
// one copy of the adder (about 80 KB of code) instead of three keeps it in the instruction cache
// while the blocks of an SM are in different phases.
// (This replaced one thread per part holding run, acc and both bucket values: 190 registers, 8
// warps per SM, 0.89 ms of the 1.81 ms reduction at 2^20 on the H200, IPC 1.12.)
constexpr unsigned LANE_PARTS = gpu_plan::LANE_PARTS;
// Warps per SM the register cap leaves room for: 12 (168 registers; the H200 register file holds
// two warps per scheduler above that, three up to it).
constexpr unsigned LANE_WARPS_PER_SM = 12;
__global__ void __launch_bounds__(LANE_PARTS* PART_LANES, LANE_WARPS_PER_SM / PART_LANES)
    bucket_lanes_kernel(const TeExtended* buckets, uint32_t len, uint32_t parts_per_window, uint32_t total_parts,
                        uint32_t group, TeExtended* xo, TeExtended* yo, TeExtended* uo) {
  // xchg[parity * LANE_PARTS + i]: lane 0's state after a step of that parity, for lane 1; X, Y, U:
  // the pairs the folds work on.
  __shared__ alignas(16) unsigned char smem[5 * LANE_PARTS * sizeof(TeExtended)];
  TeExtended* xchg = reinterpret_cast<TeExtended*>(smem);
  TeExtended* X = xchg + 2 * LANE_PARTS;
  TeExtended* Y = X + LANE_PARTS;
  TeExtended* U = Y + LANE_PARTS;
  const unsigned lane = threadIdx.x / LANE_PARTS, i = threadIdx.x % LANE_PARTS;
  const uint32_t first = blockIdx.x * LANE_PARTS, part = first + i;
  const bool live = part < total_parts;  // all but a last block of small windows (P * ... < LANE_PARTS)
  // Fold lanes: on lane 0's warp x (threads 0-15) and y (16-31) of steps 0-15 (a level of 16 steps
  // fills it; on two warps, each would run every addition half empty), on lane 1's warp u.
  const unsigned fold = lane == 0 ? (i < LANE_PARTS / 2 ? FOLD_X : FOLD_Y) : FOLD_U;
  const unsigned step = lane == 0 ? i % (LANE_PARTS / 2) : i;
  const size_t bucket0 =
      static_cast<size_t>(part / parts_per_window) * parts_per_window * len + part % parts_per_window;
  const TeExtended* b = buckets + bucket0;
  uint32_t levels = 0;
  while ((1u << levels) < group) ++levels;
  const uint32_t steps = part_steps(len), ops = steps + 2 * levels;
  TeExtended state = TeExtended::identity();
  ZKGPU_NO_UNROLL
  for (uint32_t op = 0; op < ops; ++op) {
    TeExtended q;
    bool add = false;
    uint32_t a = 0;    // fold ops: the pair this thread's step writes
    if (op < steps) {  // running sums on lanes
      add = live && part_lane_operand(lane, op, len, parts_per_window, b, &xchg[((op - 1) & 1) * LANE_PARTS + i], q);
    } else {  // fold level f / 2, addition f % 2
      const uint32_t f = op - steps, s = 1u << (f / 2);
      a = 2 * s * step;
      add = a < LANE_PARTS && first + a < total_parts &&
            fold_operand(fold, static_cast<int>(f % 2), X[a], Y[a], U[a], X[a + s], Y[a + s], U[a + s], state, q);
    }
    if (add) state = te_add(state, q);
    if (op + 1 < steps && lane == 0) xchg[(op & 1) * LANE_PARTS + i] = state;
    if (op + 1 == steps) {
      if (lane == 0) X[i] = Y[i] = state;
      if (lane == 1) U[i] = state;
    }
    if (op >= steps && add && (fold == FOLD_U || (op - steps) % 2 == 1))
      (fold == FOLD_X ? X : fold == FOLD_Y ? Y : U)[a] = state;
    __syncthreads();
  }
  const uint32_t per_block = LANE_PARTS / group;
  if (threadIdx.x < per_block && first + threadIdx.x * group < total_parts) {
    xo[blockIdx.x * per_block + threadIdx.x] = X[threadIdx.x * group];
    yo[blockIdx.x * per_block + threadIdx.x] = Y[threadIdx.x * group];
    uo[blockIdx.x * per_block + threadIdx.x] = U[threadIdx.x * group];
  }
}

// Stage 2: the pairs of one block (blockDim.x / FOLD_LANES_PER_STEP * 2 consecutive pairs of one
// window) folded by halves in place (global memory: __syncthreads makes the block's writes
// visible to the block); the block's pair goes to xo/yo/uo[blockIdx.x]. Thread t takes fold lane
// t % 3 of step t / 3 (fold_lane: the same instructions for x, y and u, so no divergence).
// (The x and y formulas as two branches of one warp ran one after the other and each held its own
// copy of the adder: on the H200, 64 us per halving, 30 us per addition in the one-warp levels,
// most of it instruction fetch; 1.03 ms of the 1.81 ms reduction at 2^20.)
constexpr unsigned FOLD_LANES_PER_STEP = 3;
__global__ void weighted_fold_kernel(TeExtended* x, TeExtended* y, TeExtended* u, TeExtended* xo, TeExtended* yo,
                                     TeExtended* uo) {
  const uint32_t g = blockDim.x / FOLD_LANES_PER_STEP * 2;  // pairs
  const size_t base = static_cast<size_t>(blockIdx.x) * g;
  fold_block(x + base, y + base, u + base, g, g, g, threadIdx.x % FOLD_LANES_PER_STEP,
             threadIdx.x / FOLD_LANES_PER_STEP);
  if (threadIdx.x == 0) {
    xo[blockIdx.x] = x[base];
    yo[blockIdx.x] = y[base];
    uo[blockIdx.x] = u[base];
  }
}

// Stage 1 and the device's folds (plan.fold_groups); returns the pairs they leave, x, y and u in
// thirds, copied back on `stream` (which the caller synchronises).
std::vector<TeExtended> reduce_on_device(Workspace& ws, const gpu_plan::MsmPlan& plan, cudaStream_t stream) {
  TeExtended* px[2] = {ws.parts[0].data(), ws.parts[1].data()};
  // The lanes kernel's shared memory (30 KB per block) must not be what limits it to fewer blocks
  // per SM than its registers allow.
  static const bool carveout = [] {
    ZKGPU_CUDA_CHECK(cudaFuncSetAttribute(bucket_lanes_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
    return true;
  }();
  (void)carveout;
  const uint32_t parts = plan.parts;
  size_t remaining = plan.lane_pairs;  // pairs in px[src]: x, y, u one after the other
  bucket_lanes_kernel<<<rt::ceil_div(parts, LANE_PARTS), LANE_PARTS * PART_LANES, 0, stream>>>(
      ws.buckets.data(), plan.reduce_len, plan.parts_per_window, parts, plan.group, px[0], px[0] + remaining,
      px[0] + 2 * remaining);
  ZKGPU_CUDA_CHECK_LAUNCH();
  int src = 0;
  for (const uint32_t g : plan.fold_groups) {
    const size_t blocks = remaining / g;
    TeExtended* in = px[src];
    TeExtended* out = px[src ^ 1];
    weighted_fold_kernel<<<static_cast<unsigned>(blocks), g / 2 * FOLD_LANES_PER_STEP, 0, stream>>>(
        in, in + remaining, in + 2 * remaining, out, out + blocks, out + 2 * blocks);
    ZKGPU_CUDA_CHECK_LAUNCH();
    remaining = blocks;
    src ^= 1;
  }
  std::vector<TeExtended> last(3 * remaining);
  ZKGPU_CUDA_CHECK(
      cudaMemcpyAsync(last.data(), px[src], last.size() * sizeof(TeExtended), cudaMemcpyDeviceToHost, stream));
  return last;
}

// The host's folds of the pairs left (the kernels' fold order, on one thread: fold_pair), the
// window sums, and Horner over the windows (a serial chain of W*c doublings).
TeExtended combine_on_host(const std::vector<TeExtended>& last, const gpu_plan::MsmPlan& plan) {
  const unsigned BW = plan.bucket_sets;
  const uint32_t per_window = plan.host_pairs_per_window;
  const size_t remaining = last.size() / 3;
  std::vector<TeExtended> window_sums(BW);
  for (unsigned w = 0; w < BW; ++w) {
    std::vector<FoldPair> pw(per_window);
    for (uint32_t a = 0; a < per_window; ++a) {
      const size_t k = size_t{w} * per_window + a;
      pw[a] = {last[k], last[remaining + k], last[2 * remaining + k]};
    }
    for (uint32_t s = 1; s < per_window; s *= 2)
      for (uint32_t a = 0; a < per_window; a += 2 * s) fold_pair(pw[a], pw[a + s]);
    window_sums[w] = window_sum(pw[0], plan.parts_per_window);
  }
  TeExtended result = plan.shared ? window_sums[0] : TeExtended::identity();
  for (unsigned w = BW; !plan.shared && w-- > 0;) {
    for (unsigned k = 0; k < plan.c; ++k) result = te_double(result);
    result = te_add(result, window_sums[w]);
  }
  return result;
}

}  // namespace

TeExtended reduce_buckets(Workspace& ws, const gpu_plan::MsmPlan& plan, ::zkgpu::cuda::PhaseProfiler& phases,
                          cudaStream_t stream) {
  const std::vector<TeExtended> last = reduce_on_device(ws, plan, stream);
  phases.mark("reduce");
  ZKGPU_CUDA_CHECK(cudaStreamSynchronize(stream));
  const TeExtended result = combine_on_host(last, plan);
  // Recorded on the idle stream: the phase is the host's folds and Horner's rule.
  phases.mark("host folds");
  return result;
}

}  // namespace zkgpu::bls12_377::cuda
