# ctest package_consumer: cmake --install the build tree into a fresh prefix, then configure, build
# and run tests/package_consumer against it with find_package(zkgpu CONFIG REQUIRED).
# -D BUILD_DIR=... -D SOURCE_DIR=... -D WORK_DIR=... -D VERSION=... [-D CXX=...] [-D GENERATOR=...]
include(${CMAKE_CURRENT_LIST_DIR}/install.cmake)
set(gen)
if(GENERATOR)
  set(gen -G ${GENERATOR})
endif()
step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/package_consumer -B ${WORK_DIR}/build ${gen}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${WORK_DIR}/build/consumer_shared ${VERSION})
step(${WORK_DIR}/build/consumer_static ${VERSION})
