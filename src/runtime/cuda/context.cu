// The GPU context (context.cuh).
#include "runtime/cuda/context.cuh"

namespace zkgpu::cuda {

GpuContext::GpuContext(std::string name, unsigned streams, unsigned priority_streams) : arena_(std::move(name)) {
  ZKGPU_CUDA_CHECK(cudaGetDevice(&device_));
  for (unsigned i = 0; i < streams; ++i) streams_.push_back(std::make_unique<Stream>());
  for (unsigned i = 0; i < priority_streams; ++i)
    priority_streams_.push_back(std::make_unique<Stream>(Stream::Priority::Greatest));
}

void GpuContext::release() {
  for (const auto& s : streams_) s->sync();
  for (const auto& s : priority_streams_) s->sync();
  uploader_.release();
  arena_.release();
}

}  // namespace zkgpu::cuda
