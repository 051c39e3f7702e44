// Inputs from host memory (inputs.cuh): staged uploads, digits and base conversions per chunk.
#include <string>

#include "msm/cuda/digits.cuh"
#include "msm/cuda/inputs.cuh"

namespace zkgpu::bls12_377::cuda {

namespace {

// Bases [first, first + count) from host memory to the stored TE form: CONVERT_BATCH consecutive
// points per thread with one inversion (sw_to_te_batch, the function the CPU's precompute_te runs
// per thread).
constexpr uint32_t CONVERT_BATCH = 32;
__global__ void sw_to_te_kernel(const G1Affine* in, TePrecomputed* out, uint32_t first, uint32_t count, uint32_t* bad) {
  const uint32_t b = (blockIdx.x * blockDim.x + threadIdx.x) * CONVERT_BATCH;
  if (b >= count) return;
  const uint32_t m = count - b < CONVERT_BATCH ? count - b : CONVERT_BATCH;
  Fp prefix[CONVERT_BATCH];
  const size_t r = sw_to_te_batch(in + first + b, out + first + b, m, prefix);
  if (r != m) atomicMin(bad, first + b + static_cast<uint32_t>(r));
}

}  // namespace

void upload_scalars_slice(Workspace& ws, const Scalar* host, uint32_t stride, gpu_plan::Slice sl, unsigned c,
                          unsigned W, bool shared, cudaEvent_t ready) {
  cudaStream_t ds = ws.digit_stream();
  const size_t base = size_t{W} * sl.first;
  ws.gpu.uploader().upload(ws.copy_stream(), ws.scalars.data() + sl.first, host + sl.first, sl.count,
                           gpu_plan::scalar_chunk_bytes(size_t{sl.count} * sizeof(Scalar)) / sizeof(Scalar),
                           [&](size_t first, size_t count, cudaEvent_t landed) {
                             ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(ds, landed, 0));
                             launch_digits(ws.scalars.data(), static_cast<uint32_t>(sl.first + first),
                                           static_cast<uint32_t>(count), sl.first, sl.count, stride, c, W, shared,
                                           ws.keys[0].data() + base, ws.vals[0].data() + base, ws.bad.data() + 1, ds);
                           });
  ZKGPU_CUDA_CHECK(cudaEventRecord(ready, ds));
}

void upload_bases_slice(Workspace& ws, const G1Affine* host_points, gpu_plan::Slice sl, Workspace::SliceEvents& ev) {
  // Each chunk is converted as it lands, round robin over several streams: one chunk's kernel has
  // too few threads to fill the GPU and is latency-bound, so consecutive chunks' kernels must
  // overlap to keep up with the upload.
  size_t k = 0;
  ws.gpu.uploader().upload(ws.copy_stream(), ws.sw_points.data() + sl.first, host_points + sl.first, sl.count,
                           rt::PinnedUploader::STAGE_BYTES / sizeof(G1Affine),
                           [&](size_t first, size_t count, cudaEvent_t landed) {
                             cudaStream_t cs = ws.convert_stream(static_cast<int>(k++ % Workspace::CONVERT_STREAMS));
                             ZKGPU_CUDA_CHECK(cudaStreamWaitEvent(cs, landed, 0));
                             const unsigned threads = rt::ceil_div(count, CONVERT_BATCH);
                             sw_to_te_kernel<<<rt::ceil_div(threads, 64), 64, 0, cs>>>(
                                 ws.sw_points.data(), ws.points.data(), static_cast<uint32_t>(sl.first + first),
                                 static_cast<uint32_t>(count), ws.bad.data());
                             ZKGPU_CUDA_CHECK_LAUNCH();
                           });
  for (int j = 0; j < Workspace::CONVERT_STREAMS; ++j)
    ZKGPU_CUDA_CHECK(cudaEventRecord(ev.converted[j], ws.convert_stream(j)));
}

void read_bad_inputs(Workspace& ws, cudaStream_t stream) {
  ZKGPU_CUDA_CHECK(
      cudaMemcpyAsync(&ws.readback[4], ws.bad.data(), 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
}

void check_inputs(const Workspace& ws, uint32_t first) {
  constexpr uint32_t NONE = UINT32_MAX;
  // The scalar first: the CPU backend checks the scalars before it converts a base.
  if (ws.readback[5] != NONE)
    throw_invalid("scalar " + std::to_string(size_t{first} + ws.readback[5]) + " is not below r");
  if (ws.readback[4] != NONE)
    throw_invalid("point " + std::to_string(size_t{first} + ws.readback[4]) +
                  ": the twisted-Edwards map is undefined there (the point is not in G1)");
}

}  // namespace zkgpu::bls12_377::cuda
