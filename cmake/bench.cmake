# The benchmarks (ZKGPU_BUILD_BENCH), included from CMakeLists.txt.
find_package(benchmark REQUIRED)
file(GLOB ZKGPU_BENCH_SOURCES CONFIGURE_DEPENDS bench/*.cpp)
add_executable(zkgpu_bench ${ZKGPU_BENCH_SOURCES})
zkgpu_set_isa_flags(${ZKGPU_BENCH_SOURCES})
target_compile_options(zkgpu_bench PRIVATE ${ZKGPU_WARNINGS})
target_link_libraries(zkgpu_bench PRIVATE zkgpu zkgpu_bench_support benchmark::benchmark OpenSSL::Crypto PkgConfig::SODIUM)
# GMP: the multi-precision CPU baseline of the BLS12-377 point-addition benchmark (bench/msm_bench.cpp).
find_library(GMP_LIBRARY gmp REQUIRED)
target_link_libraries(zkgpu_bench PRIVATE ${GMP_LIBRARY})
