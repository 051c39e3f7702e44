# The C ABI's own tests (include/zkgpu.h, src/capi; docs/c-api.md), included from cmake/tests.cmake.
# Its gtest suites (tests/capi/*.cpp, CApi*) are in zkgpu_tests through the tests glob; here:
#   capi_c_test          the C99 program tests/capi/*.c, compiled -std=c99 -pedantic -Werror
#   capi_header_cxx*     the header compiled alone as C++11 and C++20 with -Werror
#   package_consumer_c   examples/c built against the installed package, through find_package and
#                        through pkg-config (shared and static)
#
# The C compiler defaults to the C++ compiler's sibling (clang++ -> clang, g++ -> gcc), so that a
# sanitizer build instruments the C test with the same runtime the library uses.
if(NOT CMAKE_C_COMPILER AND NOT DEFINED ENV{CC})
  get_filename_component(zkgpu_cxx_dir ${CMAKE_CXX_COMPILER} DIRECTORY)
  get_filename_component(zkgpu_cxx_name ${CMAKE_CXX_COMPILER} NAME)
  string(REGEX REPLACE "clang\\+\\+" "clang" zkgpu_cc_name "${zkgpu_cxx_name}")
  string(REGEX REPLACE "g\\+\\+" "gcc" zkgpu_cc_name "${zkgpu_cc_name}")
  string(REGEX REPLACE "^c\\+\\+$" "cc" zkgpu_cc_name "${zkgpu_cc_name}")
  if(NOT zkgpu_cc_name STREQUAL zkgpu_cxx_name AND EXISTS ${zkgpu_cxx_dir}/${zkgpu_cc_name})
    set(CMAKE_C_COMPILER ${zkgpu_cxx_dir}/${zkgpu_cc_name})
  endif()
endif()
enable_language(C)

file(GLOB ZKGPU_CAPI_C_SOURCES CONFIGURE_DEPENDS tests/capi/*.c)
add_executable(zkgpu_capi_c_test ${ZKGPU_CAPI_C_SOURCES})
set_target_properties(zkgpu_capi_c_test PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(zkgpu_capi_c_test PRIVATE -Wall -Wextra -pedantic -Werror -Wstrict-prototypes
                                                 -Wmissing-prototypes)
target_link_libraries(zkgpu_capi_c_test PRIVATE zkgpu)
add_test(NAME capi_c_test COMMAND zkgpu_capi_c_test ${PROJECT_VERSION})
set_tests_properties(capi_c_test PROPERTIES ENVIRONMENT "OMP_WAIT_POLICY=passive" TIMEOUT 600)

foreach(std 11 20)
  add_test(NAME capi_header_cxx${std}
           COMMAND ${CMAKE_CXX_COMPILER} -std=c++${std} -Wall -Wextra -pedantic -Werror -fsyntax-only
                   -I${PROJECT_SOURCE_DIR}/include -x c++ ${PROJECT_SOURCE_DIR}/tests/capi/header_only.inc)
endforeach()
add_test(NAME capi_header_c99
         COMMAND ${CMAKE_C_COMPILER} -std=c99 -Wall -Wextra -pedantic -Werror -Wstrict-prototypes -fsyntax-only
                 -I${PROJECT_SOURCE_DIR}/include -x c ${PROJECT_SOURCE_DIR}/tests/capi/header_only.inc)

find_program(ZKGPU_PKG_CONFIG NAMES pkg-config pkgconf)
if(ZKGPU_PKG_CONFIG)
  set(zkgpu_linker ${CMAKE_C_COMPILER})
  if(ZKGPU_SANITIZE)
    set(zkgpu_linker ${CMAKE_CXX_COMPILER})
  endif()
  add_test(NAME package_consumer_c
           COMMAND ${CMAKE_COMMAND} -D PREFIX=${ZKGPU_TEST_PREFIX} -D SOURCE_DIR=${PROJECT_SOURCE_DIR}
                   -D WORK_DIR=${PROJECT_BINARY_DIR}/package_consumer_c -D VERSION=${PROJECT_VERSION}
                   -D CC=${CMAKE_C_COMPILER} -D CXX=${CMAKE_CXX_COMPILER} -D LINKER=${zkgpu_linker}
                   -D PKG_CONFIG=${ZKGPU_PKG_CONFIG} -D GENERATOR=${CMAKE_GENERATOR}
                   -P ${PROJECT_SOURCE_DIR}/tests/package_consumer/run_c.cmake)
  set_tests_properties(package_consumer_c PROPERTIES ENVIRONMENT "OMP_WAIT_POLICY=passive" TIMEOUT 600
                                                      FIXTURES_REQUIRED zkgpu_prefix)
else()
  message(STATUS "zkgpu: pkg-config not found; the C package consumer test (package_consumer_c) is not run")
endif()
