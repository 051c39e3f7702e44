// The one way the commands print a time: 3 significant digits, never an exponent.
#include <gtest/gtest.h>

#include <cmath>

#include "../../cli/timing.hpp"

namespace zkgpu::cli {
namespace {

TEST(CliFormatTime, ThreeSignificantDigits) {
  EXPECT_EQ(format_time(1234.5), "1230");
  EXPECT_EQ(format_time(123456789.0), "123000000");
  EXPECT_EQ(format_time(123.4), "123");
  EXPECT_EQ(format_time(12.345), "12.3");
  EXPECT_EQ(format_time(1.0), "1.00");
  EXPECT_EQ(format_time(0.012345), "0.0123");
  EXPECT_EQ(format_time(0.001), "0.00100");
  EXPECT_EQ(format_time(2.5e-7), "0.000000250");
  // Rounding that carries into a new digit keeps three digits.
  EXPECT_EQ(format_time(9.996), "10.0");
  EXPECT_EQ(format_time(999.7), "1000");
  EXPECT_EQ(format_time(0.09996), "0.100");
}

TEST(CliFormatTime, ZeroAndNotMeasured) {
  EXPECT_EQ(format_time(0), "0");
  EXPECT_EQ(format_time(-1), "-");
  EXPECT_EQ(format_time(std::nan("")), "-");
}

}  // namespace
}  // namespace zkgpu::cli
