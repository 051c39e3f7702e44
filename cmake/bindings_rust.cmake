# The Rust crate (bindings/rust) and its example (examples/rust) against the installed package, as
# a user builds them: cargo runs against the package_install fixture's prefix with
# PKG_CONFIG_PATH pointing there (the crate's build.rs runs `pkg-config --libs zkgpu` and sets an
# rpath to the prefix's lib directory, so no LD_LIBRARY_PATH is needed). Included from
# CMakeLists.txt with the test suite (the bench smoke run needs zkgpu_cli). Without cargo or
# pkg-config the tests are still registered and report themselves skipped.
set(ZKGPU_RUST_TESTS rust_crate_test rust_example rust_example_static rust_bench_smoke)
find_program(ZKGPU_CARGO cargo HINTS $ENV{CARGO_HOME}/bin $ENV{HOME}/.cargo/bin)
if(NOT PKG_CONFIG_EXECUTABLE)
  find_program(PKG_CONFIG_EXECUTABLE pkg-config)
endif()

if(NOT ZKGPU_CARGO OR NOT PKG_CONFIG_EXECUTABLE)
  message(STATUS "zkgpu: cargo or pkg-config not found; the Rust binding's tests will report skipped")
  foreach(t IN LISTS ZKGPU_RUST_TESTS)
    add_test(NAME ${t} COMMAND sh -c "echo 'cargo or pkg-config not found: ${t} skipped'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
  return()
endif()

set(ZKGPU_RUST_PREFIX ${ZKGPU_TEST_PREFIX})  # the package_install fixture's (cmake/tests.cmake)
# One target directory for every cargo run, under the build tree (cargo locks it, so the tests that
# use it are serialised by RESOURCE_LOCK instead of waiting on cargo's lock against ctest's timeout).
set(ZKGPU_RUST_TARGET ${PROJECT_BINARY_DIR}/rust_target)
set(ZKGPU_RUST_ENV PKG_CONFIG_PATH=${ZKGPU_RUST_PREFIX}/lib/pkgconfig PKG_CONFIG=${PKG_CONFIG_EXECUTABLE}
                   CARGO_TARGET_DIR=${ZKGPU_RUST_TARGET} OMP_WAIT_POLICY=passive)

add_test(NAME rust_crate_test
         COMMAND ${CMAKE_COMMAND} -E env ${ZKGPU_RUST_ENV}
                 ${ZKGPU_CARGO} test --offline --manifest-path ${PROJECT_SOURCE_DIR}/bindings/rust/Cargo.toml)
add_test(NAME rust_example
         COMMAND ${CMAKE_COMMAND} -E env ${ZKGPU_RUST_ENV}
                 ${ZKGPU_CARGO} run --offline --manifest-path ${PROJECT_SOURCE_DIR}/examples/rust/Cargo.toml)
# The same program linked against libzkgpu.a (`pkg-config --static`): the form the benchmark is
# carried to a GPU machine in. Its own target directory: the static and shared builds differ.
add_test(NAME rust_example_static
         COMMAND ${CMAKE_COMMAND} -E env ${ZKGPU_RUST_ENV} ZKGPU_STATIC=1 CARGO_TARGET_DIR=${ZKGPU_RUST_TARGET}/static
                 ${ZKGPU_CARGO} run --offline --manifest-path ${PROJECT_SOURCE_DIR}/examples/rust/Cargo.toml)
# The benchmark once, tiny (real numbers come from a release build on the GPU machine).
add_test(NAME rust_bench_smoke
         COMMAND ${CMAKE_COMMAND} -E env ${ZKGPU_RUST_ENV}
                 ${ZKGPU_CARGO} run --offline --manifest-path ${PROJECT_SOURCE_DIR}/bindings/rust/Cargo.toml
                 --example bench -- --cli $<TARGET_FILE:zkgpu_cli> --sizes 1,64,300 --distinct 100 --runs 1 --min-time 0.01)
set_tests_properties(rust_crate_test rust_example rust_example_static rust_bench_smoke PROPERTIES
                     FIXTURES_REQUIRED zkgpu_prefix RESOURCE_LOCK zkgpu_rust_target TIMEOUT 900)
set_tests_properties(rust_bench_smoke PROPERTIES PASS_REGULAR_EXPRESSION "\"api\":\"rust\".*\"verifications_per_s\"")

# Formatting and lints, where the toolchain has them (rustup's default profile does).
execute_process(COMMAND ${ZKGPU_CARGO} fmt --version RESULT_VARIABLE ZKGPU_RUSTFMT_RC OUTPUT_QUIET ERROR_QUIET)
if(ZKGPU_RUSTFMT_RC EQUAL 0)
  add_test(NAME rust_fmt COMMAND sh -c "'${ZKGPU_CARGO}' fmt --check --manifest-path '${PROJECT_SOURCE_DIR}/bindings/rust/Cargo.toml' && '${ZKGPU_CARGO}' fmt --check --manifest-path '${PROJECT_SOURCE_DIR}/examples/rust/Cargo.toml'")
endif()
execute_process(COMMAND ${ZKGPU_CARGO} clippy --version RESULT_VARIABLE ZKGPU_CLIPPY_RC OUTPUT_QUIET ERROR_QUIET)
if(ZKGPU_CLIPPY_RC EQUAL 0)
  add_test(NAME rust_clippy
           COMMAND ${CMAKE_COMMAND} -E env ${ZKGPU_RUST_ENV}
                   ${ZKGPU_CARGO} clippy --offline --all-targets --manifest-path ${PROJECT_SOURCE_DIR}/bindings/rust/Cargo.toml
                   -- -D warnings)
  set_tests_properties(rust_clippy PROPERTIES FIXTURES_REQUIRED zkgpu_prefix RESOURCE_LOCK zkgpu_rust_target TIMEOUT 900)
endif()
