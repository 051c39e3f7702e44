// The buffers zkgpu keeps between calls (per-operation contexts, workspaces, pipelines and
// tables on the GPU and in pinned host memory) register here how to free them, once, when they
// are first created; zkgpu::release_gpu_caches() (zkgpu/backend.hpp) frees them all. They are
// never freed during static teardown, where CUDA calls race the runtime's own shutdown.
#pragma once

namespace zkgpu::runtime {

// `release` frees one cache (under that cache's own lock) and leaves it ready to be re-created
// by its next use. Registering the same function twice keeps one entry.
void register_device_cache(void (*release)());

}  // namespace zkgpu::runtime
