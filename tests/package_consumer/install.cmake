# Shared by the package consumers (run.cmake: CMake, run_c.cmake: pkg-config and C): step(), and
# `cmake --install` of BUILD_DIR into a fresh ${WORK_DIR}/prefix with the files every user needs.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "package consumer: `${cmd}` failed (${rc})")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/zkgpu/zkgpuConfig.cmake lib/cmake/zkgpu/zkgpuConfigVersion.cmake lib/pkgconfig/zkgpu.pc
          include/zkgpu/zkgpu.hpp include/zkgpu/core/field/babybear.hpp include/zkgpu.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package consumer: ${f} was not installed")
  endif()
endforeach()
