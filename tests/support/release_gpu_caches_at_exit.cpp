// After the last test, free every buffer the library keeps between calls, so that
// compute-sanitizer's leak check (scripts/gpu-check.sh --sanitize) reports only real leaks.
#include <gtest/gtest.h>

#include "zkgpu/backend.hpp"

namespace {

class ReleaseGpuCaches : public ::testing::Environment {
 public:
  void TearDown() override { zkgpu::release_gpu_caches(); }
};

[[maybe_unused]] ::testing::Environment* const registered = ::testing::AddGlobalTestEnvironment(new ReleaseGpuCaches);

}  // namespace
