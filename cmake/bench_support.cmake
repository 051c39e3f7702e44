# tools/bench_support (included from CMakeLists.txt when the CLI, the tests or the benchmarks are
# built): device-resident timings, benchmark inputs and point-addition probes. Linked by cli/,
# bench/ and tests/ only, never by the library.
file(GLOB_RECURSE ZKGPU_BENCH_SUPPORT_SOURCES CONFIGURE_DEPENDS tools/bench_support/*.cpp)
if(ZKGPU_HAVE_CUDA)
  file(GLOB_RECURSE ZKGPU_BENCH_SUPPORT_CUDA_SOURCES CONFIGURE_DEPENDS tools/bench_support/*.cu)
  list(APPEND ZKGPU_BENCH_SUPPORT_SOURCES ${ZKGPU_BENCH_SUPPORT_CUDA_SOURCES})
endif()
add_library(zkgpu_bench_support STATIC ${ZKGPU_BENCH_SUPPORT_SOURCES})
target_include_directories(zkgpu_bench_support PUBLIC tools src)
target_compile_options(zkgpu_bench_support PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${ZKGPU_WARNINGS}>
                                                   $<$<COMPILE_LANGUAGE:CUDA>:${ZKGPU_CUDA_OPTIONS}>)
target_link_libraries(zkgpu_bench_support PUBLIC zkgpu PRIVATE OpenMP::OpenMP_CXX)
