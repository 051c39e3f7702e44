#include "runtime/device_caches.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

#include "zkgpu/backend.hpp"

namespace zkgpu {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<void (*)()> releases;
};

Registry& registry() {
  static Registry* r = new Registry;  // used by caches created during static initialisation too
  return *r;
}

}  // namespace

namespace runtime {

void register_device_cache(void (*release)()) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  if (std::find(r.releases.begin(), r.releases.end(), release) == r.releases.end()) r.releases.push_back(release);
}

}  // namespace runtime

void release_gpu_caches() {
  Registry& r = registry();
  std::vector<void (*)()> releases;
  {
    std::lock_guard lock(r.mu);
    releases = r.releases;
  }
  for (auto* release : releases) release();
}

}  // namespace zkgpu
