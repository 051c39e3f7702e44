// The validated environment readers of src/runtime/env.hpp: unset and empty mean unset, accepted
// values come back, anything else is an Error(InvalidArgument) naming the variable and the value.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "runtime/env.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu {
namespace {

constexpr const char* VAR = "ZKGPU_TEST_ENV_READER";

// Sets VAR for one scope (nullptr: unset).
struct ScopedVar {
  explicit ScopedVar(const char* value) {
    if (value)
      setenv(VAR, value, 1);
    else
      unsetenv(VAR);
  }
  ~ScopedVar() { unsetenv(VAR); }
};

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    return e.what();
  }
  return "no error";
}

TEST(EnvReaders, FlagAcceptsZeroAndOneOnly) {
  {
    ScopedVar v(nullptr);
    EXPECT_FALSE(env_flag(VAR));
  }
  {
    ScopedVar v("0");
    EXPECT_FALSE(env_flag(VAR));
  }
  {
    ScopedVar v("1");
    EXPECT_TRUE(env_flag(VAR));
  }
  for (const char* bad : {"yes", "true", "2", "on"}) {
    ScopedVar v(bad);
    const std::string msg = error_of([] { (void)env_flag(VAR); });
    EXPECT_NE(msg.find("expected 0 or 1"), std::string::npos) << msg;
  }
}

TEST(EnvReaders, ChoiceAcceptsTheListedValuesOnly) {
  {
    ScopedVar v(nullptr);
    EXPECT_EQ(env_choice(VAR, {"a", "bb"}), std::nullopt);
  }
  {
    ScopedVar v("bb");
    EXPECT_EQ(env_choice(VAR, {"a", "bb"}), "bb");
  }
  for (const char* bad : {"A", "b", "bbb", "a "}) {
    ScopedVar v(bad);
    const std::string msg = error_of([] { (void)env_choice(VAR, {"a", "bb"}); });
    EXPECT_NE(msg.find("expected one of a, bb"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace zkgpu
