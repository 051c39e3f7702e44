#!/usr/bin/env bash
# CI stage: the ASan + UBSan build of the CPU library, CLI, tests and benchmarks (preset
# asan-ubsan: clang, -O2 -g, -DZKGPU_CUDA=OFF) and the whole ctest suite under it. Any sanitizer
# report fails its test (-fno-sanitize-recover=undefined; ASan halts on the first error; leaks
# are checked at exit). The valgrind constant-time tests are not part of this build (valgrind and
# ASan do not mix); the normal build runs them.
#
#   scripts/ci-sanitizers.sh            # BUILD=build-asan JOBS=$(nproc) by default
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
scripts/install-deps.sh clang libclang-rt-dev libomp-dev
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

start=$SECONDS
cmake --preset asan-ubsan "${launcher[@]}" >/dev/null
cmake --build --preset asan-ubsan -j"$JOBS"
built=$SECONDS
# ASAN_OPTIONS / UBSAN_OPTIONS come from the test preset (CMakePresets.json).
# ZKGPU_ASAN_CTEST_EXCLUDE (a ctest -E regex, empty by default) can park a test with a known,
# reported finding while its fix is pending; nothing is excluded unless it is set.
exclude=()
[ -n "${ZKGPU_ASAN_CTEST_EXCLUDE:-}" ] && exclude=(-E "$ZKGPU_ASAN_CTEST_EXCLUDE")
ctest --preset asan-ubsan -j"$JOBS" "${exclude[@]}"
echo "ci-sanitizers: build $((built - start)) s, ctest $((SECONDS - built)) s"
