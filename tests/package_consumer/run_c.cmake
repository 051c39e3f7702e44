# ctest package_consumer_c: build examples/c against the installed package (the package_install
# fixture's prefix), once through find_package (cmake/build_installed_example.cmake) and once as a
# C99 program with nothing but `pkg-config zkgpu`, linked to libzkgpu.so and to libzkgpu.a
# (`pkg-config --static`); run all three.
# -D PREFIX=... -D SOURCE_DIR=... -D WORK_DIR=... -D VERSION=... -D CC=... -D PKG_CONFIG=...
# [-D CXX=...] [-D GENERATOR=...] [-D LINKER=...]: the sanitizer build links with its C++ driver,
# which adds the C++ parts of the sanitizer runtimes that a C driver leaves out.
set(EXAMPLE_DIR ${SOURCE_DIR}/examples/c)
include(${SOURCE_DIR}/cmake/build_installed_example.cmake)  # defines step(), sets prefix
foreach(f include/zkgpu.h lib/pkgconfig/zkgpu.pc)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package_consumer_c: ${f} was not installed")
  endif()
endforeach()
step(${WORK_DIR}/build/verify_and_permute ${VERSION})

if(NOT LINKER)
  set(LINKER ${CC})
endif()
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
function(pkg_config out)
  execute_process(COMMAND ${PKG_CONFIG} ${ARGN} zkgpu OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package_consumer_c: `pkg-config ${ARGN} zkgpu` failed (${rc})")
  endif()
  message(STATUS "pkg-config ${ARGN} zkgpu: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()
pkg_config(cflags --cflags)
pkg_config(libs --libs)
pkg_config(static_libs --static --libs)
# GNU ld takes -lzkgpu as libzkgpu.so whenever both are installed: a static link names the archive.
list(TRANSFORM static_libs REPLACE "^-lzkgpu$" "-l:libzkgpu.a")

set(example ${SOURCE_DIR}/examples/c/verify_and_permute.c)
step(${CC} -std=c99 -Wall -Wextra -pedantic -Werror ${cflags} -c ${example} -o ${WORK_DIR}/example.o)
step(${LINKER} ${WORK_DIR}/example.o -o ${WORK_DIR}/example_shared ${libs})
step(${LINKER} ${WORK_DIR}/example.o -o ${WORK_DIR}/example_static ${static_libs})
# The shared build finds libzkgpu.so through LD_LIBRARY_PATH; the static one runs without it,
# which shows it does not need the shared library.
step(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib ${WORK_DIR}/example_shared ${VERSION})
step(${WORK_DIR}/example_static ${VERSION})
