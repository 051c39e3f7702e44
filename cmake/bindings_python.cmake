# The Python package zkgpu (bindings/python, docs/python.md): the nanobind module zkgpu._core over
# the C++ API. ZKGPU_BUILD_PYTHON is on when scikit-build-core drives the build (`pip install .`,
# pyproject.toml) and can be set in a normal build tree, where the module and a copy of the
# package's Python files land in build/python/zkgpu and ctest runs the pytest suite against
# them (python_tests). With ZKGPU_PYTHON_USE_INSTALLED=ON only the module is built, against an
# installed zkgpu (find_package(zkgpu), zkgpu_DIR=<prefix>/lib/cmake/zkgpu): CMakeLists.txt then
# includes this file before the library and stops after it.
set(ZKGPU_PYTHON_DEFAULT OFF)
if(DEFINED SKBUILD)
  set(ZKGPU_PYTHON_DEFAULT ON)
endif()
option(ZKGPU_BUILD_PYTHON "Build the Python module zkgpu._core (nanobind)" ${ZKGPU_PYTHON_DEFAULT})
option(ZKGPU_PYTHON_USE_INSTALLED "Build only the Python module, against an installed zkgpu" OFF)
if(NOT ZKGPU_BUILD_PYTHON AND NOT ZKGPU_PYTHON_USE_INSTALLED)
  return()
endif()

if(ZKGPU_SANITIZE)
  message(STATUS "zkgpu: no Python module in a sanitizer build (python would need the sanitizer runtime preloaded)")
  return()
endif()

find_package(Python 3.9 COMPONENTS Interpreter Development.Module REQUIRED)
if(NOT nanobind_DIR)
  execute_process(COMMAND ${Python_EXECUTABLE} -m nanobind --cmake_dir OUTPUT_VARIABLE ZKGPU_NANOBIND_DIR
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(nanobind_DIR ${ZKGPU_NANOBIND_DIR} CACHE PATH "nanobind's CMake directory")
endif()
find_package(nanobind CONFIG)
if(NOT nanobind_FOUND)
  if(DEFINED SKBUILD OR ZKGPU_PYTHON_USE_INSTALLED)
    message(FATAL_ERROR "zkgpu: the Python module needs nanobind (pip install nanobind)")
  endif()
  message(STATUS "zkgpu: nanobind not found for ${Python_EXECUTABLE}; the Python module is not built")
  if(ZKGPU_BUILD_TESTS)
    add_test(NAME python_tests COMMAND sh -c "echo 'nanobind not found: python_tests skipped'; exit 77")
    set_tests_properties(python_tests PROPERTIES SKIP_RETURN_CODE 77)
  endif()
  return()
endif()

if(ZKGPU_PYTHON_USE_INSTALLED)
  find_package(zkgpu CONFIG REQUIRED)
  set(ZKGPU_PYTHON_LIBRARY zkgpu::zkgpu_static)
  set(ZKGPU_PYTHON_VERSION ${zkgpu_VERSION})
else()
  set(ZKGPU_PYTHON_LIBRARY zkgpu)
  set(ZKGPU_PYTHON_VERSION ${PROJECT_VERSION})
endif()

file(GLOB ZKGPU_PYTHON_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/../bindings/python/src/*.cpp)
# NB_STATIC: libnanobind inside the module; NOMINSIZE: the build type's optimisation (the module
# converts whole arrays, which -Os would slow down).
nanobind_add_module(zkgpu_python NB_STATIC NOMINSIZE ${ZKGPU_PYTHON_SOURCES})
set_target_properties(zkgpu_python PROPERTIES OUTPUT_NAME _core)
target_link_libraries(zkgpu_python PRIVATE ${ZKGPU_PYTHON_LIBRARY})
target_compile_options(zkgpu_python PRIVATE -Wall -Wextra)

if(DEFINED SKBUILD)
  install(TARGETS zkgpu_python LIBRARY DESTINATION zkgpu COMPONENT python)
  return()
endif()

# The build tree's package: the module beside a copy of bindings/python/zkgpu, refreshed at every
# build (PYTHONPATH=build/python imports it).
set(ZKGPU_PYTHON_TREE ${CMAKE_BINARY_DIR}/python)
set_target_properties(zkgpu_python PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ZKGPU_PYTHON_TREE}/zkgpu)
add_custom_target(zkgpu_python_files ALL
                  COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_CURRENT_LIST_DIR}/../bindings/python/zkgpu
                          ${ZKGPU_PYTHON_TREE}/zkgpu
                  COMMENT "Copying the zkgpu Python package into ${ZKGPU_PYTHON_TREE}")
add_dependencies(zkgpu_python zkgpu_python_files)
if(ZKGPU_BUILD_TESTS)
  execute_process(COMMAND ${Python_EXECUTABLE} -c "import pytest, numpy" RESULT_VARIABLE ZKGPU_PYTEST_RC
                  OUTPUT_QUIET ERROR_QUIET)
  if(NOT ZKGPU_PYTEST_RC EQUAL 0)
    add_test(NAME python_tests COMMAND sh -c "echo 'pytest or numpy not found: python_tests skipped'; exit 77")
    set_tests_properties(python_tests PROPERTIES SKIP_RETURN_CODE 77)
  else()
    add_test(NAME python_tests COMMAND ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider
                                       ${CMAKE_CURRENT_LIST_DIR}/../bindings/python/tests)
    set_tests_properties(python_tests PROPERTIES ENVIRONMENT "PYTHONPATH=${ZKGPU_PYTHON_TREE};OMP_WAIT_POLICY=passive"
                                                 TIMEOUT 900)
  endif()
endif()
