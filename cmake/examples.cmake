# Examples built against the installed package, as a user's project would be (ZKGPU_BUILD_TESTS).
# examples_cuda_build configures and builds, against the package_install fixture's prefix,
# examples/cuda (a user's kernels on zkgpu/device/*.hpp next to zkgpu's device-pointer calls);
# examples_cuda runs it (without a GPU it exits 77 and ctest reports a skip). Both need nvcc.
if(ZKGPU_HAVE_CUDA)
  set(example_dir ${PROJECT_BINARY_DIR}/examples_cuda)
  add_test(NAME examples_cuda_build
           COMMAND ${CMAKE_COMMAND} -D PREFIX=${ZKGPU_TEST_PREFIX} -D EXAMPLE_DIR=${PROJECT_SOURCE_DIR}/examples/cuda
                   -D WORK_DIR=${example_dir} -D CXX=${CMAKE_CXX_COMPILER} -D CUDA=${CMAKE_CUDA_COMPILER}
                   -D GENERATOR=${CMAKE_GENERATOR} -P ${PROJECT_SOURCE_DIR}/cmake/build_installed_example.cmake)
  set_tests_properties(examples_cuda_build PROPERTIES TIMEOUT 900 FIXTURES_SETUP example_cuda
                                                       FIXTURES_REQUIRED zkgpu_prefix)
  add_test(NAME examples_cuda COMMAND ${example_dir}/build/zkgpu_cuda_example)
  set_tests_properties(examples_cuda PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 FIXTURES_REQUIRED example_cuda)
endif()
