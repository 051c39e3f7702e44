#!/usr/bin/env bash
# On the development machine, after a CUDA build of the library (scripts/build-for-gpu.sh or any
# build folder with the CUDA backend): a wheel of the Python package for the GPU machine's Python,
# built against this build's libzkgpu.a (ZKGPU_PYTHON_USE_INSTALLED=ON), so only the module is
# compiled and the wheel carries the CUDA backend inside. It lands in .whl/ (git-ignored); on the
# GPU machine:
#   python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/zkgpu-*.whl
#   PYTHONPATH=/tmp/site python3 -m pytest -q bindings/python/tests
#   PYTHONPATH=/tmp/site python3 -m zkgpu bench ed25519 --sizes 1,64,4096,1048576
# BUILD: the build folder (default build); PYTHON: the interpreter of the GPU machine's version
# (default python3.12).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
py=${PYTHON:-python3.12}
prefix=$(cd "$build" && pwd)/python-gpu-prefix
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
grep -q "set(ZKGPU_HAVE_CUDA ON)" "$prefix/lib/cmake/zkgpu/zkgpuConfig.cmake" ||
  echo "build-wheel-for-gpu: warning: $build has no CUDA backend; the wheel will be CPU-only" >&2
args="-DZKGPU_PYTHON_USE_INSTALLED=ON -Dzkgpu_DIR=$prefix/lib/cmake/zkgpu"
command -v ccache >/dev/null 2>&1 && args="$args -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
rm -f .whl/zkgpu-*.whl
CMAKE_ARGS="$args" "$py" -m pip wheel -q --no-deps -w .whl .
ls -l .whl/zkgpu-*.whl
