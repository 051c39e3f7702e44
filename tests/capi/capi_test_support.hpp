// Helpers of the C ABI's gtest suites (CApi*): status checks with the message, the parallel
// (pointer, length) arrays of the batch calls, and BabyBear words in both representations.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/test_support.hpp"
#include "zkgpu.h"
#include "zkgpu/core/field/babybear.hpp"

namespace zkgpu::test {

// The call returned `want`, and for a failure zkgpu_last_error() names the problem (contains
// every needle); for ZKGPU_OK it is empty.
inline ::testing::AssertionResult status_is(zkgpu_status got, zkgpu_status want,
                                            std::initializer_list<std::string_view> needles = {}) {
  const std::string msg = zkgpu_last_error();
  if (got != want)
    return ::testing::AssertionFailure() << "status " << zkgpu_status_name(got) << ", expected "
                                         << zkgpu_status_name(want) << " (last error: \"" << msg << "\")";
  if (want == ZKGPU_OK && !msg.empty()) return ::testing::AssertionFailure() << "success left a message: " << msg;
  if (want != ZKGPU_OK && msg.empty()) return ::testing::AssertionFailure() << "a failure left no message";
  for (std::string_view n : needles)
    if (msg.find(n) == std::string::npos)
      return ::testing::AssertionFailure() << "the message \"" << msg << "\" does not mention \"" << n << "\"";
  return ::testing::AssertionSuccess();
}
#define EXPECT_CAPI_OK(call) EXPECT_TRUE(::zkgpu::test::status_is((call), ZKGPU_OK))
#define EXPECT_CAPI_ERR(call, status, ...) EXPECT_TRUE(::zkgpu::test::status_is((call), (status), {__VA_ARGS__}))

// The (pointers, lengths) arrays of a batch over byte strings the test owns.
struct ByteArrays {
  std::vector<const uint8_t*> ptrs;
  std::vector<size_t> lens;
  explicit ByteArrays(const std::vector<std::vector<uint8_t>>& items) {
    for (const auto& v : items) {
      ptrs.push_back(v.empty() ? nullptr : v.data());
      lens.push_back(v.size());
    }
  }
};

inline std::vector<uint32_t> canonical_words(const std::vector<BabyBear>& xs) {
  std::vector<uint32_t> w;
  for (BabyBear x : xs) w.push_back(x.canonical());
  return w;
}
inline std::vector<uint32_t> monty_words(const std::vector<BabyBear>& xs) {
  std::vector<uint32_t> w;
  for (BabyBear x : xs) w.push_back(x.v);
  return w;
}
inline std::vector<BabyBear> random_field(Rng& rng, size_t n) {
  std::vector<BabyBear> v(n);
  for (auto& x : v) x = rng.fe();
  return v;
}

}  // namespace zkgpu::test
