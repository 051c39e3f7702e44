// The library's version. It is set once, in project() of CMakeLists.txt, which passes it to
// src/runtime/version.cpp; `zkgpu --version` and `zkgpu info` print the same string.
#pragma once

namespace zkgpu {

// "MAJOR.MINOR.PATCH".
const char* version();

}  // namespace zkgpu
