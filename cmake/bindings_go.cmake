# The Go binding (bindings/go) and its example (examples/go), tested as a user builds them: against
# the library installed into a scratch prefix, found through pkg-config (PKG_CONFIG_PATH), with the
# shared library through LD_LIBRARY_PATH. Included from CMakeLists.txt after cmake/tests.cmake
# (docs/go.md). Go runs with a private GOCACHE and GOPATH under the build tree and GOPROXY=off, so
# the tests neither read the user's Go state nor reach the network (the binding uses only the
# standard library). Without go or pkg-config one test, go_bindings, reports itself skipped.
find_program(ZKGPU_GO go)
find_program(ZKGPU_GOFMT gofmt)
if(NOT PKG_CONFIG_EXECUTABLE)
  find_program(PKG_CONFIG_EXECUTABLE pkg-config)
endif()

set(ZKGPU_GO_SKIP "")
if(NOT ZKGPU_GO OR NOT ZKGPU_GOFMT OR NOT PKG_CONFIG_EXECUTABLE)
  set(ZKGPU_GO_SKIP "go, gofmt or pkg-config not found (Debian: golang-go pkg-config)")
elseif(ZKGPU_SANITIZE)
  # The installed library is instrumented; a Go test binary would need the sanitizer runtime
  # preloaded. The C ABI's own tests cover the sanitizer build.
  set(ZKGPU_GO_SKIP "sanitizer build (ZKGPU_SANITIZE=${ZKGPU_SANITIZE})")
elseif(NOT ZKGPU_BUILD_SHARED)
  set(ZKGPU_GO_SKIP "ZKGPU_BUILD_SHARED=OFF: zkgpu.pc's plain --libs links the shared library")
endif()
if(ZKGPU_GO_SKIP)
  message(STATUS "zkgpu: Go binding tests skipped: ${ZKGPU_GO_SKIP}")
  add_test(NAME go_bindings COMMAND ${CMAKE_COMMAND} -E echo "go_bindings: skipped: ${ZKGPU_GO_SKIP}")
  set_tests_properties(go_bindings PROPERTIES SKIP_REGULAR_EXPRESSION "skipped")
  return()
endif()
message(STATUS "zkgpu: Go binding tests with ${ZKGPU_GO}")

set(ZKGPU_GO_WORK ${PROJECT_BINARY_DIR}/go)
set(ZKGPU_GO_PREFIX ${ZKGPU_TEST_PREFIX})  # the package_install fixture's (cmake/tests.cmake)
# Go 1.19 keys its build cache on CGO_CFLAGS but not on what pkg-config says, so a changed
# include/zkgpu.h would not rebuild the cgo packages: its hash in CGO_CFLAGS does (an edit of the
# header reconfigures, through CMAKE_CONFIGURE_DEPENDS). -O2 -g are cgo's defaults.
set(ZKGPU_GO_CGO_CFLAGS "-O2 -g")
if(EXISTS ${PROJECT_SOURCE_DIR}/include/zkgpu.h)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/zkgpu.h)
  file(SHA256 ${PROJECT_SOURCE_DIR}/include/zkgpu.h ZKGPU_H_SHA256)
  string(APPEND ZKGPU_GO_CGO_CFLAGS " -DZKGPU_GO_HEADER_SHA256=${ZKGPU_H_SHA256}")
endif()
set(ZKGPU_GO_ENV
    "CGO_CFLAGS=${ZKGPU_GO_CGO_CFLAGS}"
    PKG_CONFIG_PATH=${ZKGPU_GO_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig
    LD_LIBRARY_PATH=${ZKGPU_GO_PREFIX}/${CMAKE_INSTALL_LIBDIR}
    GOCACHE=${ZKGPU_GO_WORK}/cache GOPATH=${ZKGPU_GO_WORK}/gopath GOENV=off GOFLAGS=-mod=readonly
    GOPROXY=off GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=1
    ZKGPU_VECTORS_DIR=${PROJECT_SOURCE_DIR}/tests/vectors
    OMP_WAIT_POLICY=passive)

# gofmt lists the files it would change; any listed file fails the test.
add_test(NAME go_fmt COMMAND ${ZKGPU_GOFMT} -l ${PROJECT_SOURCE_DIR}/bindings/go ${PROJECT_SOURCE_DIR}/examples/go)
set_tests_properties(go_fmt PROPERTIES FAIL_REGULAR_EXPRESSION "\\.go")

add_test(NAME go_vet COMMAND ${ZKGPU_GO} vet ./... WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/go)
# cgocheck=2 checks every pointer store as well as every call: the binding's pointer arrays must
# hold no Go pointers (cgo's rules), and this is what would catch one.
add_test(NAME go_test COMMAND ${ZKGPU_GO} test -count=1 ./... WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/go)
# The benchmarks' code paths, one iteration at the two small sizes (numbers come from -bench runs,
# docs/go.md).
add_test(NAME go_bench_smoke
         COMMAND ${ZKGPU_GO} test -count=1 -run ^$ -bench "/n=(1|64)$" -benchtime 1x ./...
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bindings/go)
add_test(NAME go_example_build COMMAND ${ZKGPU_GO} build -o ${ZKGPU_GO_WORK}/zkgpu-go-example .
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/examples/go)
# Through `cmake -E env` because the program does not exist until go_example_build has run, and
# ctest looks for a test's own executable when it lists the tests.
add_test(NAME go_example_run COMMAND ${CMAKE_COMMAND} -E env OMP_WAIT_POLICY=passive ${ZKGPU_GO_WORK}/zkgpu-go-example)
set_tests_properties(go_vet go_test go_bench_smoke go_example_build go_example_run PROPERTIES
                     FIXTURES_REQUIRED zkgpu_prefix ENVIRONMENT "${ZKGPU_GO_ENV}" TIMEOUT 900)
set_tests_properties(go_test PROPERTIES ENVIRONMENT "${ZKGPU_GO_ENV};GODEBUG=cgocheck=2")
set_tests_properties(go_example_build PROPERTIES FIXTURES_SETUP zkgpu_go_example)
set_tests_properties(go_example_run PROPERTIES FIXTURES_REQUIRED "zkgpu_prefix;zkgpu_go_example"
                     PASS_REGULAR_EXPRESSION "signatures valid, as crypto/ed25519 says")
