// Linked only when the library is built without the CUDA backend.
#include "zkgpu/backend.hpp"

namespace zkgpu {
bool cuda_built() { return false; }
std::optional<GpuInfo> gpu_info() { return std::nullopt; }
std::string cuda_unavailable_reason() { return "this build of zkgpu has no CUDA backend (nvcc was not found)"; }
}  // namespace zkgpu
