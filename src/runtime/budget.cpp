#include "runtime/budget.hpp"

#include <cstdio>

#include "zkgpu/status.hpp"

namespace zkgpu::runtime {

std::string bytes_text(uint64_t bytes) {
  char buf[64];
  if (bytes >= (uint64_t{1} << 30))
    std::snprintf(buf, sizeof buf, " (%.2f GiB)", static_cast<double>(bytes) / 1073741824.0);
  else
    std::snprintf(buf, sizeof buf, " (%.1f MiB)", static_cast<double>(bytes) / 1048576.0);
  return std::to_string(bytes) + " bytes" + buf;
}

void throw_over_budget(const std::string& what, uint64_t need, uint64_t budget) {
  throw Error(ErrorCode::OutOfMemory, "GPU memory budget exceeded: " + what + " needs " + bytes_text(need) +
                                          " of device memory but the call's gpu_memory_budget is " +
                                          bytes_text(budget) +
                                          "; raise gpu_memory_budget (0: what the device has free)");
}

}  // namespace zkgpu::runtime
