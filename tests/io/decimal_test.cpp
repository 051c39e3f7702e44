// parse_decimal, the strict rule for counts given as text.
#include <gtest/gtest.h>

#include <cstdint>

#include "io/decimal.hpp"

namespace zkgpu::cli {
namespace {

TEST(ParseDecimal, AcceptsDigitsInRangeOnly) {
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
}  // namespace zkgpu::cli
