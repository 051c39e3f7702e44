// Errors: library code throws zkgpu::Error with a message a user can act on; it never aborts.
#pragma once
#include <stdexcept>
#include <string>

namespace zkgpu {

enum class ErrorCode {
  InvalidArgument,  // wrong sizes, non-canonical values, malformed input
  OutOfMemory,      // host or GPU allocation failed
  CudaError,        // any other CUDA runtime failure
  Unavailable,      // a backend that was asked for is not built or has no device
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& msg) : std::runtime_error(msg), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

[[noreturn]] inline void throw_invalid(const std::string& msg) { throw Error(ErrorCode::InvalidArgument, msg); }

}  // namespace zkgpu
