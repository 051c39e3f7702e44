// The one way the tests check that a call fails with a given zkgpu::Error code (EXPECT_THROW
// checks only the type): the call must throw, and the code must be `code`.
#pragma once
#include <gtest/gtest.h>

#include "zkgpu/status.hpp"

namespace zkgpu::test {

template <class Call>
void expect_error(ErrorCode code, Call&& call) {
  try {
    call();
    ADD_FAILURE() << "expected an Error, none was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
  }
}

}  // namespace zkgpu::test
