// The validated environment readers of src/runtime/env.hpp: unset and empty mean unset, accepted
// values come back, anything else is an Error(InvalidArgument) naming the variable and the value;
// and parse_decimal, the strict rule for counts given as text.
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

TEST(EnvReaders, ParseDecimalAcceptsDigitsInRangeOnly) {
  EXPECT_EQ(parse_decimal("26", 1, 26), 26u);
  EXPECT_EQ(parse_decimal("0010", 0, 26), 10u);  // decimal, not octal
  EXPECT_EQ(parse_decimal("18446744073709551615", 0, UINT64_MAX), UINT64_MAX);
  for (const char* bad :
       {"27", "0", "", "1a", "-5", "+3", " 3", "3 ", "0x3", "abc", "18446744073709551616", "99999999999999999999"}) {
    EXPECT_EQ(parse_decimal(bad, 1, 26), std::nullopt) << bad;
  }
  EXPECT_EQ(parse_decimal("18446744073709551616", 0, UINT64_MAX), std::nullopt);
}

}  // namespace
}  // namespace zkgpu
