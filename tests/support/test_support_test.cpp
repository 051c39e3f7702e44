// The test support code's own switches, checked on every machine (the GPU tests that read them
// skip without a GPU, so a bad value would go unnoticed there).
#include "support/test_support.hpp"

namespace zkgpu::test {
namespace {

// ZKGPU_TEST_SMALL is unset, empty, 0 or 1; any other value is an error.
TEST(TestSupport, SmallModeSettingIsValid) {
  EXPECT_NO_THROW((void)small_mode());
  EXPECT_EQ(sized(1, 2), small_mode() ? 2 : 1);
  const std::vector<int> full = {1, 2, 3}, small = {4};
  EXPECT_EQ(sized({1, 2, 3}, {4}), small_mode() ? small : full);
}

}  // namespace
}  // namespace zkgpu::test
