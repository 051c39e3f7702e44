# The test suite (ZKGPU_BUILD_TESTS), included from CMakeLists.txt: zkgpu_tests, the valgrind
# constant-time check, the Python differential tests and the benchmarks' smoke runs.
find_package(GTest REQUIRED)
enable_testing()
file(GLOB_RECURSE ZKGPU_TEST_SOURCES CONFIGURE_DEPENDS tests/*.cpp)
# Not in zkgpu_tests: the valgrind constant-time program and the package consumer (both below).
list(FILTER ZKGPU_TEST_SOURCES EXCLUDE REGEX "tests/(ct|package_consumer)/")
add_executable(zkgpu_tests ${ZKGPU_TEST_SOURCES})
zkgpu_set_isa_flags(${ZKGPU_TEST_SOURCES})
target_compile_options(zkgpu_tests PRIVATE ${ZKGPU_WARNINGS})
# tests/ for the shared helpers (support/) and the fuzz harnesses that FuzzCorpus runs over the
# checked-in corpus; the tests also reach into src/ (linked through zkgpu_bench_support).
target_include_directories(zkgpu_tests PRIVATE tests)
target_compile_definitions(zkgpu_tests PRIVATE ZKGPU_VECTORS_DIR="${PROJECT_SOURCE_DIR}/tests/vectors"
                                               ZKGPU_FUZZ_CORPUS="${PROJECT_SOURCE_DIR}/tests/fuzz/corpus"
                                               ZKGPU_CLI_PATH="$<TARGET_FILE:zkgpu_cli>")
target_link_libraries(zkgpu_tests PRIVATE zkgpu zkgpu_bench_support GTest::gtest GTest::gtest_main nlohmann_json::nlohmann_json OpenSSL::Crypto
                      PkgConfig::SODIUM)
add_dependencies(zkgpu_tests zkgpu_cli)
include(GoogleTest)
# Passive OpenMP waits: ctest runs tests in parallel, and spinning threads would starve each other.
gtest_discover_tests(zkgpu_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 ENVIRONMENT "OMP_WAIT_POLICY=passive")

# --- constant-time check of ML-KEM / ML-DSA under valgrind (secrets marked undefined) ---------
# A program of its own: it is compiled with ZKGPU_CT_VALGRIND so the library declassifies what
# the standards make public, and it must not link the normal library build. The second test runs
# a deliberately leaky comparison and passes only if memcheck reports it (the check can fail).
find_program(ZKGPU_VALGRIND valgrind)
find_path(ZKGPU_VALGRIND_INCLUDE valgrind/memcheck.h)
if(ZKGPU_SANITIZE)
  message(STATUS "zkgpu: sanitizer build; the valgrind constant-time test is not built (valgrind and ASan do not mix)")
elseif(ZKGPU_VALGRIND AND ZKGPU_VALGRIND_INCLUDE)
  # The host ML-KEM Ops (src/pq/cpu) are compiled in too, with the same flag, and so is the SIMD
  # level detection they read (their AVX2 paths run under valgrind; it has no AVX-512).
  file(GLOB ZKGPU_PQ_CPU_SOURCES CONFIGURE_DEPENDS src/pq/cpu/*.cpp)
  add_executable(zkgpu_ct_valgrind tests/ct/pq_ct_valgrind.cpp ${ZKGPU_PQ_CPU_SOURCES} src/runtime/backend.cpp
                                   src/runtime/env.cpp src/runtime/no_cuda.cpp)
  zkgpu_set_isa_flags(${ZKGPU_PQ_CPU_SOURCES})
  target_link_libraries(zkgpu_ct_valgrind PRIVATE Threads::Threads)
  target_include_directories(zkgpu_ct_valgrind PRIVATE include src ${ZKGPU_VALGRIND_INCLUDE})
  target_compile_features(zkgpu_ct_valgrind PRIVATE cxx_std_20)
  target_compile_definitions(zkgpu_ct_valgrind PRIVATE ZKGPU_CT_VALGRIND=1)
  target_compile_options(zkgpu_ct_valgrind PRIVATE -g ${ZKGPU_WARNINGS})
  add_test(NAME pq_constant_time_valgrind
           COMMAND ${ZKGPU_VALGRIND} -q --error-exitcode=1 --track-origins=yes $<TARGET_FILE:zkgpu_ct_valgrind>)
  add_test(NAME pq_constant_time_valgrind_catches_leak
           COMMAND ${ZKGPU_VALGRIND} -q --error-exitcode=1 $<TARGET_FILE:zkgpu_ct_valgrind> --leak)
  set_tests_properties(pq_constant_time_valgrind_catches_leak PROPERTIES
                       PASS_REGULAR_EXPRESSION "Conditional jump or move depends on uninitialised value.*leaky_compare")
  set_tests_properties(pq_constant_time_valgrind pq_constant_time_valgrind_catches_leak PROPERTIES TIMEOUT 300)
else()
  message(STATUS "zkgpu: valgrind or valgrind/memcheck.h not found; the constant-time test is not built")
endif()

# --- ML-KEM / ML-DSA against OpenSSL 3.5+ (pyca/cryptography wheel; skipped when it lacks them) --
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME pq_openssl_differential
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/pq_openssl_diff.py $<TARGET_FILE:zkgpu_cli>)
  add_test(NAME pq_bench_smoke
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/pq_bench.py --zkgpu $<TARGET_FILE:zkgpu_cli> --quick)
  set_tests_properties(pq_openssl_differential PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
  set_tests_properties(pq_bench_smoke PROPERTIES ENVIRONMENT "OMP_WAIT_POLICY=passive" TIMEOUT 300)
endif()

# --- smoke runs of the benchmarks (CI runs them tiny; real numbers come from the H200 machine) ---
add_test(NAME bench_cli_smoke COMMAND zkgpu_cli bench all --quick --runs 1)
set_tests_properties(bench_cli_smoke PROPERTIES ENVIRONMENT "OMP_WAIT_POLICY=passive" TIMEOUT 600)
if(ZKGPU_BUILD_BENCH)
  add_test(NAME bench_gbench_smoke COMMAND zkgpu_bench
           "--benchmark_filter=BM_BabyBear|BM_NttCpuForward_cols1/16|BM_MerkleBuildCpu/16|BM_PowGrindCpu|BM_PaddGmp|BM_PaddCpuLatency|BM_MsmCpu/10"
           --benchmark_min_time=0.01)
  add_test(NAME bench_ed25519_smoke COMMAND zkgpu_bench
           "--benchmark_filter=BM_Ed25519(VerifyCpu/256/0/1|Zip215BatchEquation/64/1|LibsodiumVerify|OpensslVerify)"
           --benchmark_min_time=0.01)
  set_tests_properties(bench_gbench_smoke bench_ed25519_smoke PROPERTIES ENVIRONMENT "OMP_WAIT_POLICY=passive" TIMEOUT 600)
endif()

# --- the installed package, used from a project of its own (find_package(zkgpu)) ---------------
# One install of this build into a fresh scratch prefix, shared by every test that consumes the
# package as a user would (the C++ and C consumers, the CUDA example, the Go and Rust bindings):
# they only read it, so one install per ctest run serves them all.
set(ZKGPU_TEST_PREFIX ${PROJECT_BINARY_DIR}/test_prefix)
add_test(NAME package_install
         COMMAND sh -c "rm -rf '${ZKGPU_TEST_PREFIX}' && '${CMAKE_COMMAND}' --install '${PROJECT_BINARY_DIR}' --prefix '${ZKGPU_TEST_PREFIX}'")
set_tests_properties(package_install PROPERTIES FIXTURES_SETUP zkgpu_prefix TIMEOUT 300)

add_test(NAME package_consumer
         COMMAND ${CMAKE_COMMAND} -D PREFIX=${ZKGPU_TEST_PREFIX} -D SOURCE_DIR=${PROJECT_SOURCE_DIR}
                 -D WORK_DIR=${PROJECT_BINARY_DIR}/package_consumer -D VERSION=${PROJECT_VERSION}
                 -D CXX=${CMAKE_CXX_COMPILER} -D GENERATOR=${CMAKE_GENERATOR}
                 -P ${PROJECT_SOURCE_DIR}/tests/package_consumer/run.cmake)
set_tests_properties(package_consumer PROPERTIES TIMEOUT 600 FIXTURES_REQUIRED zkgpu_prefix)

# --- the layout rules of ARCHITECTURE.md (includes, concept folders, getenv, file sizes) ---------
if(Python3_FOUND)
  add_test(NAME layout_rules COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/layout/check_layout.py)
  add_test(NAME layout_rules_self_test COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/layout/check_layout.py --self-test)
endif()

include(cmake/capi.cmake)  # the C ABI's C and pkg-config tests
