# ctest package_consumer: cmake --install the build tree into a fresh prefix, then configure, build
# and run tests/package_consumer against it with find_package(zkgpu CONFIG REQUIRED).
# -D BUILD_DIR=... -D SOURCE_DIR=... -D WORK_DIR=... -D VERSION=... [-D CXX=...] [-D GENERATOR=...]
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "package_consumer: `${cmd}` failed (${rc})")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/zkgpu/zkgpuConfig.cmake lib/cmake/zkgpu/zkgpuConfigVersion.cmake lib/pkgconfig/zkgpu.pc
          include/zkgpu/zkgpu.hpp include/zkgpu/core/field/babybear.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package_consumer: ${f} was not installed")
  endif()
endforeach()
set(gen)
if(GENERATOR)
  set(gen -G ${GENERATOR})
endif()
step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/package_consumer -B ${WORK_DIR}/build ${gen}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${WORK_DIR}/build/consumer_shared ${VERSION})
step(${WORK_DIR}/build/consumer_static ${VERSION})
