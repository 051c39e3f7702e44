#include "zkgpu/version.hpp"

#ifndef ZKGPU_VERSION_STRING
#error "ZKGPU_VERSION_STRING comes from CMakeLists.txt (the project version)"
#endif

namespace zkgpu {

const char* version() { return ZKGPU_VERSION_STRING; }

}  // namespace zkgpu
