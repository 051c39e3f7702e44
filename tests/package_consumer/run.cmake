# ctest package_consumer: configure, build and run tests/package_consumer against the installed
# package (the package_install fixture's prefix) with find_package(zkgpu CONFIG REQUIRED).
# -D PREFIX=... -D SOURCE_DIR=... -D WORK_DIR=... -D VERSION=... [-D CXX=...] [-D GENERATOR=...]
set(EXAMPLE_DIR ${SOURCE_DIR}/tests/package_consumer)
include(${SOURCE_DIR}/cmake/build_installed_example.cmake)  # defines step(), sets prefix
foreach(f lib/cmake/zkgpu/zkgpuConfig.cmake lib/cmake/zkgpu/zkgpuConfigVersion.cmake lib/pkgconfig/zkgpu.pc
          include/zkgpu/zkgpu.hpp include/zkgpu/core/field/babybear.hpp include/zkgpu/device/device.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package_consumer: ${f} was not installed")
  endif()
endforeach()
step(${WORK_DIR}/build/consumer_shared ${VERSION})
step(${WORK_DIR}/build/consumer_static ${VERSION})
